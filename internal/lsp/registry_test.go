package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/semdiff"
)

// With a registry checkout, a pack.json that is a newer version of a pack
// published there is compared with it as the editor holds it: flow 1.1.0
// after 1.0.1 narrows a node's config (a major change), so its version is
// an error on /version and the break a warning where it is; typed as
// 2.0.0 (unsaved), the error goes and a note says the bump is enough.
func TestLSPComparesAPackWithItsPublishedVersion(t *testing.T) {
	t.Parallel()
	history := fixtures.Path(t, "history", "core.openwop.flow")
	dir := fixtures.Untar(t, filepath.Join(history, "1.1.0.tgz"), t.TempDir())
	reg := t.TempDir()
	wk := fixtures.Path(t, "registry", ".well-known", "openwop-registry.json")
	published := filepath.Join(reg, "v2", "packs", "core.openwop.flow", "-")
	for _, d := range []string{filepath.Join(reg, ".well-known"), published} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for from, to := range map[string]string{wk: filepath.Join(reg, ".well-known", "openwop-registry.json"), filepath.Join(history, "1.0.1.tgz"): filepath.Join(published, "1.0.1.tgz")} {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pj := filepath.Join(dir, "pack.json")
	text, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	c := startSession(t, dir, Options{Registry: reg})
	u := c.open(pj, string(text), 1)
	pub := c.waitDiags(u, "version 1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
	low := hasCode(pub.Diagnostics, semdiff.RuleVersionTooLow)
	if low == nil || low.Severity != protocol.DiagnosticSeverityError || !strings.Contains(low.Message, "too low for the changes since core.openwop.flow@1.0.1") {
		t.Fatalf("no version-too-low error: %+v", pub.Diagnostics)
	}
	at := strings.Index(string(text), `"1.1.0"`)
	if want := newLines(text).rangeOf(at, at+len(`"1.1.0"`)); low.Range != want {
		t.Errorf("the error is at %+v, want the version's value %+v", low.Range, want)
	}
	// The break itself is where it is: the merge node's config schema.
	c.waitDiags(uri.File(filepath.Join(dir, "schemas", "merge.config.json")), "the break on the merge config", func(p protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if d.Severity == protocol.DiagnosticSeverityWarning && strings.HasPrefix(d.Message, "breaking since core.openwop.flow@1.0.1: node core.flow.merge config accepts less") {
				return true
			}
		}
		return false
	})

	c.change(u, strings.Replace(string(text), `"1.1.0"`, `"2.0.0"`, 1), 2)
	pub = c.waitDiags(u, "version 2", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 2 })
	if d := hasCode(pub.Diagnostics, semdiff.RuleVersionTooLow); d != nil {
		t.Errorf("2.0.0 is still too low: %+v", *d)
	}
	noted := false
	for _, d := range pub.Diagnostics {
		noted = noted || d.Severity == protocol.DiagnosticSeverityInformation && strings.Contains(d.Message, "compared with core.openwop.flow@1.0.1")
	}
	if !noted {
		t.Errorf("no note of the comparison: %+v", pub.Diagnostics)
	}

	// Without a checkout nothing is compared.
	c2 := startSession(t, dir, Options{})
	u2 := c2.open(pj, string(text), 1)
	pub = c2.waitDiags(u2, "version 1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
	if d := hasCode(pub.Diagnostics, semdiff.RuleVersionTooLow); d != nil {
		t.Errorf("compared without a checkout: %+v", *d)
	}
}

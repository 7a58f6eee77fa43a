package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

// crmOps is the pack.json of a v2 workflow-chain pack whose chain uses a
// parameter it never declares (as core.openwop.workflows.crm-ops 1.1.2 did).
const crmOps = `{
  "name": "vendor.acme.crm-ops",
  "version": "1.1.2",
  "kind": "workflow-chain",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "chains": [
    {
      "chainId": "crm.lead.route",
      "version": "1.0.0",
      "label": "Route a lead",
      "description": "route a new lead",
      "parameters": {"type": "object", "properties": {"owner": {"type": "string"}}},
      "dag": {
        "nodes": [
          {"id": "route", "typeId": "core.ai.chatCompletion@1.0.0",
            "config": {"systemPrompt": "Route {{params.owner}} on {{params.triggerEventName}}"}}
        ]
      }
    }
  ],
  "signing": {"keyId": "acme-2026", "scheme": "ed25519-canonical-json"}
}`

// versionManifestOf wraps a pack.json into a registry version manifest:
// the registry's members first, so that every pack member moves down.
func versionManifestOf(packJSON string) string {
	return `{
  "integrity": "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
  "publishedAt": "2026-01-02T03:04:05Z",
  "tarballUrl": "/v2/packs/x/-/x-1.1.2.tgz",
  "signatureUrl": "/v2/packs/x/-/x-1.1.2.sig",
` + strings.TrimPrefix(packJSON, "{\n")
}

// problemAt returns the problem of rule among ps, or nil.
func problemAt(ps []Problem, rule string) *Problem {
	for i := range ps {
		if ps[i].Rule == rule {
			return &ps[i]
		}
	}
	return nil
}

// A version manifest gets the lint rules of the pack.json it carries, at
// the pointers and positions of the version manifest file.
func TestVersionManifestCarriesPackRules(t *testing.T) {
	t.Parallel()
	v := newV(t)
	pj := v.Bytes("pack.json", []byte(crmOps), "")
	want := problemAt(pj.Files[0].Errors, "WC005")
	if want == nil {
		t.Fatalf("pack.json: no WC005\n%s", render(pj.Files[0].Errors))
	}
	vm := versionManifestOf(crmOps)
	rep := v.Bytes("1.1.2.json", []byte(vm), "")
	fr := rep.Files[0]
	if fr.Kind != kinds.VersionManifest || fr.Spec != kinds.V2 {
		t.Fatalf("detected %s %s, want a v2 version manifest", fr.Kind, fr.Spec)
	}
	got := problemAt(fr.Errors, "WC005")
	if got == nil || rep.Valid {
		t.Fatalf("version manifest: valid=%v, no WC005\n%s", rep.Valid, render(fr.Errors))
	}
	line := 1 + strings.Count(vm[:strings.Index(vm, `"Route {{params.owner}}`)], "\n")
	if got.Pointer != want.Pointer || got.Line != line || got.Line != want.Line+4 || got.Column != want.Column {
		t.Errorf("WC005 at %s %d:%d, want %s %d:%d (pack.json: %d:%d)", got.Pointer, got.Line, got.Column, want.Pointer, line, want.Column, want.Line, want.Column)
	}
	// The rules a version manifest already ran (PK00x) run once.
	for _, p := range append(fr.Errors, fr.Warnings...) {
		if strings.HasPrefix(p.Rule, "PK") {
			t.Errorf("unexpected %s", p)
		}
	}
}

// CN001 and CN002 speak on a connection pack's version manifest too.
func TestVersionManifestConnectionRules(t *testing.T) {
	t.Parallel()
	conn := `{
  "name": "vendor.acme.connections.crm",
  "version": "1.0.0",
  "kind": "connection",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "provider": {
    "id": "crm",
    "auth": {"kind": "oauth2", "pkce": "unsupported"},
    "reach": {"mcp": {"server": {"url": "https://crm.example.com/mcp", "transport": "http"}}}
  }
}`
	v := newV(t)
	for _, doc := range []string{conn, versionManifestOf(conn)} {
		rep := v.Bytes("x.json", []byte(doc), "")
		fr := rep.Files[0]
		for _, rule := range []string{"CN001", "CN002"} {
			if problemAt(fr.Warnings, rule) == nil {
				t.Errorf("%s: no %s warning\n%s", fr.Kind, rule, render(fr.Warnings))
			}
		}
	}
}

// The rules that read the pack's files do not run on a version manifest,
// which has none beside it: the report says so.
func TestVersionManifestSkipsFileRules(t *testing.T) {
	t.Parallel()
	node := `{
  "name": "vendor.acme.tools",
  "version": "1.0.0",
  "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "runtime": {"language": "javascript", "entry": "dist/index.mjs"},
  "nodes": [{"typeId": "vendor.acme.tools.echo", "version": "1.0.0", "configSchemaRef": "schemas/missing.json"}]
}`
	v := newV(t)
	rep := v.Bytes("1.0.0.json", []byte(versionManifestOf(node)), "")
	fr := rep.Files[0]
	if fr.Kind != kinds.VersionManifest {
		t.Fatalf("detected %s", fr.Kind)
	}
	for _, p := range append(fr.Errors, fr.Warnings...) {
		if p.Rule == "OW005" || p.Rule == "OW006" {
			t.Errorf("a file rule ran: %s", p)
		}
	}
	if !strings.Contains(fr.Note, "OW005") || !strings.Contains(fr.Note, "OW006") {
		t.Errorf("note %q does not name the skipped file rules", fr.Note)
	}
}

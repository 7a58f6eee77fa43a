package lsp

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/validate"
)

// snapshot hashes every file below dir, by path.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = sha256.Sum256(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The server never runs a pack's code: a javascript pack whose entry does
// not export its nodes gets no OW017 from it, though validate --run-entry
// reports one on the same pack; and a whole session (diagnostics, hover,
// completion, code actions asked for) leaves every file as it was.
func TestNeverRunsPackCodeNorWrites(t *testing.T) {
	t.Parallel()
	dir := scaffoldPack(t)
	if err := os.WriteFile(filepath.Join(dir, "index.mjs"), []byte("export const nodes = {};\nexport default nodes;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "prompts", "writer.md"))
	pj := filepath.Join(dir, "pack.json")
	if validate.NodeAvailable() {
		v, _ := validate.New(validate.Options{RunEntry: true})
		rep, err := v.Path(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !ruleIn(rep.Problems(), "OW017") {
			t.Logf("validate --run-entry raises no OW017 here (no sandbox on this machine?): the control proves nothing: %v", rep.Problems())
		}
	}
	before := snapshot(t, dir)
	text, _ := os.ReadFile(pj)
	c := startSession(t, dir, Options{})
	u := c.open(pj, string(text), 1)
	p := c.waitDiags(u, "v1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
	if hasCode(p.Diagnostics, "OW017") != nil {
		t.Errorf("the server ran OW017: %+v", p.Diagnostics)
	}
	var acts []codeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: protocol.Range{End: protocol.Position{Line: 1000}}}, &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) == 0 {
		t.Fatal("no code action offered: the check below proves nothing")
	}
	var cl protocol.CompletionList
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 2, Character: 2}}}, &cl)
	c.stop()
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d", len(before), len(after))
	}
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed", p)
		}
	}
}

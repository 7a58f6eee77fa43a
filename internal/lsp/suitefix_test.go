package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// OW011's cross-checks are reported on the agent's evalSuiteRef in
// pack.json; their fix edits the suite file, and the pack then raises no
// OW011.
func TestFitSuiteFix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, pointer string
		value         any
		title         string
	}{
		{"another agent's suite", "/targetAgentId", "vendor.acme.hello.other", `Set targetAgentId in evals/writer.json to "vendor.acme.hello.writer"`},
		{"a suite for other models", "/allowedModels", []string{"coding"}, `Add "general" to allowedModels in evals/writer.json`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := scaffoldPack(t)
			pj := filepath.Join(dir, "pack.json")
			suite := filepath.Join(dir, "evals", "writer.json")
			good, err := os.ReadFile(suite)
			if err != nil {
				t.Fatal(err)
			}
			broken, err := jsonedit.Set(good, tc.pointer, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(suite, broken, 0o644); err != nil {
				t.Fatal(err)
			}
			pt, _ := os.ReadFile(pj)
			if !ruleIn(problems(t, pj, pt), "OW011") {
				t.Fatalf("the broken suite raises no OW011:\n%s", broken)
			}
			carried := false
			for _, p := range problems(t, pj, pt) {
				carried = carried || p.Rule == "OW011" && p.Fix != nil && p.Fix.File != ""
			}
			if !carried {
				t.Fatal("OW011 does not carry its fix to the suite file (validate.Fix.File)")
			}
			c := startSession(t, dir, Options{})
			defer c.stop()
			u := c.open(pj, string(pt), 1)
			pub := c.waitDiags(u, "OW011", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW011") != nil })
			d := hasCode(pub.Diagnostics, "OW011")
			var acts []codeAction
			if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: d.Range}, &acts); err != nil {
				t.Fatal(err)
			}
			var act *codeAction
			var titles []string
			for i := range acts {
				titles = append(titles, acts[i].Title)
				if acts[i].Title == tc.title {
					act = &acts[i]
				}
			}
			if act == nil {
				t.Fatalf("no action %q among %q", tc.title, titles)
			}
			b, _ := json.Marshal(act.Edit)
			var e struct {
				DocumentChanges []protocol.TextDocumentEdit `json:"documentChanges"`
			}
			if err := json.Unmarshal(b, &e); err != nil || len(e.DocumentChanges) != 1 {
				t.Fatalf("edit %s: %v", b, err)
			}
			if got, _ := pathOf(e.DocumentChanges[0].TextDocument.URI); got != suite {
				t.Errorf("the edit is on %s, not %s", got, suite)
			}
			after := apply(t, *act, broken)
			if err := os.WriteFile(suite, after, 0o644); err != nil {
				t.Fatal(err)
			}
			ps := problems(t, pj, pt)
			if ruleIn(ps, "OW011") || len(errorsIn(ps)) > 0 {
				t.Errorf("after %q: %v\n%s", tc.title, ps, after)
			}
			v, _ := validate.New(validate.Options{})
			if errs := errorsIn(problemsOnFile(t, v, pj, suite)); len(errs) > 0 {
				t.Errorf("the suite after the fix: %v", errs)
			}
		})
	}
}

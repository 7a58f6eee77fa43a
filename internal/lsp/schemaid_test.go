package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// problemsOnFile is what validate, checking the pack.json at pj from disk,
// reports on file.
func problemsOnFile(t *testing.T, v *validate.Validator, pj, file string) []validate.Problem {
	t.Helper()
	fsys, err := untrusted.DirFS(filepath.Dir(pj))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	var out []validate.Problem
	for _, p := range v.Document(filepath.ToSlash(pj), fsys, text).Problems() {
		if filepath.Clean(filepath.FromSlash(p.File)) == file {
			out = append(out, p)
		}
	}
	return out
}

// The OW013 fix is offered on the schema file the diagnostic is published
// on, and the $id it writes is the one the rule expects: a stale $id, and
// (validate --for-registry) a missing one.
func TestSchemaIDFix(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		registry bool
		breakIt  func(string) string
	}{
		{"stale $id", false, func(s string) string { return strings.Replace(s, "/0.1.0/", "/0.0.9/", 1) }},
		{"$id of another file", false, func(s string) string { return strings.Replace(s, "hello.input.json", "other.json", 1) }},
		{"missing $id, for the registry", true, func(s string) string {
			i := strings.Index(s, `"$id"`)
			j := strings.Index(s[i:], "\n")
			return s[:i] + s[i+j+1:]
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := scaffoldPack(t)
			pj := filepath.Join(dir, "pack.json")
			schema := filepath.Join(dir, "schemas", "hello.input.json")
			good, err := os.ReadFile(schema)
			if err != nil {
				t.Fatal(err)
			}
			broken := tc.breakIt(string(good))
			if broken == string(good) || parsed([]byte(broken)) == nil {
				t.Fatalf("the case breaks nothing:\n%s", broken)
			}
			if err := os.WriteFile(schema, []byte(broken), 0o644); err != nil {
				t.Fatal(err)
			}
			v, err := validate.New(validate.Options{ForRegistry: tc.registry})
			if err != nil {
				t.Fatal(err)
			}
			if !ruleIn(problemsOnFile(t, v, pj, schema), "OW013") {
				t.Fatalf("the broken schema raises no OW013:\n%s", broken)
			}
			c := startSession(t, dir, Options{Validator: v})
			defer c.stop()
			su := c.open(schema, broken, 1)
			pt, _ := os.ReadFile(pj)
			c.open(pj, string(pt), 1)
			pub := c.waitDiags(su, "OW013", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW013") != nil })
			d := hasCode(pub.Diagnostics, "OW013")
			var acts []codeAction
			if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: su}, Range: d.Range}, &acts); err != nil {
				t.Fatal(err)
			}
			want := `Set $id to "https://packs.openwop.dev/vendor.acme.hello/0.1.0/hello.input.json"`
			var act *codeAction
			var titles []string
			for i := range acts {
				titles = append(titles, acts[i].Title)
				if acts[i].Title == want {
					act = &acts[i]
				}
			}
			if act == nil {
				t.Fatalf("no action %q among %q", want, titles)
			}
			if act.Kind != protocol.QuickFix || len(act.Diagnostics) != 1 || codeOf(act.Diagnostics[0]) != "OW013" {
				t.Errorf("action %+v", act)
			}
			after := apply(t, *act, []byte(broken))
			if err := os.WriteFile(schema, after, 0o644); err != nil {
				t.Fatal(err)
			}
			if ps := problemsOnFile(t, v, pj, schema); len(ps) > 0 {
				t.Errorf("after the fix: %v\n%s", ps, after)
			}
			if ps := errorsIn(problems(t, pj, pt)); len(ps) > 0 {
				t.Errorf("pack.json after the fix: %v", ps)
			}
		})
	}
}

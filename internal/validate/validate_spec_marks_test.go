package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

// Issue 44 item 3: one typo in engines.openwop (">=1.0.0", the ceiling
// lost) checked a whole v2 pack as v1, silently, advising "remove role".
// The range cannot decide; the pack's v2 marks do: it is checked as v2,
// the engines problem (PK001) comes with its fix, the note says which spec
// and why and the flag that forces the other, and no v1 advice is given.
func TestEnginesTypoChecksAsV2ByItsMarks(t *testing.T) {
	t.Parallel()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	pack := `{"name": "vendor.acme.hello", "version": "0.1.0", "kind": "node", "description": "Says hello.", "license": "MIT",
  "engines": {"openwop": ">=1.0.0"},
  "nodes": [{"typeId": "vendor.acme.hello.hello", "version": "0.1.0", "label": "Hello", "category": "data", "role": "pure"}],
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs"}}`
	rep := v.Bytes("pack.json", []byte(pack), "")
	f := rep.Files[0]
	if f.Spec != kinds.V2 || !strings.Contains(f.Note, "checked as v2") || !strings.Contains(f.Note, "nodes[0].role") || !strings.Contains(f.Note, "--spec v1") {
		t.Errorf("spec %s, note %q", f.Spec, f.Note)
	}
	pk := false
	for _, p := range f.Errors {
		if p.Rule == "PK001" && p.Fix != nil {
			pk = true
		}
		if strings.Contains(p.Message+p.Hint, "role") || strings.Contains(p.Hint, "migrate") {
			t.Errorf("v1 advice about a v2 pack: %s", p)
		}
	}
	if !pk {
		t.Errorf("no PK001 with its fix: %v", f.Errors)
	}
	// An explicit v1 range still decides v1, with no note.
	rep = v.Bytes("pack.json", []byte(strings.Replace(pack, `">=1.0.0"`, `">=1.0.0 <2.0.0"`, 1)), "")
	if f := rep.Files[0]; f.Spec != kinds.V1 || strings.Contains(f.Note, "checked as v2") {
		t.Errorf("explicit v1 range: spec %s, note %q", f.Spec, f.Note)
	}
}

package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
)

// TestVerdictsMatchAjv checks wopkit's schema verdict against ajv's (the
// validator the registry uses) on every real published manifest and on the
// hand-written cases; testdata/ajv/verdicts.sh regenerates the expectations.
func TestVerdictsMatchAjv(t *testing.T) {
	b, err := os.ReadFile("testdata/ajv/verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	var verdicts map[string]struct {
		Kind  Kind `json:"kind"`
		Spec  Spec `json:"spec"` // the schema set ajv used; "" is v1
		Valid bool `json:"valid"`
	}
	if err := json.Unmarshal(b, &verdicts); err != nil {
		t.Fatal(err)
	}
	v := newV(t)
	_, haveFixtures := fixtures.Find()
	if !haveFixtures {
		t.Log("../shared/fixtures is absent: only the hand-written cases are compared with ajv")
	}
	checked := 0
	for id, want := range verdicts {
		var data []byte
		switch {
		case strings.HasPrefix(id, "verdicts/"):
			data, err = os.ReadFile(filepath.Join("testdata", id))
		case !haveFixtures:
			continue
		case strings.HasPrefix(id, "registry/"):
			parts := strings.Split(id, "/")
			data = fixtures.File(t, fixtures.Tarball(t, parts[1], parts[2]), "pack.json")
		default:
			data, err = os.ReadFile(fixtures.Path(t, id))
		}
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		doc, err := jsondoc.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		spec := want.Spec
		if spec == SpecAuto {
			spec = V1
		}
		ps := v.SchemaProblemsFor(spec, want.Kind, doc, "")
		if got := len(ps) == 0; got != want.Valid {
			t.Errorf("%s: wopkit says valid=%v, ajv says %v\n%s", id, got, want.Valid, render(ps))
		}
		checked++
	}
	if checked < 15 {
		t.Fatalf("only %d verdicts compared", checked)
	}
}

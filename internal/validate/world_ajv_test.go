package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestVerdictsMatchAjv checks wopkit's schema verdict against ajv's (the
// validator the registry uses) on every real published manifest and on the
// hand-written cases; testdata/ajv/verdicts.sh regenerates the expectations.
func TestVerdictsMatchAjv(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/ajv/verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	var verdicts map[string]struct {
		Kind  kinds.Kind `json:"kind"`
		Spec  kinds.Spec `json:"spec"` // the schema set ajv used; "" is v1
		Valid bool       `json:"valid"`
	}
	if err := json.Unmarshal(b, &verdicts); err != nil {
		t.Fatal(err)
	}
	v := newV(t)
	_, haveFixtures := fixtures.Find()
	if !haveFixtures {
		t.Log("../shared/fixtures is absent: only the hand-written cases are compared with ajv")
	}
	_, haveSpecV2 := fixtures.FindSpecV2()
	if !haveSpecV2 {
		t.Log("../shared/spec-v2 is absent: the v2 registry manifests are not compared with ajv")
	}
	checked, v2manifests := 0, 0
	for key, want := range verdicts {
		// "<file>!pack" is a version manifest without the registry's fields:
		// the signed pack.json, checked against its kind's schema.
		id, asPack := strings.CutSuffix(key, "!pack")
		var data []byte
		switch {
		case strings.HasPrefix(id, "verdicts/"):
			data, err = os.ReadFile(filepath.Join("testdata", id))
		case strings.HasPrefix(id, "spec-v2/"):
			if !haveSpecV2 {
				continue
			}
			data, err = os.ReadFile(filepath.Join(fixtures.SpecV2(t), strings.TrimPrefix(id, "spec-v2/")))
			v2manifests++
		case !haveFixtures:
			continue
		case strings.HasPrefix(id, "registry/") && strings.HasSuffix(id, "/pack.json"):
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
		if asPack {
			b, _ := json.Marshal(stripRegistryFields(doc.Root))
			if doc, err = jsondoc.Parse(b); err != nil {
				t.Fatal(err)
			}
		}
		spec := want.Spec
		if spec == kinds.SpecAuto {
			spec = kinds.V1
		}
		ps := v.SchemaProblemsFor(spec, want.Kind, doc, "")
		if got := len(ps) == 0; got != want.Valid {
			t.Errorf("%s (%s %s): wopkit says valid=%v, ajv says %v\n%s", key, want.Spec, want.Kind, got, want.Valid, render(ps))
		}
		checked++
	}
	if checked < 60 {
		t.Fatalf("only %d verdicts compared", checked)
	}
	if haveSpecV2 && v2manifests < 20 {
		t.Fatalf("only %d v2 registry manifests compared: the recorded verdicts lack them (run testdata/ajv/verdicts.sh)", v2manifests)
	}
}

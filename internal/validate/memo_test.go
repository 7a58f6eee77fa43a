package validate

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// TestMemoMatchesWholeDocument checks that the incremental pack validation
// (shell + memoized items) reports exactly what validating the whole
// document at once reports, on fresh and on memoized runs.
func TestMemoMatchesWholeDocument(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"errors everywhere": `{"name":"Bad Name","version":"1.0","engines":{},"runtime":{"language":"cobol","entry":"x"},
  "nodes":[{"typeId":"ok.node","version":"1","category":"data","role":"pure"},
           {"typeId":"Bad","category":"flow","role":"pure","extra":1},
           {"typeId":"ok.node","version":"1","category":"data","role":"pure"}],
  "agents":[{"agentId":"vendor.a.b.c","persona":"P","modelClass":"writing"},
            {"agentId":"vendor.a.b.d","persona":"P","modelClass":"poetry","systemPrompt":"x","role":"skill"}],
  "signing":{"method":"pgp"}}`,
		"empty arrays":   `{"name":"vendor.a.b","version":"1.0.0","engines":{"openwop":"^1"},"runtime":{"language":"remote","entry":"pack.json"},"nodes":[],"agents":[]}`,
		"not arrays":     `{"name":"vendor.a.b","version":"1.0.0","engines":{"openwop":"^1"},"runtime":{"language":"remote","entry":"pack.json"},"nodes":{},"agents":"x"}`,
		"items not objs": `{"name":"vendor.a.b","version":"1.0.0","engines":{"openwop":"^1"},"runtime":{"language":"remote","entry":"pack.json"},"nodes":[1,null,[]]}`,
	}
	if _, ok := fixtures.Find(); ok {
		for _, tgz := range fixtures.Tarballs(t, "") {
			docs[tgz] = string(fixtures.File(t, tgz, "pack.json"))
		}
	}
	v := newV(t)
	for name, src := range docs {
		doc, err := jsondoc.Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		whole := v.shape(kinds.SchemaIDFor(kinds.V1, kinds.NodePack), doc.Root.Value(), doc, "")
		for run := 0; run < 2; run++ { // the second run is served from the memo
			inc, ok := v.packSchemaProblems(kinds.SchemaIDFor(kinds.V1, kinds.NodePack), doc)
			if !ok {
				t.Fatalf("%s: incremental validation unavailable", name)
			}
			if a, b := sorted(whole), sorted(inc); !reflect.DeepEqual(a, b) {
				t.Errorf("%s run %d:\nwhole:\n%s\nincremental:\n%s", name, run, render(a), render(b))
			}
		}
	}
}

func TestMemoSeesEdits(t *testing.T) {
	t.Parallel()
	v := newV(t)
	src := `{"name":"vendor.a.b","version":"1.0.0","engines":{"openwop":"^1"},"runtime":{"language":"remote","entry":"pack.json"},
"nodes":[{"typeId":"vendor.a.b.x","version":"1","category":"data","role":"pure"}]}`
	for i, want := range []int{0, 1, 0} {
		s := src
		if i == 1 {
			s = strings.Replace(src, `"data"`, `"dada"`, 1)
		}
		doc, _ := jsondoc.Parse([]byte(s))
		if got := len(v.SchemaProblems(kinds.NodePack, doc, "")); got != want {
			t.Errorf("step %d: %d problems, want %d", i, got, want)
		}
	}
}

func sorted(ps []Problem) []Problem {
	out := append([]Problem(nil), ps...)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

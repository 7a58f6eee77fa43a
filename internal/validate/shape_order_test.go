package validate

import (
	"fmt"
	"github.com/openwop/wopkit/internal/kinds"
	"testing"
)

// Schema problems come out in one order, run after run (the schema library
// collects sibling errors from maps): in document order of their pointers.
func TestSchemaProblemOrderIsStable(t *testing.T) {
	t.Parallel()
	doc := packWith(`"category": "data"`, `"category": "nope"`,
		`"runtime"`, `"agents": [{"agentId": "vendor.acme.tools.one", "persona": 7, "modelClass": "general"}], "license": 5, "keywords": "x", "runtime"`)
	var first string
	for i := range 30 {
		v, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		} // a fresh compile each time, as a new process does
		rep := v.Bytes("pack.json", []byte(doc), kinds.NodePack)
		got := fmt.Sprint(ptrs(rep.Problems()))
		if i == 0 {
			first = got
			if len(rep.Problems()) < 3 {
				t.Fatalf("too few problems to order: %v", got)
			}
			continue
		}
		if got != first {
			t.Fatalf("run %d ordered the problems\n%s\nrun 0:\n%s", i, got, first)
		}
	}
}

func ptrs(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Pointer+" "+p.Rule)
	}
	return out
}

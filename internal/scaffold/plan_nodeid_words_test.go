package scaffold

import (
	"strings"
	"testing"
)

// A node id given twice is said as that ("the id fetch is used twice"),
// not as "x.fetch ends like x.fetch", which reads as two different ids.
func TestDuplicateNodeIDSaidInWords(t *testing.T) {
	a := PackAnswers{}.Defaults()
	a.Nodes = append(a.Nodes, a.Nodes[0])
	found := false
	for _, fe := range a.precheck() {
		if fe.Field != "nodes.1.id" {
			continue
		}
		found = true
		if !strings.Contains(fe.Message, "the id "+a.Nodes[0].ID+" is used twice") || strings.Contains(fe.Message, "ends like") {
			t.Errorf("the duplicate id is not said in words: %s", fe.Message)
		}
	}
	if !found {
		t.Fatal("a node id given twice is no problem")
	}
}

// Two node ids that end in the same last part are said as that, naming
// the part their files share, not as "a.x ends like b.x".
func TestCollidingNodeIDsSaidInWords(t *testing.T) {
	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.hello"
	a.Nodes = append(a.Nodes, a.Nodes[0])
	a.Nodes[0].ID, a.Nodes[1].ID = "fetch", "vendor.other.fetch"
	for _, fe := range a.precheck() {
		if fe.Field == "nodes.1.id" {
			if !strings.Contains(fe.Message, "both end in fetch") || strings.Contains(fe.Message, "ends like") {
				t.Errorf("colliding ids are not said in words: %s", fe.Message)
			}
			return
		}
	}
	t.Fatal("two node ids ending alike are no problem")
}

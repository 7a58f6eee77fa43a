package wizard

import "testing"

// TestEveryRepeatedPageHasItsList: a page asked once per entry of a list
// names a list its file registered (registerList); an unknown name would
// ask the page once, whatever the list holds.
func TestEveryRepeatedPageHasItsList(t *testing.T) {
	t.Parallel()
	for _, p := range pages {
		if p.each != "" && lists[p.each] == nil {
			t.Errorf("page %q repeats over %q, which no file registers (registerList)", p.id, p.each)
		}
	}
}

// TestWalkRepeatsAPagePerEntry: the node page is asked once per node, as
// the registered length of "nodes" says.
func TestWalkRepeatsAPagePerEntry(t *testing.T) {
	t.Parallel()
	a := newAnswers()
	a.What = whatNodes
	for len(a.Pack.Nodes) < 3 {
		a.Pack.Nodes = append(a.Pack.Nodes, a.Pack.Nodes[0])
	}
	n := 0
	for _, at := range walk(a) {
		if at.pg.id == "node" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("the node page is asked %d times for 3 nodes", n)
	}
}

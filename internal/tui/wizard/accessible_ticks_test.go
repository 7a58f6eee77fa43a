package wizard

import (
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
)

// TestAccessibleTicksByNumberOrName (issue 25, item 13): an accessible list
// to tick lists its options numbered and takes a line of them named as a
// choice is (a number, a name in any case, the start of one), in any
// order: the answer keeps the options' order. A name that fits no option,
// or two, is refused saying what it takes, and from a pipe the run stops.
func TestAccessibleTicksByNumberOrName(t *testing.T) {
	enum := testValidator.Field(kinds.NodePack, "/nodes/0/capabilities").Enum
	if len(enum) < 3 {
		t.Fatalf("the node capabilities offer %v", enum)
	}
	const title = "Capabilities"
	// the second option by its name in capitals, the first by its number, the first again by a start
	// of its name (ticked once)
	line := strings.ToUpper(enum[1]) + ", 1, " + enum[0][:len(enum[0])-1]
	a, out, _ := askUntil(t, whatNodes, false, title, map[string][]string{title: {line}})
	if !strings.Contains(out, "1. "+enum[0]+"\n2. "+enum[1]) || !strings.Contains(out, "(- for none)") {
		t.Errorf("the options are not listed numbered:\n%s", out)
	}
	if got := a.Pack.Nodes[0].Capabilities; !slices.Equal(got, enum[:2]) {
		t.Errorf("%q ticked %v, want %v", line, got, enum[:2])
	}
	a, out, err := askUntil(t, whatNodes, false, title, map[string][]string{title: {"3, zzz"}})
	if err == nil || !strings.Contains(out+err.Error(), `"zzz" is not one of the choices: enter a number from 1 to `) {
		t.Errorf("an unknown name is not refused with what the list takes (%v):\n%s", err, out)
	}
	if len(a.Pack.Nodes) > 0 && slices.Contains(a.Pack.Nodes[0].Capabilities, enum[2]) {
		t.Errorf("a refused line ticked %v", a.Pack.Nodes[0].Capabilities)
	}
}

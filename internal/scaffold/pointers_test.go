package scaffold

import "testing"

// TestPlacesInMessage: a pointer a message names is replaced with its
// line; a file's path, a lone top-level token or a place without a name
// are left as they are.
func TestPlacesInMessage(t *testing.T) {
	name := func(p string) string {
		if p == "/nodes/0/typeId" {
			return "Node 1 › Node id"
		}
		return ""
	}
	for in, want := range map[string]string{
		`typeId "x" is already used at /nodes/0/typeId (line 16)`: `typeId "x" is already used at Node 1 › Node id`,
		`eval suite "evals/assistant.json" is not valid`:          `eval suite "evals/assistant.json" is not valid`,
		`see /agents/0/persona`:                                   `see /agents/0/persona`,
		`missing at /name`:                                        `missing at /name`,
		`(/nodes/0/typeId) clashes`:                               `(Node 1 › Node id) clashes`,
	} {
		if got := PlacesInMessage(in, name); got != want {
			t.Errorf("PlacesInMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

package jsondoc

import (
	"strings"
	"testing"
)

// Issue 10 item 2: a document's values are bounded (each costs a Node), so
// a 5 MB array of numbers is a json_too_many_nodes error, not gigabytes.
func TestMaxNodes(t *testing.T) {
	if _, err := ParseLimits([]byte(`[1,2,3]`), Limits{MaxBytes: 100, MaxDepth: 10, MaxNodes: 4}); err != nil {
		t.Errorf("4 values within a bound of 4: %v", err)
	}
	_, err := ParseLimits([]byte(`{"a":[1,2,{"b":3}]}`), Limits{MaxBytes: 100, MaxDepth: 10, MaxNodes: 5})
	if se, ok := err.(*SyntaxError); !ok || se.Code != "json_too_many_nodes" || se.Offset != 15 {
		t.Errorf("6 values, bound 5: %#v", err)
	}
	big := "[" + strings.Repeat("0,", DefaultLimits.MaxNodes) + "0]"
	if _, err := Parse([]byte(big)); err == nil || err.(*SyntaxError).Code != "json_too_many_nodes" {
		t.Errorf("default limits: %v", err)
	}
}

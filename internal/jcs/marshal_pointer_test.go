package jcs

import (
	"math"
	"strings"
	"testing"
)

// A refusal inside a member whose key holds "/" and "~" names it with an
// escaped JSON pointer (RFC 6901).
func TestMarshalErrorPointerEscapesKeys(t *testing.T) {
	_, err := Marshal(map[string]any{"a/b~c": []any{1, math.Inf(1)}}, Options{})
	if err == nil || !strings.Contains(err.Error(), " at /a~1b~0c/1") {
		t.Fatalf("got %v", err)
	}
}

package lsp

import (
	"testing"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/validate"
)

// Positions are UTF-16 code units (the protocol's default) while validate
// counts characters: a character beyond the BMP is two units, one column.
func TestPositionsCountUTF16(t *testing.T) {
	t.Parallel()
	text := []byte("{\n  \"description\": \"😀é\", \"version\": 1\n}\n")
	ls := newLines(text)
	off := len("{\n  \"description\": \"😀é\", ")
	// validate: line 2, column = characters before + 1.
	col := len([]rune("  \"description\": \"😀é\", ")) + 1
	if got := ls.lineCol(2, col); got != off {
		t.Fatalf("lineCol(2, %d) = %d, want %d", col, got, off)
	}
	want := protocol.Position{Line: 1, Character: uint32(len("  \"description\": \"")) + 2 + 1 + 3}
	if got := ls.position(off); got != want {
		t.Errorf("position = %+v, want %+v", got, want)
	}
	if got := ls.offset(want); got != off {
		t.Errorf("offset(%+v) = %d, want %d", want, got, off)
	}
	// A problem at "version"'s value is placed on the whole value.
	doc, err := jsondoc.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	p := validate.Problem{Line: 2, Column: col + len(`"version": `), Rule: "schema/type", Message: "m", Severity: validate.Error}
	d := toDiagnostic(p, ls, doc)
	if d.Range.Start.Character != want.Character+uint32(len(`"version": `)) || d.Range.End.Character != d.Range.Start.Character+1 {
		t.Errorf("range %+v", d.Range)
	}
	// On a key: the key's quotes.
	p = validate.Problem{Line: 2, Column: col, Rule: "schema/additionalProperties", Message: "m", Severity: validate.Error}
	if d := toDiagnostic(p, ls, doc); d.Range.End.Character-d.Range.Start.Character != uint32(len(`"version"`)) {
		t.Errorf("key range %+v", d.Range)
	}
}

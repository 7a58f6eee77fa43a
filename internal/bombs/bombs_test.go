package bombs

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

func TestRepeat(t *testing.T) {
	e := NumberArray("a.json", 100003)
	rc, _ := e.Open()
	b, _ := io.ReadAll(rc)
	var v []int
	if len(b) != 100003 || json.Unmarshal(b, &v) != nil || len(v) != 50001 {
		t.Fatalf("len %d, %d numbers", len(b), len(v))
	}
	f := Filler("x", 70000, 'x')
	rc, _ = f.Open()
	b, _ = io.ReadAll(rc)
	if !bytes.Equal(b, bytes.Repeat([]byte("x"), 70000)) {
		t.Fatal("filler")
	}
}

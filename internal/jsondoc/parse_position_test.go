package jsondoc

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// naivePosition is the oracle: count lines and characters from the start.
func naivePosition(src []byte, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(src[start:off]) + 1
}

func TestPositionMatchesNaiveCount(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "é", "😀", "\n", "{\"k\":1}", strings.Repeat("x", 300), "日本"}
	for round := 0; round < 50; round++ {
		var b strings.Builder
		for b.Len() < 3000 {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		src := []byte(b.String())
		d := &Doc{Src: src}
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			wl, wc := naivePosition(src, off)
			if l, c := d.Position(off); l != wl || c != wc {
				t.Fatalf("round %d offset %d: got %d:%d, want %d:%d", round, off, l, c, wl, wc)
			}
		}
	}
	if l, c := (&Doc{}).Position(0); l != 1 || c != 1 {
		t.Fatalf("empty doc: %d:%d", l, c)
	}
}

// TestMemberLookupInLargeObject: a key lookup in an object with many members
// finds the right member (the index built while parsing), and a missing key is nil.
func TestMemberLookupInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("z", i%7) + string(rune('a'+i%26)) + itoa(i) + `":` + itoa(i))
	}
	b.WriteString("}")
	d, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range d.Root.Members {
		got := d.Root.Member(m.Key)
		if got == nil || got.Value.Str != itoa(i) {
			t.Fatalf("member %q: got %+v", m.Key, got)
		}
	}
	if d.Root.Get("absent") != nil {
		t.Fatal("absent key found")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkPositionOneLine: 80k positions on a 1.7 MB one-line document.
func BenchmarkPositionOneLine(b *testing.B) {
	src := []byte(strings.Repeat(`"é":1,`, 1700000/7))
	b.ReportAllocs()
	for b.Loop() {
		d := &Doc{Src: src}
		for i := 0; i < 80000; i++ {
			d.Position(i * (len(src) / 80000))
		}
	}
}

package leaks

import (
	"errors"
	"strings"
	"testing"
)

// craftedKeywords is the worst case of the keyword index (issue 34): lines
// that each hold every keyword of every rule, n bytes in all.
func craftedKeywords(t testing.TB, n int) []byte {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(s.Keywords(), " ") + "\n"
	return []byte(strings.Repeat(line, n/len(line)+1)[:n])
}

// BenchmarkFindCrafted: the rules on 256 KiB (one window of the pack scan)
// of lines that hold every keyword, without a budget. 6.1 s/op before
// issue 34 (every rule's expression over the whole text).
func BenchmarkFindCrafted(b *testing.B) {
	text := craftedKeywords(b, 256<<10)
	s, _ := Default()
	var sc Scratch
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := s.Find(text, 0, "", &sc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFindBudget: a scan stops with ErrBudget once its work passes the
// budget, having done at most one rule's region more; without a budget the
// same text is scanned whole, each rule at most once over any byte.
func TestFindBudget(t *testing.T) {
	t.Parallel()
	text := craftedKeywords(t, 256<<10)
	s, _ := Default()
	sc := Scratch{Budget: 50 << 20}
	if r, err := s.Find(text, 0, "", &sc); !errors.Is(err, ErrBudget) || r != nil {
		t.Fatalf("Find = %v, %v; want ErrBudget", r, err)
	}
	var most int64
	for _, r := range s.Rules {
		most = max(most, r.cost)
	}
	if sc.Work > sc.Budget+most*int64(len(text)) {
		t.Errorf("work %d for a budget of %d", sc.Work, sc.Budget)
	}
	var free Scratch
	if _, err := s.Find(text, 0, "", &free); err != nil {
		t.Fatal(err)
	}
	var whole int64
	for ri, rs := range free.regions {
		for i, g := range rs {
			if g.start < 0 || g.end > len(text) || g.start >= g.end || i > 0 && g.start <= rs[i-1].end {
				t.Fatalf("rule %s: regions %v overlap or are out of order", s.Rules[ri].ID, rs)
			}
		}
		whole += int64(len(text))*s.Rules[ri].cost + int64(len(text))*int64(2+len(s.Rules[ri].shape.literals))
	}
	if free.Work > whole {
		t.Errorf("work %d, more than each rule once over the whole text (%d)", free.Work, whole)
	}
}

package order

import (
	"slices"
	"testing"
)

func TestBool(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b bool
		want int
	}{{false, false, 0}, {true, true, 0}, {false, true, -1}, {true, false, 1}} {
		if got := Bool(c.a, c.b); got != c.want {
			t.Errorf("Bool(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	s := []bool{true, false, true, false}
	slices.SortStableFunc(s, Bool)
	if !slices.Equal(s, []bool{false, false, true, true}) {
		t.Errorf("sorted: %v", s)
	}
}

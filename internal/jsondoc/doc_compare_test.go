package jsondoc

import "testing"

// TestComparePointers: indexes by number, names as text, a parent first.
func TestComparePointers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"/nodes/2", "/nodes/10", -1},
		{"/nodes/10", "/nodes/2", 1},
		{"/a", "/a/b", -1},
		{"/b", "/a/z", 1},
		{"/nodes/x", "/nodes/10", 1},
		{"/same/1", "/same/1", 0},
	} {
		if got := ComparePointers(c.a, c.b); got != c.want {
			t.Errorf("ComparePointers(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

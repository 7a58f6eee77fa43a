package words

import "testing"

func TestNearest(t *testing.T) {
	t.Parallel()
	flags := []string{"strict", "json", "format", "for-registry", "spec"}
	for in, want := range map[string]string{"strikt": "strict", "jsno": "json", "STRICT": "strict", "formt": "format", "zzzzzz": "", "for-regsitry": "for-registry"} {
		if got := Nearest(in, flags); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", in, got, want)
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d", d)
	}
}

package words

import "testing"

func TestWords(t *testing.T) {
	for got, want := range map[string]string{
		Count(1, "entry", "entries"): "1 entry",
		Count(0, "entry", "entries"): "0 entries",
		Plural(1, "file"):            "1 file",
		Plural(2, "file"):            "2 files",
		And(nil):                     "",
		And([]string{"a"}):           "a",
		And([]string{"a", "b"}):      "a and b",
		And([]string{"a", "b", "c"}): "a, b and c",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

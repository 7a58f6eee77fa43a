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
		Titled("`agentId` is 300 characters", "Agent id"): "Agent id is 300 characters",
		Titled("`0` is 300 characters", "Keywords"):       "item 1 of Keywords is 300 characters",
		Titled("run `wopkit new --spec v1`", "Name"):      "run `wopkit new --spec v1`",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

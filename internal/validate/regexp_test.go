package validate

import "testing"

func TestECMALookahead(t *testing.T) {
	t.Parallel()
	re, err := ecmaRegexp(`^(?!-)[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*\.[a-z][a-z0-9-]*$`)
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{"api.github.com": true, "-bad.example.com": false, "x.y": true, "nodot": false} {
		if got := re.MatchString(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
	if _, err := ecmaRegexp(`a(?<=b)`); err == nil {
		t.Error("a lookbehind compiled")
	}
}

package publish

import (
	"math/rand"
	"os"
	"path/filepath"

	"strings"
	"testing"
)

func TestLocaleCompareIsICURootOrder(t *testing.T) {
	t.Parallel()
	// Pairs in the order Node's "a".localeCompare(b) gives (checked with
	// Node 20's ICU); byte order disagrees on the starred ones.
	ordered := []string{
		"",
		"a",
		"a_b",  // * '_' sorts before '-' and '.'
		"a-",   //
		"a-b",  //
		"a.",   //
		"a.b",  //
		"a.Bc", // * case is only a tertiary difference
		"a0",
		"ab",
		"aB", // * lower case first when only case differs
		"Ab", // * the first case difference decides
		"AB",
		"b",
		"Box",
		"github",
		"GitHub",
		"Google",
		"Microsoft 365",
		"z",
	}
	for i := range ordered {
		for j := range ordered {
			want := cmpSign(i - j)
			if got := localeCompare(ordered[i], ordered[j]); got != want {
				t.Errorf("localeCompare(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

// TestLocaleCompareMatchesNode compares localeCompare with Node's on random
// strings over printable ASCII weighted toward the pack-name alphabet.
func TestLocaleCompareMatchesNode(t *testing.T) {
	t.Parallel()
	needNode(t)
	r := rand.New(rand.NewSource(18))
	alpha := "ab-._AB09zZ -_.a"
	var in []string
	for i := 0; i < 4000; i++ {
		var b strings.Builder
		for n := r.Intn(6); n > 0; n-- {
			if r.Intn(8) == 0 {
				b.WriteByte(byte(0x20 + r.Intn(0x5f)))
			} else {
				b.WriteByte(alpha[r.Intn(len(alpha))])
			}
		}
		in = append(in, b.String())
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte(strings.Join(in, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := node(t, dir, "-e", `const a = require('fs').readFileSync('in.txt', 'utf8').split('\n');
const r = []; for (let i = 0; i + 1 < a.length; i++) r.push(Math.sign(a[i].localeCompare(a[i + 1])));
console.log(r.join(','));`)
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := strings.Split(strings.TrimSpace(out), ",")
	bad := 0
	for i := 0; i+1 < len(in); i++ {
		got := localeCompare(in[i], in[i+1])
		if w := map[string]int{"-1": -1, "0": 0, "1": 1}[want[i]]; got != w && bad < 10 {
			bad++
			t.Errorf("localeCompare(%q, %q) = %d, Node says %d", in[i], in[i+1], got, w)
		}
	}
}

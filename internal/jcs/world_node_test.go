package jcs

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstNode compares Canonicalize with an ECMAScript reference
// (testdata/jcs.js run by node) on random documents: random IEEE doubles,
// keys mixing ASCII, BMP (including U+E000..U+FFFF) and astral characters,
// control characters and HTML-sensitive characters.
func TestAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: skipping the comparison with the ECMAScript reference")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var in bytes.Buffer
	var docs [][]byte
	for range 2000 {
		doc := []byte(randomJSON(r, 0))
		docs = append(docs, doc)
		in.Write(doc)
		in.WriteByte('\n')
	}
	cmd := exec.Command(node, "testdata/jcs.js")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.Bytes())
	}
	want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(want) != len(docs) {
		t.Fatalf("node returned %d lines for %d documents", len(want), len(docs))
	}
	for i, doc := range docs {
		got, err := Canonicalize(doc, Options{})
		if err != nil {
			t.Fatalf("Canonicalize(%s): %v", doc, err)
		}
		if string(got) != want[i] {
			t.Fatalf("differs from node\n in   %q\n got  %q\n want %q", doc, got, want[i])
		}
	}
}

// randomJSON builds a random JSON text (pretty-ish, with escapes) whose keys
// are unique.
func randomJSON(r *rand.Rand, depth int) string {
	switch k := r.IntN(8); {
	case depth < 3 && k == 0:
		n := r.IntN(6)
		seen := map[string]bool{}
		var parts []string
		for range n {
			key := randomString(r)
			if seen[key] {
				continue
			}
			seen[key] = true
			kb, _ := json.Marshal(key) // escapes <>& and U+2028 as \u....
			parts = append(parts, string(kb)+" : "+randomJSON(r, depth+1))
		}
		return "{ " + strings.Join(parts, ",\t ") + " }"
	case depth < 3 && k == 1:
		n := r.IntN(5)
		var parts []string
		for range n {
			parts = append(parts, randomJSON(r, depth+1))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case k == 2:
		b, _ := json.Marshal(randomString(r))
		return string(b)
	case k == 3:
		return []string{"true", "false", "null"}[r.IntN(3)]
	case k == 4:
		return strconv.Itoa(r.IntN(2000000) - 1000000)
	default:
		for {
			f := math.Float64frombits(r.Uint64())
			if math.IsNaN(f) || math.IsInf(f, 0) {
				continue
			}
			if r.IntN(2) == 0 {
				f = float64(float32(f)) // shorter digit strings, more mid-range exponents
				if math.IsInf(f, 0) {
					continue
				}
			}
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
}

func randomString(r *rand.Rand) string {
	pool := []rune{'a', 'b', 'A', '1', ' ', '<', '>', '&', '"', '\\', '/', '\n', '\t', 0x01, 0x1f, 0x7f,
		0x80, 0xe9, 0x20ac, 0x2028, 0x2029, 0xe000, 0xfb33, 0xfeff, 0xffff, 0x10000, 0x1f600, 0x1f601, 0x10ffff}
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteRune(pool[r.IntN(len(pool))])
	}
	return b.String()
}

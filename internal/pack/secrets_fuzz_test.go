package pack

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzScanSecrets: the scan (wopkit's rules, gitleaks' rules, the UTF-16
// and JSON readings) never fails or panics on any content, and a GitHub
// token after any content that ends a line is still found.
func FuzzScanSecrets(f *testing.F) {
	f.Add([]byte("export const nodes = {};\n"), "index.mjs")
	f.Add([]byte("\xff\xfet\x00o\x00k\x00e\x00n\x00"), "a.txt")
	f.Add([]byte(`{"a":"\u0067hp_\/x"}`), "b.json")
	f.Add([]byte("s.s.s.ey.ey.sk-----BEGIN \\u"), "c")
	token := fake("gh"+"p_", 36, alnums)
	f.Fuzz(func(t *testing.T, data []byte, rel string) {
		if _, err := scanSecrets(bytes.NewReader(data), rel, newScanBudget()); err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 || !strings.HasSuffix(string(data), "\n") {
			return // a NUL-heavy window may read as UTF-16; only plain lines below
		}
		what, err := scanSecrets(bytes.NewReader(append(append([]byte{}, data...), token+"\n"...)), "x.txt", newScanBudget())
		if err != nil || what == "" {
			t.Fatalf("a GitHub token after %q was not found (%v)", data, err)
		}
	})
}

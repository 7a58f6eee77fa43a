package tarball

import (
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The gzip header at every level is what the registry's builder writes
// (node's zlib.gzipSync, mtime and OS byte stomped to 0 and 255 as in
// build-pack-tarball.mjs): node is the oracle.
func TestGzipHeaderMatchesNodeZlib(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: cannot compare with zlib's gzip header")
	}
	script := `const z = require("zlib");
for (let l = 1; l <= 9; l++) {
  const g = z.gzipSync(Buffer.from("x"), { level: l });
  g[4] = g[5] = g[6] = g[7] = 0; g[9] = 0xff;
  console.log(g.subarray(0, 10).toString("hex"));
}`
	out, err := exec.Command(node, "-e", script).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	want := strings.Fields(string(out))
	if len(want) != 9 {
		t.Fatalf("node printed %q", out)
	}
	for level := 1; level <= 9; level++ {
		var buf bytes.Buffer
		if err := Write(&buf, []Entry{memEntry("pack.json", []byte("{}"))}, WriteOptions{Level: level}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes()[:10], mustHex(t, want[level-1])) {
			t.Errorf("level %d: header % x, zlib writes %s", level, buf.Bytes()[:10], want[level-1])
		}
	}
	var buf bytes.Buffer
	Write(&buf, []Entry{memEntry("pack.json", []byte("{}"))}, WriteOptions{})
	if !bytes.Equal(buf.Bytes()[:10], mustHex(t, want[8])) {
		t.Errorf("default level header % x, the builder (level 9) writes %s", buf.Bytes()[:10], want[8])
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	var b []byte
	for i := 0; i+1 < len(s); i += 2 {
		v, err := strconv.ParseUint(s[i:i+2], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, byte(v))
	}
	return b
}

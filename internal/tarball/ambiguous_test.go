package tarball

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// mutated is file(name, body) with its header changed by mut and the
// checksum recomputed, so only the mutation can be refused.
func mutated(name, body string, mut func(h []byte)) []byte {
	out := file(name, body)
	h := out[:blockSize]
	mut(h)
	copy(h[offChksum:], "        ")
	var sum int64
	for _, c := range h {
		sum += int64(c)
	}
	copy(h[offChksum:], fmt.Sprintf("%06o\x00 ", sum))
	return out
}

type disagreement struct {
	name string
	tar  []byte
	// readersAgree: Python's tarfile, Go's archive/tar, GNU tar and node-tar
	// read the header alike; it is refused all the same because it lies
	// outside every tar standard (readers not at hand, such as libarchive's
	// strict modes or busybox, read such fields their own way) and the
	// registry never writes it.
	readersAgree bool
	// needs names the one reader that reads the header differently, when
	// the others agree: the check is skipped without it.
	needs string
}

func disagreements() []disagreement {
	pack := file("pack.json", "{}")
	field := func(off int, v string) func([]byte) {
		return func(h []byte) { copy(h[off:], v) }
	}
	both := func(fs ...func([]byte)) func([]byte) {
		return func(h []byte) {
			for _, f := range fs {
				f(h)
			}
		}
	}
	gnuMagic := both(field(offMagic, "ustar  \x00"))
	v7Magic := field(offMagic, "\x00\x00\x00\x00\x00\x00\x00\x00")
	prefix := field(offPrefix, "../escaped")
	return append([]disagreement{
		{name: "old-GNU magic with a prefix", tar: concat(pack, mutated("evil.txt", "x", both(gnuMagic, prefix)), end())},
		{name: "V7 header with a prefix", tar: concat(pack, mutated("evil.txt", "x", both(v7Magic, prefix)), end())},
		{name: "USTAR magic, version not 00, with a prefix", tar: concat(pack, mutated("evil.txt", "x", both(field(offVersion, "xx"), prefix)), end()), needs: "node-tar"},
		{name: "uid not octal", tar: concat(pack, mutated("b.txt", "x", field(offUID, "zzzzzzz\x00")), file("c.txt", "y"), end())},
		{name: "size with a plus sign", tar: concat(pack, mutated("b.txt", "xy", field(offSize, "+0000000002\x00")), end())},
		{name: "size with an underscore", tar: concat(pack, mutated("b.txt", "xxxxxxxx", field(offSize, "000000001_0\x00")), end())},
		{name: "size with a digit after a NUL", tar: concat(pack, mutated("b.txt", "xy", field(offSize, "2\x00\x00\x00\x00\x00\x00\x00\x00\x00\x001")), end()), readersAgree: true},
		{name: "mtime with a digit after a NUL", tar: concat(pack, mutated("b.txt", "x", field(offMtime, "1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x007")), file("c.txt", "y"), end()), readersAgree: true},
		{name: "size in base-256", tar: concat(pack, mutated("b.txt", "xy", func(h []byte) {
			copy(h[offSize:], "\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02")
		}), end()), readersAgree: true},
		{name: "NUL in the name followed by bytes", tar: concat(pack, mutated("evil.txt", "x", field(offName+8, "\x00../../x")), end()), readersAgree: true},
	}, fieldDisagreements()...)
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Every header that readers could read differently is refused with
// tarball_ambiguous_header, before the callback sees that entry.
func TestAmbiguousHeadersRefused(t *testing.T) {
	t.Parallel()
	for _, d := range disagreements() {
		t.Run(d.name, func(t *testing.T) {
			var seen []string
			err := Walk(bytes.NewReader(gz(d.tar)), DefaultLimits, func(h Header, _ io.Reader) error {
				seen = append(seen, h.Name)
				return nil
			})
			if code := codeOf(err); code != CodeAmbiguousHeader {
				t.Fatalf("got %v (code %q), want %s; entries seen %q", err, code, CodeAmbiguousHeader, seen)
			}
			if len(seen) != 1 || seen[0] != "pack.json" {
				t.Errorf("callback saw %q before the refusal", seen)
			}
		})
	}
}

func codeOf(err error) string {
	var we *werr.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return ""
}

// The independent check that each refused header is read differently by
// two common readers: Python's tarfile and Go's archive/tar (the latter
// reads as GNU tar does for these fields).
func TestAmbiguousHeadersReadersDisagree(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: cannot compare with Python's tarfile")
	}
	// One Python and one node process read every case (each costs more to
	// start than to read a tar: a Python behind a pyenv shim runs a dozen
	// shell scripts first).
	script := `import json, sys, tarfile
lists = []
for p in sys.argv[1:]:
    out = []
    try:
        with tarfile.open(p) as t:
            for m in t:
                out.append("%s:%d" % (m.name, m.size))
    except Exception as e:
        out.append("error")
    lists.append(",".join(out))
print(json.dumps(lists))`
	dir := t.TempDir()
	cases := disagreements()
	var paths []string
	for i, d := range cases {
		p := filepath.Join(dir, fmt.Sprintf("%d.tar", i))
		if err := os.WriteFile(p, d.tar, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, err := exec.Command(py, append([]string{"-c", script}, paths...)...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var pyReads []string
	if err := json.Unmarshal(out, &pyReads); err != nil || len(pyReads) != len(paths) {
		t.Fatalf("python3 output %q: %v", out, err)
	}
	var nodeReads []string
	if nodeTar := nodeTarReader(t); nodeTar != nil {
		nodeReads = nodeTar(t, paths)
	}
	for i, d := range cases {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel() // each case waits on GNU tar
			p := paths[i]
			reads := map[string]string{"tarfile": pyReads[i], "archive/tar": strings.Join(goTarRead(d.tar), ",")}
			if gnu, err := exec.LookPath("tar"); err == nil {
				reads["GNU tar"] = gnuTarRead(gnu, p)
			}
			if nodeReads != nil {
				reads["node-tar"] = nodeReads[i]
			}
			if _, ok := reads[d.needs]; d.needs != "" && !ok {
				t.Skipf("%s not installed: it alone reads this header differently", d.needs)
			}
			t.Logf("readings: %q", reads)
			distinct := map[string]bool{}
			for _, r := range reads {
				distinct[r] = true
			}
			if d.readersAgree {
				if len(distinct) > 1 {
					t.Errorf("readers disagree: mark the case as shown")
				}
				return
			}
			if len(distinct) < 2 {
				t.Errorf("every reader reads %q: this header is not shown ambiguous", reads["tarfile"])
			}
		})
	}
}

// gnuTarRead lists name:size as GNU tar reads them, "error" last when it
// complains.
func gnuTarRead(bin, p string) string {
	out, err := exec.Command(bin, "--list", "--verbose", "--numeric-owner", "-f", p).Output()
	var list []string
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) >= 6 {
			list = append(list, strings.Join(f[5:], " ")+":"+f[2])
		}
	}
	if err != nil {
		list = append(list, "error")
	}
	return strings.Join(list, ",")
}

func goTarRead(b []byte) []string {
	var out []string
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return append(out, "error")
		}
		out = append(out, fmt.Sprintf("%s:%d", h.Name, h.Size))
	}
}

// Names that are one file on macOS or Windows, and names that display as
// other names, are refused by the reader and by the writer.
func TestNameCollisionsAndUnsafeNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		names []string
		code  string
	}{
		{[]string{"pack.json", "PACK.JSON"}, CodeNameCollision},
		{[]string{"pack.json", "README.md", "readme.md"}, CodeNameCollision},
		{[]string{"pack.json", "schemas/caf\u00e9.json", "schemas/cafe\u0301.json"}, CodeNameCollision}, // NFC vs NFD
		{[]string{"pack.json", "Schemas", "schemas/a.json"}, CodeNameCollision},
		{[]string{"pack.json", "Schemas/b.json", "schemas/a.json"}, CodeNameCollision},
		{[]string{"pack.json", "stra\u00dfe.md", "STRASSE.md"}, CodeNameCollision}, // full case folding
		{[]string{"pack.json", "a\u0085b.txt"}, CodeUnsafeName},                    // C1 NEL
		{[]string{"pack.json", "evil\u202etxt.sh"}, CodeUnsafeName},                // RLO
		{[]string{"pack.json", "x\u2066y"}, CodeUnsafeName},                        // LRI
		{[]string{"pack.json", "bad\xffname"}, CodeUnsafeName},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.names, "+"), func(t *testing.T) {
			var parts [][]byte
			var entries []Entry
			for _, n := range c.names {
				parts = append(parts, file(n, "{}"))
				entries = append(entries, memEntry(n, []byte("{}")))
			}
			err := Walk(bytes.NewReader(gz(append(parts, end())...)), DefaultLimits, func(Header, io.Reader) error { return nil })
			if codeOf(err) != c.code {
				t.Errorf("reader: got %v, want %s", err, c.code)
			}
			if err := WriteTar(io.Discard, entries); codeOf(err) != c.code {
				t.Errorf("writer: got %v, want %s", err, c.code)
			}
		})
	}
	// Names that differ but are distinct everywhere stay accepted.
	ok := [][]byte{file("pack.json", "{}"), file("schemas/a.json", "{}"), file("schemas/b.json", "{}"), file("caf\u00e9.md", "x"), file("\u00e9l\u00e8ve.md", "x"), end()}
	if err := Walk(bytes.NewReader(gz(ok...)), DefaultLimits, func(Header, io.Reader) error { return nil }); err != nil {
		t.Errorf("distinct names refused: %v", err)
	}
}

// GNU tar's base-256 uid (an LDAP uid above 2097151) is read alike by every
// reader and its value is ignored: such an archive made with `tar -czf` is
// accepted.
func TestBase256UIDAccepted(t *testing.T) {
	t.Parallel()
	big := mutated("b.txt", "x", func(h []byte) { copy(h[offUID:], "\x80\x00\x00\x00\x49\x96\x02\xd2") })
	if err := Walk(bytes.NewReader(gz(file("pack.json", "{}"), big, end())), DefaultLimits, func(Header, io.Reader) error { return nil }); err != nil {
		t.Errorf("base-256 uid refused: %v", err)
	}
	if got := goTarRead(concat(file("pack.json", "{}"), big, end())); strings.Join(got, ",") != "pack.json:2,b.txt:1" {
		t.Errorf("archive/tar reads %q", got)
	}
	// A date before 1970, as GNU tar writes it: negative base-256.
	old := mutated("c.txt", "x", func(h []byte) { copy(h[offMtime:], "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00") })
	if err := Walk(bytes.NewReader(gz(file("pack.json", "{}"), old, end())), DefaultLimits, func(Header, io.Reader) error { return nil }); err != nil {
		t.Errorf("base-256 negative mtime refused: %v", err)
	}
}

// The same with the archive GNU tar makes for a file owned by uid
// 1234567890 (tar -czf, its default format).
func TestGNUTarLargeUID(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("tar")
	if err != nil {
		t.Skip("GNU tar not installed")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte("{}"), 0o644)
	out := filepath.Join(t.TempDir(), "x.tgz")
	if msg, err := exec.Command(bin, "--owner=1234567890", "--group=1234567890", "-czf", out, "-C", dir, ".").CombinedOutput(); err != nil {
		t.Skipf("tar: %v %s", err, msg)
	}
	f, _ := os.Open(out)
	defer f.Close()
	if _, err := ReadAll(f, DefaultLimits); err != nil {
		t.Errorf("GNU tar archive with a large uid refused: %v", err)
	}
}

package tarball

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// pyLister is one long-lived python3 process listing tar archives with
// tarfile (testdata/tarlist.py), so that each input costs a pipe round
// trip rather than an interpreter start.
type pyLister struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

// pyEntry is one member as tarfile lists it.
type pyEntry struct {
	Name   string `json:"name"` // hex of the name's bytes
	Type   string `json:"type"` // hex of the typeflag
	Size   int64  `json:"size"`
	Mode   int64  `json:"mode"`
	SHA256 string `json:"sha256"`
}

type pyListing struct {
	Entries []pyEntry `json:"entries"`
	Error   string    `json:"error"`
}

func startPyLister(tb testing.TB) *pyLister {
	py, err := exec.LookPath("python3")
	if err != nil {
		tb.Skip("python3 not installed: cannot compare the reader with Python's tarfile")
	}
	p := &pyLister{cmd: exec.Command(py, filepath.Join("testdata", "tarlist.py"))}
	p.cmd.Stderr = &p.stderr
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p.out = bufio.NewReader(stdout)
	if err := p.cmd.Start(); err != nil {
		tb.Fatalf("python3: %v", err)
	}
	tb.Cleanup(func() { p.in.Close(); p.cmd.Wait() })
	return p
}

// list returns tarfile's listing of the tar stream b.
func (p *pyLister) list(tb testing.TB, b []byte) pyListing {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := p.in.Write(append(n[:], b...)); err != nil {
		tb.Fatalf("python3 helper: %v\n%s", err, p.stderr.String())
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		tb.Fatalf("python3 helper: %v\n%s", err, p.stderr.String())
	}
	var l pyListing
	if err := json.Unmarshal(line, &l); err != nil {
		tb.Fatalf("python3 helper output %q: %v", line, err)
	}
	return l
}

// entryLine renders one entry for comparison: type, name, size, mode and
// the content's SHA-256 for a file.
func entryLine(dir bool, name string, size, mode int64, sum string) string {
	if dir {
		return fmt.Sprintf("dir %q mode %o", name, mode)
	}
	return fmt.Sprintf("file %q size %d mode %o sha256 %s", name, size, mode, sum)
}

// gzWriters are reused: a new one costs more than the rest of an input.
var gzWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.NoCompression); return w }}

// wopkitListing walks the tar stream b (gzipped first) and lists what
// wopkit accepts, directories included, or returns Walk's error.
func wopkitListing(b []byte, lim Limits) ([]string, error) {
	var zb bytes.Buffer
	zw := gzWriters.Get().(*gzip.Writer)
	defer gzWriters.Put(zw)
	zw.Reset(&zb)
	zw.Write(b)
	zw.Close()
	var out []string
	err := walk(&zb, lim, func(h Header, body io.Reader) error {
		s := sha256.New()
		if _, err := io.Copy(s, body); err != nil {
			return err
		}
		out = append(out, entryLine(false, h.Name, h.Size, h.Mode, hex.EncodeToString(s.Sum(nil))))
		return nil
	}, func(h Header) { out = append(out, entryLine(true, h.Name, 0, h.Mode, "")) })
	return out, err
}

// normalised lists tarfile's entries as wopkit names them: one "./" prefix
// dropped, a directory's trailing "/" dropped ("./" is the root, ""). An
// entry of another type than a file or directory is listed as such, so it
// never matches.
func (l pyListing) normalised() []string {
	var out []string
	for _, e := range l.Entries {
		b, _ := hex.DecodeString(e.Name)
		name := strings.TrimPrefix(string(b), "./")
		switch e.Type {
		case "30", "00": // '0', NUL
			out = append(out, entryLine(false, name, e.Size, e.Mode, e.SHA256))
		case "35": // '5'
			if name == "." {
				name = ""
			}
			out = append(out, entryLine(true, strings.TrimSuffix(name, "/"), 0, e.Mode, ""))
		default:
			out = append(out, fmt.Sprintf("type %s %q size %d", e.Type, name, e.Size))
		}
	}
	return out
}

// FuzzPythonDifferential: whatever tar stream wopkit's reader accepts,
// Python's tarfile lists identically: the same files and directories in the
// same order, with the same names, sizes, modes and contents, and no error.
// (wopkit refusing what tarfile reads is fine.) Inputs are uncompressed tar
// streams, gzipped before Walk, so mutations reach the headers; seeds are
// the registry's real packs, a pack written by Write, archives of GNU tar's
// formats and headers with each field mutated.
func FuzzPythonDifferential(f *testing.F) {
	py := startPyLister(f)
	for _, s := range differentialSeeds(f) {
		f.Add(s)
	}
	lim := Limits{MaxCompressed: 4 << 20, MaxUnpacked: 4 << 20, MaxEntry: 1 << 20, MaxManifest: 256 << 10, MaxEntries: 1000}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := wopkitListing(data, lim)
		if err != nil {
			return
		}
		l := py.list(t, data)
		want := l.normalised()
		if l.Error != "" || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("wopkit accepts what tarfile reads differently\nwopkit:\n  %s\ntarfile:\n  %s\ntarfile error: %s",
				strings.Join(got, "\n  "), strings.Join(want, "\n  "), l.Error)
		}
	})
}

// differentialSeeds are tar streams (not gzipped) to start the fuzzer from.
func differentialSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	if dir, ok := fixtures.Find(); ok {
		paths, _ := filepath.Glob(filepath.Join(dir, "registry", "v1", "packs", "*", "-", "*.tgz"))
		for _, p := range paths {
			raw, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				tb.Fatalf("%s: %v", p, err)
			}
			b, err := io.ReadAll(zr)
			if err != nil {
				tb.Fatalf("%s: %v", p, err)
			}
			seeds = append(seeds, b)
		}
	}
	var w bytes.Buffer
	err := WriteTar(&w, []Entry{memEntry("pack.json", []byte(`{"name":"x"}`)), memEntry("schemas/a.json", []byte("{}")),
		memEntry("dist/index.mjs", bytes.Repeat([]byte("export const x = 1\n"), 40))})
	if err != nil {
		tb.Fatal(err)
	}
	seeds = append(seeds, w.Bytes())
	pack := file("pack.json", "{}")
	seeds = append(seeds,
		concat(file("./pack.json", "{}"), entry("./", '5'), entry("./dist/", '5'), file("./dist/a.js", "1"), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offMagic:], "ustar  \x00") }), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offMagic:], "\x00\x00\x00\x00\x00\x00\x00\x00") }), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offPrefix:], "dir") }), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offUID:], "\x80\x00\x00\x00\x49\x96\x02\xd2") }), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offUname:], "root") }), end()),
		concat(pack, mutated("b.txt", "x", func(h []byte) { copy(h[offUID:], make([]byte, 16)) }), end()), // npm pack's uid and gid
	)
	for _, d := range disagreements() {
		seeds = append(seeds, d.tar)
	}
	// Each numeric field of the second header in the forms readers part on.
	for _, fld := range append(numericFields[:len(numericFields):len(numericFields)], struct {
		name      string
		off, len  int
		base256OK bool
	}{"chksum", offChksum, 8, false}) {
		for _, v := range []string{"\x00", " ", "z", "+1", "\x801", "\xff", "0o7", "\t1"} {
			seeds = append(seeds, concat(pack, mutated("b.txt", "xy", func(h []byte) { copy(h[fld.off:fld.off+fld.len], v) }), file("c.txt", "z"), end()))
		}
	}
	return seeds
}

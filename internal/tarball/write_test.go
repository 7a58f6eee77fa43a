package tarball

import (
	"bytes"
	"compress/gzip"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

func memEntry(name string, data []byte) Entry {
	return Entry{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}}
}

// mixedData returns n bytes: text-like runs alternating with random runs.
func mixedData(r *rand.Rand, n int) []byte {
	words := strings.Fields("the pack node agent schema prompt eval runtime entry signing manifest registry tarball json value")
	var b bytes.Buffer
	for b.Len() < n {
		if r.IntN(3) == 0 {
			chunk := make([]byte, 1+r.IntN(200<<10))
			for i := range chunk {
				chunk[i] = byte(r.Uint32())
			}
			b.Write(chunk)
			continue
		}
		for range 1 + r.IntN(20000) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(" \n,:"[r.IntN(4)])
		}
	}
	return b.Bytes()[:n]
}

// TestWriteGNUTar: GNU tar lists and extracts our output as the registry's.
func TestWriteGNUTar(t *testing.T) {
	t.Parallel()
	tarBin, err := exec.LookPath("tar")
	if err != nil {
		t.Skip("GNU tar not installed: skipping the independent listing check")
	}
	r := rand.New(rand.NewPCG(3, 4))
	files := map[string][]byte{
		"pack.json":          []byte(`{"name":"vendor.acme.hello","version":"1.0.0"}`),
		"README.md":          []byte("# hello\n"),
		"schemas/in.json":    []byte(`{"type":"object"}`),
		"dist/big.bin":       mixedData(r, 3<<20+123),
		"empty.txt":          nil,
		"keys/pack.json.sig": bytes.Repeat([]byte{0xab}, 64),
	}
	var es []Entry
	for name, data := range files {
		es = append(es, memEntry(name, data))
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "p.tgz")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(f, es, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	list, err := exec.Command(tarBin, "-tzvf", out).CombinedOutput()
	if err != nil {
		t.Fatalf("tar -tzvf: %v\n%s", err, list)
	}
	lines := strings.Split(strings.TrimSpace(string(list)), "\n")
	wantOrder := []string{"README.md", "dist/big.bin", "empty.txt", "keys/pack.json.sig", "pack.json", "schemas/in.json"}
	if len(lines) != len(wantOrder) {
		t.Fatalf("tar lists %d entries:\n%s", len(lines), list)
	}
	re := regexp.MustCompile(`^-rw-r--r-- 0/0 +(\d+) 1970-01-01 00:00 (\S+)$`)
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil || m[2] != wantOrder[i] {
			t.Errorf("line %d %q, want a 0644 0/0 epoch entry named %s", i, l, wantOrder[i])
		}
	}
	x := filepath.Join(dir, "x")
	os.Mkdir(x, 0o755)
	if msg, err := exec.Command(tarBin, "-xzf", out, "-C", x).CombinedOutput(); err != nil {
		t.Fatalf("tar -xzf: %v\n%s", err, msg)
	}
	for name, data := range files {
		got, err := os.ReadFile(filepath.Join(x, name))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s extracted by GNU tar differs (err %v)", name, err)
		}
	}
	if gz, err := exec.LookPath("gzip"); err == nil {
		if msg, err := exec.Command(gz, "-t", out).CombinedOutput(); err != nil {
			t.Errorf("gzip -t: %v\n%s", err, msg)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 101)
	ok := memEntry("pack.json", []byte("{}"))
	shrink := Entry{Name: "s", Size: 10, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("short")), nil }}
	grow := Entry{Name: "g", Size: 2, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("longer")), nil }}
	fail := Entry{Name: "f", Size: 2, Open: func() (io.ReadCloser, error) { return nil, errors.New("boom") }}
	tests := []struct {
		name    string
		entries []Entry
		opts    WriteOptions
		code    string
	}{
		{"name 101 bytes", []Entry{ok, memEntry(long, nil)}, WriteOptions{}, CodeNameTooLong},
		{"duplicate", []Entry{ok, ok}, WriteOptions{}, CodeDuplicateEntry},
		{"traversal", []Entry{ok, memEntry("../x", nil)}, WriteOptions{}, CodePathTraversal},
		{"dot-slash", []Entry{memEntry("./pack.json", nil)}, WriteOptions{}, CodePathTraversal},
		{"absolute", []Entry{memEntry("/x", nil)}, WriteOptions{}, CodePathTraversal},
		{"shrank", []Entry{ok, shrink}, WriteOptions{}, CodeEntryChanged},
		{"grew", []Entry{ok, grow}, WriteOptions{}, CodeEntryChanged},
		{"open fails", []Entry{fail}, WriteOptions{}, "io_error"},
		{"bad level", []Entry{ok}, WriteOptions{Level: 10}, CodeBadOptions},
	}
	for _, tt := range tests {
		if err := Write(io.Discard, tt.entries, tt.opts); werr.CodeOf(err) != tt.code {
			t.Errorf("%s: error = %v, want %s", tt.name, err, tt.code)
		}
	}
	// Exactly 100 bytes is fine.
	if err := WriteTar(io.Discard, []Entry{memEntry(strings.Repeat("b", 100), nil)}); err != nil {
		t.Errorf("100-byte name refused: %v", err)
	}
	// A failing destination is an Env error.
	err := Write(failWriter{}, []Entry{ok}, WriteOptions{})
	var e *werr.Error
	if !errors.As(err, &e) {
		t.Fatalf("failing writer: %v", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestCRC32Combine(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for _, cut := range []int{0, 1, 7, 512, 4096, 65537, 99999, 100000} {
		a, b := data[:cut], data[cut:]
		got := crc32Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b)))
		if want := crc32.ChecksumIEEE(data); got != want {
			t.Errorf("cut %d: combined %08x, want %08x", cut, got, want)
		}
	}
}

// TestParallelGzip: one gzip member that decodes to the input, for sizes
// around the block boundaries, all levels and worker counts; random input
// costs almost nothing over its own size.
func TestParallelGzip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	mixed := mixedData(r, 2*pgzBlock+77)
	random := make([]byte, 3<<20)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	inputs := map[string][]byte{
		"empty": nil, "one": {42}, "block-1": mixed[:pgzBlock-1], "block": mixed[:pgzBlock],
		"block+1": mixed[:pgzBlock+1], "mixed": mixed, "random": random,
		"zeros": make([]byte, 2*pgzBlock+5),
	}
	for name, in := range inputs {
		levels := []int{1, 6, 9}
		if len(in) > pgzBlock+1 { // the large inputs at the default level only: level 9 is slow
			levels = []int{6}
		}
		for _, level := range levels {
			for _, conc := range []int{1, 3} {
				var buf bytes.Buffer
				z := newParallelGzip(&buf, level, conc)
				// Odd write sizes.
				for p := in; len(p) > 0; {
					n := min(len(p), 1+r.IntN(300000))
					z.Write(p[:n])
					p = p[n:]
				}
				if err := z.Close(); err != nil {
					t.Fatal(err)
				}
				zr, err := gzip.NewReader(&buf)
				if err != nil {
					t.Fatalf("%s/%d/%d: %v", name, level, conc, err)
				}
				zr.Multistream(false)
				got, err := io.ReadAll(zr)
				if err != nil || !bytes.Equal(got, in) {
					t.Fatalf("%s level %d conc %d: round trip failed (err %v, %d vs %d bytes)", name, level, conc, err, len(got), len(in))
				}
				if rest, _ := io.ReadAll(&buf); len(rest) != 0 {
					t.Fatalf("%s: %d bytes after the first gzip member", name, len(rest))
				}
			}
		}
	}
	var buf bytes.Buffer
	z := newParallelGzip(&buf, 6, 2)
	z.Write(random)
	z.Close()
	if over := buf.Len() - len(random); over > len(random)/500 {
		t.Errorf("random data grew by %d bytes: incompressible blocks should be stored", over)
	}
}

// TestWriteReadBack: what Write produces, ReadAll reads back unchanged
// under the registry limits.
func TestWriteReadBack(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	want := map[string][]byte{"pack.json": []byte(`{"name":"x"}`), "prompts/a.md": []byte("# a\n"), "dist/x.wasm": mixedData(r, 1<<20+3)}
	var es []Entry
	for n, d := range want {
		es = append(es, memEntry(n, d))
	}
	var buf bytes.Buffer
	if err := Write(&buf, es, WriteOptions{Level: 9}); err != nil {
		t.Fatal(err)
	}
	a, err := ReadAll(&buf, RegistryLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != len(want) {
		t.Fatalf("%d files read back, want %d", len(a.Files), len(want))
	}
	for _, f := range a.Files {
		if !bytes.Equal(f.Data, want[f.Name]) || f.Mode != 0o644 || f.Dir {
			t.Errorf("%s read back differently (mode %o)", f.Name, f.Mode)
		}
	}
	if a.Files[0].Name != "dist/x.wasm" || a.Get("nope") != nil {
		t.Errorf("archive order or Get wrong: first %s", a.Files[0].Name)
	}
}

package tarball

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

func entriesOf(a *Archive) []Entry {
	var es []Entry
	for _, f := range a.Files {
		es = append(es, Entry{Name: f.Name, Size: f.Size, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(f.Data)), nil
		}})
	}
	return es
}

// TestRegistryRoundTrip: every manual-signed registry tarball, read and
// written again, gives the registry's tar stream byte for byte; through
// Write, the gunzipped stream is the same too.
func TestRegistryRoundTrip(t *testing.T) {
	t.Parallel()
	tgzs := fixtures.Tarballs(t, "manual")
	if len(tgzs) < 6 {
		t.Fatalf("expected at least 6 manual-signed tarballs, found %d", len(tgzs))
	}
	for _, p := range tgzs {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(p))), func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ReadAll(bytes.NewReader(raw), RegistryLimits)
			if err != nil {
				t.Fatal(err)
			}
			want := fixtures.Gunzip(t, raw)
			es := entriesOf(a)
			// Reverse the order: Write must sort.
			for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
				es[i], es[j] = es[j], es[i]
			}
			var tarBuf bytes.Buffer
			if err := WriteTar(&tarBuf, es); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(tarBuf.Bytes(), want) {
				t.Fatalf("WriteTar differs from the registry's tar stream (%d vs %d bytes) at byte %d",
					tarBuf.Len(), len(want), firstDiff(tarBuf.Bytes(), want))
			}
			for _, conc := range []int{1, 2, 4} {
				var tgz bytes.Buffer
				if err := Write(&tgz, es, WriteOptions{Concurrency: conc}); err != nil {
					t.Fatal(err)
				}
				if got := fixtures.Gunzip(t, tgz.Bytes()); !bytes.Equal(got, want) {
					t.Fatalf("Write (concurrency %d) gunzips to different bytes at %d", conc, firstDiff(got, want))
				}
				// No name, mtime 0, OS 255 and the builder's level 9 (XFL 2):
				// the fixture's own header.
				if h := tgz.Bytes()[:10]; !bytes.Equal(h, raw[:10]) {
					t.Errorf("gzip header % x, the registry's is % x", h, raw[:10])
				}
			}
		})
	}
}

// TestRegistryLegacyTarball: the legacy tar -czf tarball (./ names,
// directory entries, real owners) is accepted, with names cleaned.
func TestRegistryLegacyTarball(t *testing.T) {
	t.Parallel()
	tgzs := fixtures.Tarballs(t, "ed25519")
	f, err := os.Open(tgzs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ReadAll(f, RegistryLimits)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range a.Files {
		names = append(names, f.Name)
	}
	want := []string{"pack.json", "README.md", "dist/rust_hello.wasm"}
	if len(names) != len(want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("files %v, want %v", names, want)
		}
	}
	if m := a.Get("dist/rust_hello.wasm").Mode; m != 0o755 {
		t.Errorf("mode %o, want 755", m)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

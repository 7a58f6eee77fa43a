package tarball

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
)

// stdRegular lists name:size of the regular files archive/tar reads from a
// .tgz ("./" stripped), or "error".
func stdRegular(tgz []byte) []string {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return []string{"error"}
	}
	var out []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			return append(out, "error")
		}
		if h.Typeflag == tar.TypeReg || h.Typeflag == '\x00' /* the old regular-file flag (TypeRegA) */ {
			out = append(out, fmt.Sprintf("%s:%d", strings.TrimPrefix(h.Name, "./"), h.Size))
		}
	}
}

// FuzzWalk: arbitrary bytes never make Walk panic, it never hands the
// callback more than the limits allow (so memory stays bounded), and what it
// accepts Go's archive/tar reads alike (same files, names and sizes): a
// header two readers read differently is refused.
func FuzzWalk(f *testing.F) {
	pack := file("pack.json", "{}")
	f.Add(gz(pack, end()))
	f.Add(gz(file("./pack.json", "{}"), entry("./", '5'), end()))
	f.Add(gz(pack, entry("evil", '2'), end()))
	f.Add(gz(pack, file("../x", "y"), end()))
	f.Add(gz(pack))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	f.Add([]byte("not gzip"))
	for _, d := range disagreements() {
		f.Add(gz(d.tar))
	}
	f.Add(gz(pack, file("README.md", "a"), file("readme.md", "b"), end()))
	lim := Limits{MaxCompressed: 1 << 20, MaxUnpacked: 1 << 20, MaxEntry: 256 << 10, MaxManifest: 64 << 10, MaxEntries: 100}
	f.Fuzz(func(t *testing.T, data []byte) {
		var total int64
		var files int
		var seen []string
		err := Walk(bytes.NewReader(data), lim, func(h Header, body io.Reader) error {
			files++
			seen = append(seen, fmt.Sprintf("%s:%d", h.Name, h.Size))
			if h.Size > lim.MaxEntry || h.Dir || h.Name == "" {
				t.Fatalf("callback got header %+v beyond the limits", h)
			}
			n, err := io.Copy(io.Discard, body)
			total += n
			if n > h.Size {
				t.Fatalf("body of %q yielded %d bytes, header says %d", h.Name, n, h.Size)
			}
			return err
		})
		if total > lim.MaxUnpacked || files > lim.MaxEntries {
			t.Fatalf("walked %d bytes in %d files, beyond the limits (err %v)", total, files, err)
		}
		if err == nil {
			if other := stdRegular(data); strings.Join(other, ",") != strings.Join(seen, ",") {
				t.Fatalf("Walk read %q, archive/tar reads %q", seen, other)
			}
			// Whatever Walk accepted, ReadAll reads identically or refuses only
			// for a missing manifest.
			if _, err := ReadAll(bytes.NewReader(data), lim); err != nil && err.Error() == "" {
				t.Fatal("empty error")
			}
		}
	})
}

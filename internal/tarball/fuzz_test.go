package tarball

import (
	"bytes"
	"io"
	"testing"
)

// FuzzWalk: arbitrary bytes never make Walk panic, and it never hands the
// callback more than the limits allow (so memory stays bounded).
func FuzzWalk(f *testing.F) {
	pack := file("pack.json", "{}")
	f.Add(gz(pack, end()))
	f.Add(gz(file("./pack.json", "{}"), entry("./", '5'), end()))
	f.Add(gz(pack, entry("evil", '2'), end()))
	f.Add(gz(pack, file("../x", "y"), end()))
	f.Add(gz(pack))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	f.Add([]byte("not gzip"))
	lim := Limits{MaxCompressed: 1 << 20, MaxUnpacked: 1 << 20, MaxEntry: 256 << 10, MaxManifest: 64 << 10, MaxEntries: 100}
	f.Fuzz(func(t *testing.T, data []byte) {
		var total int64
		var files int
		err := Walk(bytes.NewReader(data), lim, func(h Header, body io.Reader) error {
			files++
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
			// Whatever Walk accepted, ReadAll reads identically or refuses only
			// for a missing manifest.
			if _, err := ReadAll(bytes.NewReader(data), lim); err != nil && err.Error() == "" {
				t.Fatal("empty error")
			}
		}
	})
}

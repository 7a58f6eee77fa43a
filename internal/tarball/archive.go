package tarball

import (
	"bytes"
	"io"
	"io/fs"
	"path"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/werr"
)

// File is one regular file of an archive held in memory.
type File struct {
	Header
	Data []byte
}

// Archive is a pack tarball read into memory, files in archive order.
type Archive struct {
	Files []File
}

// ReadAll is Walk keeping every file in memory. It also refuses an archive
// without pack.json at its root (tarball_manifest_missing).
func ReadAll(r io.Reader, lim Limits) (*Archive, error) {
	a := &Archive{}
	err := Walk(r, lim, func(h Header, body io.Reader) error {
		// Grow with the data actually read, not the size a header claims:
		// a tiny hostile archive cannot make ReadAll allocate MaxEntry.
		buf := bytes.NewBuffer(make([]byte, 0, min(h.Size, 1<<20)))
		if _, err := buf.ReadFrom(body); err != nil {
			return err
		}
		a.Files = append(a.Files, File{Header: h, Data: buf.Bytes()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.Get(ManifestName) == nil {
		return nil, invalid(CodeManifestMissing, "the archive has no pack.json at its root").
			WithHint("a pack tarball carries its manifest as pack.json: build it with wopkit pack")
	}
	return a, nil
}

// Get returns the file with the given name, or nil.
func (a *Archive) Get(name string) *File {
	for i := range a.Files {
		if a.Files[i].Name == name {
			return &a.Files[i]
		}
	}
	return nil
}

// Extract writes the archive's files under dir (created if needed) through
// os.OpenRoot, so nothing can land outside it even if a name or a symlink
// already in dir points elsewhere. Each file is written to a temporary name
// and renamed into place; files get mode 0644, or 0755 when the archive
// marks them executable. Existing files of the same name are replaced.
func Extract(a *Archive, dir string) error {
	if err := atomicfile.MkdirAll(dir, 0o755); err != nil {
		return ioErr(err, "cannot create %s", dir)
	}
	place, err := atomicfile.OpenPlace(dir)
	if err != nil {
		return ioErr(err, "cannot open %s", dir)
	}
	defer place.Close()
	seen := map[string]bool{}
	for _, f := range a.Files {
		if err := checkName(f.Name); err != nil {
			return err
		}
		if seen[f.Name] {
			return invalid(CodeDuplicateEntry, "file %q appears twice in the archive", f.Name).
				WithHint("the archive is ambiguous: rebuild it with wopkit pack")
		}
		seen[f.Name] = true
		if err := extractFile(place, f); err != nil {
			return err
		}
	}
	return nil
}

func extractFile(place *atomicfile.Place, f File) error {
	if d := path.Dir(f.Name); d != "." {
		if err := place.MkdirAll(place.In(d), 0o755); err != nil {
			return ioErr(err, "cannot create directory %s for %s", d, f.Name)
		}
	}
	perm := fs.FileMode(0o644)
	if f.Mode&0o111 != 0 {
		perm = 0o755
	}
	if err := place.WriteFile(place.In(f.Name), f.Data, perm); err != nil {
		return ioErr(err, "cannot write %s", f.Name)
	}
	return nil
}

func ioErr(err error, format string, args ...any) *werr.Error {
	return werr.Wrap(werr.Env, "io_error", err, format, args...).
		WithHint("check the directory exists, is writable and has space")
}

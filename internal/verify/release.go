package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// The stable codes of a release whose version manifest (the <base>.json
// `pack` writes beside <base>.tgz) disagrees with its tarball, or cannot be
// read as one.
const (
	CodeReleaseMismatch = "release_integrity_mismatch"
	CodeReleaseInvalid  = "release_manifest_invalid"
)

// maxReleaseManifest bounds the version manifest read beside a tarball (the
// registry's limit for a registry document).
const maxReleaseManifest = 4 << 20

// release is the version manifest beside a tarball, as pack wrote it.
type release struct {
	path                     string
	name, version, integrity string
}

// releaseOf reads the version manifest beside the tarball at tgzPath (nil
// when there is none), through the untrusted layer with the tarball's
// folder as its root, as the detached signature is read: a link out of the
// folder, a named pipe or a file too large is refused with the layer's
// code, JSON that JSON.parse would read otherwise with the layer's JSON
// codes, a file that is not a version manifest (no integrity string) with
// release_manifest_invalid.
func releaseOf(tgzPath string, folders *untrusted.Folders) (*release, error) {
	p := besideManifest(tgzPath)
	var v struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		Integrity string `json:"integrity"`
	}
	// Decoded where it was read, into a buffer reused for the next
	// tarball's (decoding copies what it keeps).
	read := false
	err := folders.UseFile(p, maxReleaseManifest, func(data []byte) error {
		read = true
		return untrusted.DecodeJSON(data, &v) // the layer's code: json_invalid, json_duplicate_member
	})
	switch {
	case read && err != nil:
		return nil, err
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case werr.CodeOf(err) != "":
		return nil, err
	case err != nil:
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s, the version manifest beside %s", p, tgzPath).
			WithHint("check its permissions, or move the tarball away from it")
	}
	if v.Integrity == "" {
		return nil, werr.New(werr.Invalid, CodeReleaseInvalid, "%s beside %s is not its version manifest: it has no integrity", p, tgzPath).
			WithHint("a release is the .tgz, .sig and .json `wopkit pack` writes: pack it again, or move the tarball away from a .json of that name that is not its manifest")
	}
	return &release{path: p, name: v.Name, version: v.Version, integrity: v.Integrity}, nil
}

// agrees checks the tarball r describes against its version manifest and
// records that it did.
func (rel *release) agrees(r *Result) error {
	hint := "the .tgz is not the one its .json describes: a release interrupted between its renames, or a file replaced; " +
		"pack (or sign) into that folder again, which completes an interrupted release, or fetch the release again"
	if rel.integrity != r.Integrity {
		return werr.New(werr.Invalid, CodeReleaseMismatch, "%s has integrity %s, but %s beside it says %s", r.Path, r.Integrity, rel.path, rel.integrity).
			WithHint("%s", hint)
	}
	if rel.name != "" && rel.name != r.Name || rel.version != "" && rel.version != r.Version {
		return werr.New(werr.Invalid, CodeReleaseMismatch, "%s holds %s@%s, but %s beside it describes %s@%s", r.Path, r.Name, r.Version, rel.path, rel.name, rel.version).
			WithHint("%s", hint)
	}
	r.ReleaseManifest, r.ReleaseChecked = rel.path, true
	return nil
}

// noteRelease is NoteUncovered when the tarball matched its version
// manifest: that file is not signed, so it shows the release is whole, not
// who made the files other than pack.json.
func noteRelease(path string) string {
	return fmt.Sprintf("only pack.json is covered by the signature: the other files match the integrity in %s beside the tarball, "+
		"which is not signed (it shows the release is whole, not who made it; give --registry to check them against a registry)", filepath.Base(path))
}

// besideManifest is the path of the version manifest `pack` writes beside
// the tarball at tgzPath.
func besideManifest(tgzPath string) string { return strings.TrimSuffix(tgzPath, ".tgz") + ".json" }

// samePath reports whether two paths name the same file by name (the one
// the registry read is not read again).
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

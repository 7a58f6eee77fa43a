package validate

import (
	"errors"
	"io"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// tarballFile validates a pack tarball without extracting it to disk: the
// archive is streamed through the safe reader (which refuses hostile
// entries), its documents are kept in memory, and the pack is validated as a
// directory would be. Problems inside are reported as "x.tgz!/path".
func (v *Validator) tarballFile(path string) (*Report, error) {
	f, err := untrusted.OpenNamed(path, -1) // the tarball reader bounds what it reads
	if werr.CodeOf(err) == untrusted.CodeNotRegular {
		return nil, err
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path)
	}
	defer f.Close()
	name := displayPath(path)
	tr := FileReport{Path: name, Kind: kinds.Tarball}
	fsys, err := readTarball(f, v.opts.limits())
	if err != nil {
		var we *werr.Error
		if !errors.As(err, &we) || we.Class == werr.Env {
			return nil, err
		}
		tr.add(Problem{Line: 1, Column: 1, Rule: "tarball/" + we.Code, Message: we.Msg, Hint: we.Hint, Severity: Error})
		return v.report(tr), nil
	}
	pj := fsys["pack.json"]
	// Files the pack references are named beside "x.tgz!/pack.json", so
	// they already read "x.tgz!/schemas/a.json".
	frs := v.PackFiles(name+"!/pack.json", fsys, pj.Data)
	files := make(map[string][]byte, len(fsys))
	for n, f := range fsys {
		if f.Data != nil { // nil: too large to be a document (readTarball)
			files[n] = f.Data
		}
	}
	frs = UnparsedJSON(name+"!/", files, frs)
	return v.report(append([]FileReport{tr}, frs...)...), nil
}

// limits are the tarball limits: the registry's for a registry target, else
// Options.Limits or the default.
func (o Options) limits() tarball.Limits {
	switch {
	case o.ForRegistry:
		return tarball.RegistryLimits
	case o.Limits != nil:
		return *o.Limits
	}
	return tarball.DefaultLimits
}

// readTarball loads a tarball's files into an in-memory file system. Files
// too large to be documents keep their name but not their bytes.
func readTarball(r io.Reader, lim tarball.Limits) (fstest.MapFS, error) {
	fsys := fstest.MapFS{}
	err := tarball.Walk(r, lim, func(h tarball.Header, body io.Reader) error {
		if h.Size > MaxFileSize {
			fsys[h.Name] = &fstest.MapFile{Mode: 0o644}
			return nil
		}
		b, err := io.ReadAll(body)
		if err != nil {
			return err
		}
		fsys[h.Name] = &fstest.MapFile{Data: b, Mode: 0o644}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if fsys["pack.json"] == nil {
		return nil, werr.New(werr.Invalid, "tarball_manifest_missing", "the tarball has no pack.json at its root").
			WithHint("a pack tarball holds pack.json at the top level, without a package/ prefix")
	}
	return fsys, nil
}

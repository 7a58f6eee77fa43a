package pack

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Refusal is one thing Pack would refuse in a pack directory.
type Refusal struct {
	// File is the pack-relative, slash-separated path the refusal is about
	// ("pack.json" for the manifest and what it references).
	File string
	// Err is what Pack would return: its code (pack_secret,
	// pack_unsafe_entry, tarball_windows_name...), message and hint.
	Err *werr.Error
}

// Check is a dry run of Pack's collection: it lists everything Pack(opts)
// would refuse in opts.Dir (non-regular files, links leading out, forbidden
// files, names the tarball reader refuses, private keys and credentials,
// referenced files that are missing or that .openwopignore excludes, a
// manifest that cannot be made canonical, files over opts' size limits,
// names that are one file on macOS or Windows), every one rather than the
// first, and writes nothing. It neither validates (opts.Validate is not
// called) nor compresses: the compressed-size limit is left to Pack. An error
// is returned only when the directory cannot be read at all.
func Check(opts Options) ([]Refusal, error) {
	dir, src, err := openPack(opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	data, err := readManifest(src, dir)
	if err != nil {
		return refusalOr(ManifestFile, err)
	}
	m, err := ParseManifest(data, filepath.Join(dir, ManifestFile))
	if err != nil {
		return refusalOr(ManifestFile, err)
	}
	k := &collector{src: src, dir: dir, dry: true}
	if err := k.run(m); err != nil {
		return refusalOr("", err)
	}
	out, c := k.refusals, k.c
	for _, rel := range c.missing {
		out = append(out, Refusal{File: rel, Err: missingErr(dir, rel)})
	}
	for _, rel := range c.ignored {
		out = append(out, Refusal{File: rel, Err: ignoredErr(dir, rel)})
	}
	// Names the tarball writer would refuse as one file on macOS or
	// Windows (tarball_name_collision).
	names := make([]string, 0, len(c.files))
	for rel := range c.files {
		names = append(names, rel)
	}
	for _, r := range tarball.CheckNames(names) {
		var we *werr.Error
		if errors.As(r.Err, &we) {
			out = append(out, Refusal{File: r.Name, Err: we})
		}
	}
	b, err := build(context.Background(), m, c, Options{Dir: dir})
	if err != nil {
		return refusalOr(ManifestFile, err, out...)
	}
	if lim, ok := opts.limits(); ok {
		out = append(out, overLimits(b, dir, lim, opts.ForRegistry)...)
	}
	return out, nil
}

// refusalOr appends err to list as a refusal about rel, or returns it as
// the error when it is not a refusal (werr.Env: the pack cannot be read).
func refusalOr(rel string, err error, list ...Refusal) ([]Refusal, error) {
	var we *werr.Error
	if !errors.As(err, &we) || we.Class == werr.Env {
		return nil, err
	}
	return append(list, Refusal{File: rel, Err: we}), nil
}

// missingErr is Pack's refusal of referenced files that do not exist.
func missingErr(dir string, rels ...string) *werr.Error {
	return werr.New(werr.Invalid, "pack_file_missing", "pack.json in %s references %s, which does not exist", dir, strings.Join(rels, ", ")).
		WithHint("add the file, fix the reference, or pass --no-validate")
}

// ignoredErr is Pack's refusal of referenced files .openwopignore excludes:
// packed without them, the pack would be broken.
func ignoredErr(dir string, rels ...string) *werr.Error {
	return werr.New(werr.Invalid, "pack_file_ignored", "pack.json in %s references %s, which %s excludes", dir, strings.Join(rels, ", "), IgnoreFile).
		WithHint("remove the pattern that matches it from %s (or add a !%s line), fix the reference, or pass --no-validate", IgnoreFile, rels[0])
}

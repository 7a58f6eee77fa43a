package pack

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Shipped is the files a pack ships: for a folder, what `pack` would put
// into its tarball (the same collection, so that `diff OLD.tgz ./folder`
// compares what would ship); for a .tgz or NAME@VERSION, what the tarball
// holds.
type Shipped struct {
	// Where is the file or folder read: the folder, the .tgz, or the
	// registry's tarball.
	Where string
	// Archive is true when the files come from a tarball.
	Archive bool
	// Files are the files by slash path relative to the pack root.
	Files map[string][]byte
	// Refused are the folder's files `pack` would refuse (forbidden files,
	// links out, secrets), left out of Files.
	Refused []Refusal
}

// ShipOptions say where NAME@VERSION is read and within which limits.
type ShipOptions struct {
	// Registry is a registry checkout or root, for a NAME@VERSION.
	Registry string
	// Limits bound a tarball (default: tarball.DefaultLimits).
	Limits *tarball.Limits
}

func (o ShipOptions) limits() tarball.Limits {
	if o.Limits != nil {
		return *o.Limits
	}
	return tarball.DefaultLimits
}

// RegistryRef splits NAME@VERSION; a path (with a separator, or ending in
// .tgz) is never one.
func RegistryRef(arg string) (name, version string, ok bool) {
	if strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".tgz") {
		return "", "", false
	}
	name, version, ok = strings.Cut(arg, "@")
	return name, version, ok && name != "" && version != ""
}

// maxShippedFiles bounds how many files a folder may ship (the registry's
// limit on a tarball's entries).
const maxShippedFiles = 10000

// ShippedFiles reads the files the pack arg ships: a pack folder (the files
// `pack` collects: pack.json, README/LICENSE, the entry, every file the
// manifest references and the schemas, prompts, evals and keys folders,
// minus .openwopignore; a file `pack` would refuse is listed in Refused
// instead), a .tgz (through the safe tarball reader) or NAME@VERSION from
// o.Registry. `pack` collects the same way; `diff` and `bump` read every
// side through this.
func ShippedFiles(arg string, o ShipOptions) (*Shipped, error) {
	if name, version, ok := RegistryRef(arg); ok {
		if o.Registry == "" {
			return nil, werr.New(werr.Usage, "usage", "%s names a published version, but no registry was given", arg).
				WithHint("pass --registry DIR (a registry checkout), or give a folder or a .tgz")
		}
		root, err := registry.Open(o.Registry)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		data, where, err := root.Tarball(name, version, o.limits().MaxCompressed)
		if err != nil {
			return nil, err
		}
		return fromTarball(where, data, o.limits())
	}
	if strings.HasSuffix(arg, ".tgz") {
		data, err := untrusted.ReadNamed(arg, o.limits().MaxCompressed)
		if err != nil {
			return nil, err
		}
		return fromTarball(arg, data, o.limits())
	}
	return shippedDir(arg)
}

func fromTarball(where string, data []byte, lim tarball.Limits) (*Shipped, error) {
	a, err := tarball.ReadAll(bytes.NewReader(data), lim)
	if err != nil {
		return nil, err
	}
	s := &Shipped{Where: where, Archive: true, Files: make(map[string][]byte, len(a.Files))}
	for _, f := range a.Files {
		s.Files[f.Name] = f.Data
	}
	return s, nil
}

// shippedDir collects a folder as `pack` does, in a dry run.
func shippedDir(dir string) (*Shipped, error) {
	dir, src, err := openPack(Options{Dir: dir})
	if err != nil {
		return nil, err
	}
	defer src.Close()
	data, err := readManifest(src, dir)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data, filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	k := &collector{src: src, dir: dir, dry: true, lenient: true}
	if err := k.run(m); err != nil {
		return nil, err
	}
	if len(k.c.files) > maxShippedFiles {
		return nil, werr.New(werr.Invalid, "pack_too_many_files", "%s ships more than %d files", dir, maxShippedFiles).
			WithHint("a pack holds at most %d files (the registry's limit): list the others in %s", maxShippedFiles, IgnoreFile)
	}
	s := &Shipped{Where: dir, Files: make(map[string][]byte, len(k.c.files)), Refused: k.refusals}
	var total int64
	limit := tarball.RegistryLimits.MaxUnpacked * 5
	for rel := range k.c.files {
		b, err := src.readFile(rel, untrusted.MaxPackFile)
		if err == nil && len(b) > untrusted.MaxPackFile {
			return nil, werr.New(werr.Invalid, "file_too_large", "%s in %s is larger than %d MiB, the registry's limit for one file", rel, dir, untrusted.MaxPackFile>>20).
				WithHint("list it in %s if the pack need not ship it", IgnoreFile)
		}
		if werr.CodeOf(err) != "" {
			return nil, err // the read door's refusal (file_too_large, file_not_regular)
		}
		if err != nil {
			return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", rel, dir)
		}
		if total += int64(len(b)); total > limit {
			return nil, werr.New(werr.Invalid, "pack_too_large", "%s ships more than %d MiB", dir, limit>>20).
				WithHint("list what the pack does not ship in %s", IgnoreFile)
		}
		s.Files[rel] = b
	}
	return s, nil
}

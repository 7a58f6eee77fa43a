package publish

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/werr"
)

// The registry trees wopkit stages into.
const (
	SpecV1 = "v1" // the frozen v1 tree: registry/v1/packs
	SpecV2 = "v2" // the tree new publications land in: registry/v2/packs
)

// Tree is one tree (v1 or v2) of a registry root on disk, seen through an
// overlay of the files a command is about to write: every index and SBOM is
// computed from this view, so what is planned is exactly what the registry's
// scripts would compute from the tree once it is written.
type Tree struct {
	Root string // the registry root: the directory holding .well-known/
	Spec string // SpecV1 or SpecV2

	wellKnown *jsjson.Obj
	overlay   map[string][]byte // slash path relative to Root -> planned content
	order     []string          // overlay paths in the order they were planned
}

// FindRoot returns the registry root for dir: dir itself when it holds
// .well-known/openwop-registry.json, or dir/registry for a checkout of a
// registry repository.
func FindRoot(dir string) (string, error) { return registry.FindRoot(dir) }

// OpenTree opens the spec tree of the registry at dir.
func OpenTree(dir, spec string) (*Tree, error) {
	if spec == "" {
		spec = SpecV2
	}
	if spec != SpecV1 && spec != SpecV2 {
		return nil, werr.New(werr.Usage, "usage", "unknown registry tree %q", spec).WithHint("use --spec v1 or --spec v2")
	}
	root, err := FindRoot(dir)
	if err != nil {
		return nil, err
	}
	t := &Tree{Root: root, Spec: spec, overlay: map[string][]byte{}}
	data, _, err := t.read(registry.WellKnown)
	if err != nil {
		return nil, err
	}
	wk, err := jsjson.Parse(data, filepath.Join(root, filepath.FromSlash(registry.WellKnown)))
	if err != nil {
		return nil, err
	}
	t.wellKnown, _ = wk.(*jsjson.Obj)
	return t, nil
}

// endpoint returns the URL template the registry's discovery document gives
// for key in this tree (endpoints.<spec>.<key>, then for v1 the flat v1-era
// alias), or the registry's own default layout.
func (t *Tree) endpoint(key string) string {
	eps := jsjson.Field(t.wellKnown, "endpoints")
	if s, ok := jsjson.Str(jsjson.Field(jsjson.Field(eps, t.Spec), key)); ok && s != "" {
		return s
	}
	if t.Spec == SpecV1 {
		if s, ok := jsjson.Str(jsjson.Field(eps, key)); ok && s != "" {
			return s
		}
	}
	return registry.DefaultEndpoint(t.Spec, key)
}

// URL fills an endpoint template for name@version.
func (t *Tree) URL(key, name, version string) string {
	s := strings.ReplaceAll(t.endpoint(key), "{name}", name)
	return strings.ReplaceAll(s, "{version}", version)
}

// Paths of the tree's files, as slash paths relative to Root.

func (t *Tree) packsDir() string               { return t.Spec + "/packs" }
func (t *Tree) packDir(name string) string     { return t.packsDir() + "/" + name }
func (t *Tree) versionsDir(name string) string { return t.packDir(name) + "/-" }

// VersionFile is <spec>/packs/<name>/-/<version><ext>.
func (t *Tree) VersionFile(name, version, ext string) string {
	return t.versionsDir(name) + "/" + version + ext
}

// PackIndex is <spec>/packs/<name>/index.json.
func (t *Tree) PackIndex(name string) string { return t.packDir(name) + "/index.json" }

// RegistryIndex is <spec>/index.json.
func (t *Tree) RegistryIndex() string { return t.Spec + "/index.json" }

// AggregateSBOM is <spec>/sbom.json.
func (t *Tree) AggregateSBOM() string { return t.Spec + "/sbom.json" }

// MirrorFile is the schema mirror <name>/<version>/<file>, served where the
// pack's schema $ids point.
func (t *Tree) MirrorFile(name, version, file string) string {
	return name + "/" + version + "/" + file
}

func (t *Tree) abs(rel string) string { return filepath.Join(t.Root, filepath.FromSlash(rel)) }

// read returns a file's planned content, else its content on disk; ok is
// false when it exists in neither.
func (t *Tree) read(rel string) ([]byte, bool, error) {
	if b, ok := t.overlay[rel]; ok {
		return b, true, nil
	}
	b, err := os.ReadFile(t.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", t.abs(rel))
	}
	return b, true, nil
}

func (t *Tree) exists(rel string) bool {
	if _, ok := t.overlay[rel]; ok {
		return true
	}
	_, err := os.Stat(t.abs(rel))
	return err == nil
}

// put plans content for rel.
func (t *Tree) put(rel string, data []byte) {
	if _, ok := t.overlay[rel]; !ok {
		t.order = append(t.order, rel)
	}
	t.overlay[rel] = data
}

// list returns the names in directory rel (disk and plan), byte-sorted as
// Node's readdirSync returns them; dirs selects directories, else files.
func (t *Tree) list(rel string, dirs bool) ([]string, error) {
	seen := map[string]bool{}
	ents, err := os.ReadDir(t.abs(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot list %s", t.abs(rel))
	}
	for _, e := range ents {
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(t.abs(rel), e.Name())); err == nil {
				isDir = fi.IsDir()
			}
		}
		if isDir == dirs && !isTemp(e.Name()) {
			seen[e.Name()] = true
		}
	}
	prefix := rel + "/"
	for p := range t.overlay {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		first, _, sub := strings.Cut(rest, "/")
		if sub == dirs {
			seen[first] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// isTemp reports an atomicfile temporary, never part of the tree.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// safeName reports whether s can be one path segment of the tree.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && path.Clean(s) == s
}

// LockRegistry takes the exclusive lock on the registry root of dir
// (atomicfile.LockDir), so that two wopkit runs never plan and write the same
// tree at once; call the returned function when the plan is applied.
func LockRegistry(dir string) (func(), error) {
	root, err := FindRoot(dir)
	if err != nil {
		return nil, err
	}
	return atomicfile.LockDir(root)
}

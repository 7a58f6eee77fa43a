package publish

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
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
//
// The root is opened as an os.Root (untrusted.OpenDir): every read, listing,
// directory creation and rename stays inside it, so a directory of the
// checkout that is a link leading out of it (v2/packs, a pack's folder, its
// "-") is refused (path_outside_root) instead of being written through.
// Files are read only when regular (never blocking on a FIFO) and within the
// registry's bounds (see limit).
type Tree struct {
	Root string // the registry root: the directory holding .well-known/
	Spec string // SpecV1 or SpecV2

	dir       *untrusted.Dir
	notes     []string // what opening the tree repaired (an interrupted transaction)
	wellKnown *jsjson.Obj
	why       string            // why this tree: what the discovery document advertises (served)
	overlay   map[string][]byte // slash path relative to Root -> planned content
	order     []string          // overlay paths in the order they were planned
}

// FindRoot returns the registry root for dir: dir itself when it holds
// .well-known/openwop-registry.json, or dir/registry for a checkout of a
// registry repository.
func FindRoot(dir string) (string, error) { return registry.FindRoot(dir) }

// OpenTree opens the spec tree of the registry at dir, first completing or
// undoing a transaction an interrupted run of this user's left in it (see
// txnDir).
func OpenTree(dir, spec string) (*Tree, error) { return openTree(dir, spec, false) }

// openTree is OpenTree; with dryRun it changes nothing, and refuses a tree
// an interrupted run left half-written (CodePending).
func openTree(dir, spec string, dryRun bool) (*Tree, error) {
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
	d, err := untrusted.OpenDir(root)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot open the registry root %s", root)
	}
	t := &Tree{Root: root, Spec: spec, dir: d, overlay: map[string][]byte{}}
	note, err := recoverTree(d, dryRun)
	if err != nil {
		return nil, err
	}
	if note != "" {
		t.notes = append(t.notes, note)
	}
	data, ok, err := t.read(registry.WellKnown)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, werr.New(werr.Env, "registry_unreadable", "%s has no %s", root, registry.WellKnown)
	}
	wk, err := jsjson.Parse(data, t.abs(registry.WellKnown))
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

// limit is the size bound of a file of the tree read from disk: the
// registry-wide documents (the registry index, the aggregate SBOM, the v1
// landing page) grow with the registry and get untrusted.MaxIndex; a tarball the registry's
// compressed limit; a mirrored schema the registry's limit on one tarball
// entry; every other document untrusted.MaxDocument.
func (t *Tree) limit(rel string) int64 {
	switch {
	case rel == t.RegistryIndex() || rel == t.AggregateSBOM() || rel == landingPath:
		return untrusted.MaxIndex
	case strings.HasSuffix(rel, ".tgz"):
		return tarball.RegistryLimits.MaxCompressed
	case strings.Count(rel, "/") == 2 && !strings.HasPrefix(rel, t.Spec+"/") && !strings.HasPrefix(rel, ".") && !strings.HasPrefix(rel, "security/"):
		return tarball.RegistryLimits.MaxEntry // the schema mirror, <name>/<version>/<file>
	}
	return untrusted.MaxDocument
}

// read returns a file's planned content, else its content on disk; ok is
// false when it exists in neither. A file that is not regular, too large or
// reached through a link leaving the root is refused with the layer's code.
func (t *Tree) read(rel string) ([]byte, bool, error) {
	if b, ok := t.overlay[rel]; ok {
		return b, true, nil
	}
	b, err := t.dir.ReadFile(rel, t.limit(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, t.ioErr(rel, "read", err)
	}
	return b, true, nil
}

// ioErr keeps the layer's refusals (their codes are stable) and wraps any
// other failure as registry_unreadable.
func (t *Tree) ioErr(rel, what string, err error) error {
	if werr.CodeOf(err) != "" {
		return err
	}
	return werr.Wrap(werr.Env, "registry_unreadable", err, "cannot %s %s", what, t.abs(rel))
}

// exists reports whether rel is planned or on disk (links followed inside
// the root); a name that leaves the root is an error.
func (t *Tree) exists(rel string) (bool, error) {
	if _, ok := t.overlay[rel]; ok {
		return true, nil
	}
	_, err := t.dir.Stat(rel)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, t.ioErr(rel, "read", err)
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
// An entry that is a link is what it points to, and must stay in the root.
func (t *Tree) list(rel string, dirs bool) ([]string, error) {
	seen := map[string]bool{}
	ents, err := t.dir.ReadDir(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, t.ioErr(rel, "list", err)
	}
	for _, e := range ents {
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := t.dir.Stat(rel + "/" + e.Name())
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, t.ioErr(rel+"/"+e.Name(), "read", err)
			}
			isDir = err == nil && fi.IsDir()
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
func isTemp(name string) bool { return atomicfile.IsTemp(name) }

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

// CodeTreeUnsupported is the code of a write into a registry tree that the
// checkout's discovery document does not advertise.
const CodeTreeUnsupported = "registry_tree_unsupported"

// advertisedTrees lists the trees the discovery document advertises, with
// where it says so: endpoints.v1 / endpoints.v2 (objects of endpoint
// templates, as the v2 registry's document has), a "trees" list naming
// them, and for v1 the flat v1-era endpoints (every v1 registry's).
func (t *Tree) advertisedTrees() map[string]string {
	out := map[string]string{}
	eps := jsjson.Field(t.wellKnown, "endpoints")
	for _, spec := range []string{SpecV1, SpecV2} {
		if o, ok := jsjson.Field(eps, spec).(*jsjson.Obj); ok && o != nil {
			for _, k := range o.Keys() {
				if _, ok := jsjson.Str(jsjson.Field(o, k)); ok {
					out[spec] = "endpoints." + spec
					break
				}
			}
		}
	}
	if arr, ok := jsjson.Field(t.wellKnown, "trees").([]any); ok {
		for _, v := range arr {
			if s, ok := v.(string); ok && (s == SpecV1 || s == SpecV2) && out[s] == "" {
				out[s] = "trees"
			}
		}
	}
	if out[SpecV1] == "" {
		if s, ok := jsjson.Str(jsjson.Field(eps, "versionTarball")); ok && strings.HasPrefix(s, "/v1/") {
			out[SpecV1] = "endpoints.versionTarball"
		}
	}
	return out
}

// serves refuses (registry_tree_unsupported) a write into the v2 tree of a
// checkout whose discovery document does not advertise one: the registry
// would not serve it, and every check its pull request runs would pass
// without reading it. It records why the tree was chosen (t.why).
func (t *Tree) serves() error {
	adv := t.advertisedTrees()
	where := t.abs(registry.WellKnown)
	if at, ok := adv[t.Spec]; ok {
		t.why = fmt.Sprintf("%s advertises a %s tree (%s)", registry.WellKnown, t.Spec, at)
		return nil
	}
	if t.Spec == SpecV1 {
		t.why = "--spec v1 (the frozen v1 tree)"
		return nil
	}
	var has []string
	for _, s := range []string{SpecV1, SpecV2} {
		if at, ok := adv[s]; ok {
			has = append(has, s+" ("+at+")")
		}
	}
	says := "no tree"
	if len(has) > 0 {
		says = "only " + strings.Join(has, ", ")
	}
	return werr.New(werr.Invalid, CodeTreeUnsupported, "%s advertises %s, not a v2 tree: the registry does not serve registry/v2/, so nothing was written there", where, says).
		WithHint("update the checkout (git pull: a registry that serves v2 advertises endpoints.v2 in its discovery document), or pass --spec v1 for a v1 release into the v1 tree")
}

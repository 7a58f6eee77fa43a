// Package bump raises a pack's version and writes the new version into
// everything that names the pack's own version, editing each file's own
// text (internal/jsonedit: the other bytes stay) and writing them together
// through the write door (internal/atomicfile). `wopkit bump` calls Run.
//
// What names the pack's own version (decided from the spec and the
// registry's gates; README "Next version" and docs/RULES.md say the same):
//
//   - pack.json `version`;
//   - every `$id` the pack owns, https://packs.openwop.dev/<name>/<v>/<file>,
//     in any JSON file the pack ships, in every schema of it (the root and
//     each keyword that holds subschemas, at any depth; never inside
//     const, enum, default, examples or an unknown keyword, whose values
//     are data the schema compares values with): the registry's
//     check-pack-schema-ids refuses a stale one (OW013, an error with
//     --for-registry) and the spec's PACK-AUTHOR-QUICKSTART says to "bump
//     schema $id version segments with version"; a stale $id of an earlier
//     version is brought to the new one too;
//   - every `$ref` that names one of those $ids (it follows its schema), or
//     names a URL under the pack's own <name>/<old version>/;
//   - a chain step's typeId pinned to the old version
//     (`<typeId>@<old>`, RFC 0177 §E.1) when the typeId is one of the
//     pack's own nodes or lies in its own namespace (`<name>.`), and a
//     sub-chain reference `{packName: <name>, chainId, version: <old>}` to
//     the pack itself;
//   - a version-manifest-shaped file the pack ships (the registry's
//     `<version>.json`: a manifest with `integrity`) of this pack at the
//     old version: its `version` and the tarball, signature, manifest and
//     SBOM URLs that name `<name>/-/<old>.`; its integrity cannot be
//     recomputed and is said in a note.
//
// Nodes', agents', chains', templates' and eval suites' own `version`s are
// not the pack's: they are left alone (core.openwop.flow 1.1.0 ships nodes
// at 1.0.0).
package bump

import (
	"cmp"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/order"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// The levels Run takes; Auto asks the comparison.
const (
	Major = semdiff.BumpMajor
	Minor = semdiff.BumpMinor
	Patch = semdiff.BumpPatch
	Auto  = "auto"
	None  = semdiff.BumpNone
)

// Levels are the levels a user may ask for, in the order help lists them.
var Levels = []string{Major, Minor, Patch, Auto}

// The stable codes of a refused bump (exit 1).
const (
	CodeInvalid    = "bump_pack_invalid"   // the pack does not validate before the bump
	CodeNotSemVer  = "bump_not_semver"     // the version to bump from is not SemVer
	CodeOtherPack  = "bump_other_pack"     // --from names another pack
	CodeNoBase     = "bump_no_published"   // auto with --registry: no published version
	CodeUnbumpable = "bump_cannot_satisfy" // no bump makes the comparison pass
)

// Options configure Run.
type Options struct {
	// Level is Major, Minor, Patch or Auto.
	Level string
	// From is, for Auto, the version compared with: a pack folder, a .tgz
	// or NAME@VERSION (read from Registry).
	From string
	// Registry is a registry checkout: Auto without From compares with
	// the latest version of the pack it holds (either tree).
	Registry string
	// Limits bound a tarball read (default: the registry's).
	Limits *tarball.Limits
	// DryRun computes everything and writes nothing (and takes no lock).
	DryRun bool
	// NoValidate bumps a pack that does not validate.
	NoValidate bool
	// Validator checks the pack before the bump; nil uses the embedded
	// schemas (the pack's code is never run).
	Validator *validate.Validator
}

// Result is what Run did or would do.
type Result struct {
	Path string `json:"path"` // the pack folder
	Name string `json:"name"`
	Old  string `json:"old"` // pack.json's version before
	New  string `json:"new"` // after ("" when nothing changes)
	// Level is the bump made: major, minor, patch, or none.
	Level string `json:"level"`
	// ComparedWith is NAME@VERSION of the version Auto compared with.
	ComparedWith string `json:"comparedWith,omitempty"`
	// Reasons are the changes since ComparedWith (Auto), each with its
	// level: the bump is the smallest their top level needs.
	Reasons []semdiff.Change `json:"reasons"`
	// Verdict is the comparison's verdict on the bumped pack (Auto).
	Verdict  string    `json:"verdict,omitempty"`
	Files    []File    `json:"files"`
	Notes    []string  `json:"notes"`
	Problems []Problem `json:"problems"`
	Written  bool      `json:"written"`
	Diff     string    `json:"diff"`
}

// File is one file the bump rewrites.
type File struct {
	Path  string `json:"path"` // slash path in the pack
	Edits []Edit `json:"edits"`

	before, after []byte
}

// Edit is one value the bump rewrites.
type Edit struct {
	Pointer string `json:"pointer"`
	Line    int    `json:"line"`
	What    string `json:"what"`
	From    string `json:"from"`
	To      string `json:"to"`
}

// Problem is a problem of the pack that refused the bump, with its file.
type Problem = validate.FileProblem

// Run bumps the pack in the folder dir (or the folder of the pack.json dir
// names).
func Run(dir string, o Options) (*Result, error) {
	if !slices.Contains(Levels, o.Level) {
		return nil, werr.New(werr.Usage, "usage", "unknown bump %q", o.Level).WithHint("use one of %s", strings.Join(Levels, ", "))
	}
	if o.Level != Auto && (o.From != "" || o.Registry != "") {
		return nil, werr.New(werr.Usage, "usage", "--from and --registry say what bump auto compares with").WithHint("use `wopkit bump auto --from OLD`, or drop them")
	}
	if o.Level == Auto && o.From == "" && o.Registry == "" {
		return nil, werr.New(werr.Usage, "usage", "bump auto needs the version to compare with").
			WithHint("pass --from OLD (a folder, a .tgz, or NAME@VERSION with --registry) or --registry DIR (its latest version of the pack)")
	}
	dir, err := packDir(dir)
	if err != nil {
		return nil, err
	}
	if !o.DryRun {
		unlock, err := atomicfile.LockDir(dir)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	cur, err := semdiff.Load(dir, semdiff.LoadOptions{Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	res := &Result{Path: display(dir), Name: cur.Name, Old: cur.Version, Reasons: []semdiff.Change{}, Files: []File{}, Notes: []string{}, Problems: []Problem{}}
	if !o.NoValidate {
		if err := checkFirst(res, dir, o.Validator); err != nil {
			return res, err
		}
	}
	if o.Level == Auto {
		err = res.auto(dir, cur, o)
	} else {
		err = res.explicit(cur, o.Level)
	}
	if err != nil || len(res.Files) == 0 || o.DryRun {
		return res, err
	}
	b := atomicfile.Batch{Place: dir}
	for _, f := range res.Files {
		if err := b.Replace(filepath.Join(dir, filepath.FromSlash(f.Path)), f.after, f.before, 0o644); err != nil {
			b.Abort()
			return res, err
		}
	}
	if err := b.Commit(); err != nil {
		return res, err
	}
	res.Written = true
	return res, nil
}

// packDir is the pack folder path names: itself, or the folder of a
// pack.json.
func packDir(p string) (string, error) {
	if p == "" {
		p = "."
	}
	if err := safefile.CheckDir(p); err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", p).WithHint("pass a pack folder or its pack.json")
	}
	if !fi.IsDir() {
		if filepath.Base(p) != "pack.json" {
			return "", werr.New(werr.Usage, "usage", "%s is not a pack folder", p).WithHint("pass a pack folder (one holding pack.json) or its pack.json")
		}
		return filepath.Dir(p), nil
	}
	return p, nil
}

// checkFirst refuses a pack that does not validate (errors; warnings,
// such as a stale $id, are what a bump mends).
func checkFirst(res *Result, dir string, v *validate.Validator) error {
	if v == nil {
		var err error
		if v, err = validate.New(validate.Options{}); err != nil {
			return err
		}
	}
	rep, err := v.Paths([]string{dir})
	if err != nil {
		return err
	}
	n := 0
	for _, f := range rep.Files {
		for _, p := range f.Errors {
			res.Problems = append(res.Problems, Problem{File: f.Path, Problem: p})
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return werr.New(werr.Invalid, CodeInvalid, "%s does not validate (%d error(s)): not bumped, nothing was written", res.Path, n).
		WithHint("fix the problems listed (`wopkit validate --fix %s` applies the mechanical fixes), or bump anyway with --no-validate", res.Path)
}

// explicit bumps pack.json's own version by level.
func (r *Result) explicit(cur *semdiff.Pack, level string) error {
	v, err := semver.StrictNewVersion(cur.Version)
	if err != nil {
		return werr.New(werr.Invalid, CodeNotSemVer, "%s: version %q is not SemVer: it cannot be bumped", r.Path, cur.Version).
			WithHint("write the version as MAJOR.MINOR.PATCH in pack.json")
	}
	r.Level = level
	r.New = inc(v, level)
	return r.plan(cur, r.New)
}

// auto bumps to the smallest version above the compared one that makes
// the comparison (wopkit diff's) pass.
func (r *Result) auto(dir string, cur *semdiff.Pack, o Options) error {
	base, err := baseOf(cur, o)
	if err != nil {
		return err
	}
	if base.Name != cur.Name {
		return werr.New(werr.Invalid, CodeOtherPack, "%s is %s, not %s: bump compares two versions of one pack", o.From, base.Name, cur.Name).
			WithHint("pass an earlier version of %s", cur.Name)
	}
	r.ComparedWith = base.Name + "@" + base.Version
	bv, err := semver.NewVersion(base.Version)
	if err != nil {
		return werr.New(werr.Invalid, CodeNotSemVer, "%s: version %q is not SemVer: no bump can be computed from it", r.ComparedWith, base.Version)
	}
	cmpNow := semdiff.Compare(base, cur)
	r.Reasons, r.Verdict = cmpNow.Changes, cmpNow.Verdict
	if cv, err := semver.NewVersion(cur.Version); err == nil && cmpNow.VersionOK && (cv.GreaterThan(bv) || cmpNow.Required == None) {
		r.Level = None
		if cmpNow.Required == None && cv.Equal(bv) {
			r.Notes = append(r.Notes, fmt.Sprintf("no change a consumer can notice since %s: nothing to bump (`wopkit bump patch` raises the version anyway)", r.ComparedWith))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("version %s is already enough for the changes since %s: nothing to bump", cur.Version, r.ComparedWith))
		}
		return nil
	}
	levels := []string{Patch, Minor, Major}
	start := max(0, slices.Index(levels, cmpNow.Required))
	for _, level := range levels[start:] {
		nv := inc(bv, level)
		trial := &Result{Path: r.Path, Old: r.Old, Files: []File{}, Notes: []string{}}
		if err := trial.plan(cur, nv); err != nil {
			return err
		}
		files := map[string][]byte{}
		for _, f := range trial.Files {
			files[f.Path] = f.after
		}
		after, err := semdiff.Planned(dir, files)
		if err != nil {
			return err
		}
		c := semdiff.Compare(base, after)
		if c.VersionOK {
			r.Level, r.New, r.Files, r.Notes, r.Diff = level, nv, trial.Files, append(r.Notes, trial.Notes...), trial.Diff
			r.Reasons, r.Verdict = c.Changes, c.Verdict
			return nil
		}
	}
	return werr.New(werr.Invalid, CodeUnbumpable, "no version bump of %s makes its comparison with %s pass: %s", r.Path, r.ComparedWith, cmpNow.Verdict)
}

// baseOf reads the version Auto compares with.
func baseOf(cur *semdiff.Pack, o Options) (*semdiff.Pack, error) {
	lo := semdiff.LoadOptions{Registry: o.Registry, Limits: o.Limits}
	if o.From != "" {
		return semdiff.Load(o.From, lo)
	}
	latest, err := latestPublished(o.Registry, cur.Name)
	if err != nil {
		return nil, err
	}
	if latest == "" {
		return nil, werr.New(werr.Invalid, CodeNoBase, "%s holds no published version of %s: nothing to compare with", o.Registry, cur.Name).
			WithHint("a first release keeps its version; `wopkit bump patch|minor|major` raises it by hand")
	}
	return semdiff.Load(cur.Name+"@"+latest, lo)
}

// latestPublished is the highest version of name the checkout holds, in
// either tree ("" when none).
func latestPublished(dir, name string) (string, error) {
	root, err := registry.Open(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	var best *semver.Version
	bestS := ""
	for _, tree := range []string{registry.TreeV2, registry.TreeV1} {
		vs, err := root.Published(tree, name)
		if err != nil {
			return "", err
		}
		for _, s := range vs {
			v, err := semver.NewVersion(s)
			if err == nil && (best == nil || v.GreaterThan(best)) {
				best, bestS = v, s
			}
		}
	}
	return bestS, nil
}

// inc is v raised by level.
func inc(v *semver.Version, level string) string {
	switch level {
	case Major:
		return v.IncMajor().String()
	case Minor:
		return v.IncMinor().String()
	}
	return v.IncPatch().String()
}

// plan computes every edit that writes nv where the pack names its own
// version, and the unified diff.
func (r *Result) plan(cur *semdiff.Pack, nv string) error {
	old := cur.Version
	rels := make([]string, 0, len(cur.Files))
	for rel := range cur.Files {
		if strings.HasSuffix(rel, ".json") && !linked(cur.Where, rel) {
			rels = append(rels, rel)
		}
	}
	slices.SortFunc(rels, func(a, b string) int {
		return cmp.Or(order.Bool(a != "pack.json", b != "pack.json"), cmp.Compare(a, b))
	})
	docs := map[string]*jsondoc.Doc{}
	for _, rel := range rels {
		if doc, err := jsondoc.Parse(cur.Files[rel]); err == nil {
			docs[rel] = doc
		}
	}
	own := ownIDs(cur.Name, rels, docs, nv)
	for _, rel := range rels {
		doc := docs[rel]
		if doc == nil {
			continue
		}
		var edits []Edit
		if rel == "pack.json" {
			edits = manifestEdits(doc, cur.Name, old, nv)
		} else {
			edits = fileEdits(doc, rel, cur.Name, old, nv, own)
			if vm := versionManifestEdits(doc, rel, cur.Name, old, nv); len(vm) > 0 {
				edits = append(edits, vm...)
				r.Notes = append(r.Notes, fmt.Sprintf("%s: a version manifest of %s@%s: its version and URLs now name %s, but its integrity still names the old tarball (`wopkit pack` writes the new version manifest beside the new tarball)", rel, cur.Name, old, nv))
			}
		}
		if len(edits) == 0 {
			continue
		}
		before := cur.Files[rel]
		after := before
		for i, e := range edits {
			line, _ := doc.Position(doc.Locate(e.Pointer, false))
			edits[i].Line = line
			var err error
			if after, err = jsonedit.Set(after, e.Pointer, e.To); err != nil {
				return werr.Wrap(werr.Invalid, "bump_edit_failed", err, "cannot rewrite %s at %s", rel, e.Pointer)
			}
		}
		r.Files = append(r.Files, File{Path: rel, Edits: edits, before: before, after: after})
		name := path.Join(filepath.ToSlash(r.Path), rel)
		r.Diff += udiff.Unified(name, name, string(before), string(after))
	}
	r.readme(cur, old, nv)
	return nil
}

// linked reports whether rel in the folder dir is a symbolic link: pack
// ships the file a link inside the pack names, and bump edits that file
// under its own name, never through a link.
func linked(dir, rel string) bool {
	fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// readmeVersion is the version line of the README `wopkit new` writes.
const readmeVersion = semdiff.ReadmeVersion

// readme rewrites the version line of the README the scaffold wrote
// ("| Version | `0.1.0` |"), which ships in the tarball, whatever version
// it names (a version raised by hand left it behind): nothing else of the
// README is touched.
func (r *Result) readme(cur *semdiff.Pack, _, nv string) {
	const rel = "README.md"
	before, ok := cur.Files[rel]
	if !ok {
		return
	}
	to := fmt.Sprintf(readmeVersion, nv)
	pre, post, _ := strings.Cut(readmeVersion, "%s")
	lines := strings.SplitAfter(string(before), "\n")
	var edits []Edit
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		v, okPre := strings.CutPrefix(body, pre)
		v, okPost := strings.CutSuffix(v, post)
		if !okPre || !okPost || v == nv {
			continue
		}
		if _, err := semver.NewVersion(v); err != nil {
			continue
		}
		lines[i] = to + l[len(body):]
		edits = append(edits, Edit{Line: i + 1, What: "the version line of the README", From: v, To: nv})
	}
	if len(edits) == 0 {
		return
	}
	after := []byte(strings.Join(lines, ""))
	r.Files = append(r.Files, File{Path: rel, Edits: edits, before: before, after: after})
	name := path.Join(filepath.ToSlash(r.Path), rel)
	r.Diff += udiff.Unified(name, name, string(before), string(after))
}

// idBase is where the registry serves a pack's schemas (OW013).
const idBase = "https://packs.openwop.dev/"

// splitOwn splits an URL under the pack's own https://packs.openwop.dev/<name>/
// into its version segment and the rest; ok is false for another URL or a
// segment that is not a version.
func splitOwn(url, name string) (version, rest string, ok bool) {
	tail, found := strings.CutPrefix(url, idBase+name+"/")
	if !found {
		return "", "", false
	}
	version, rest, found = strings.Cut(tail, "/")
	if !found || rest == "" {
		return "", "", false
	}
	if _, err := semver.StrictNewVersion(version); err != nil {
		return "", "", false
	}
	return version, rest, true
}

// ownIDs maps each $id the pack owns (before) to its new value.
func ownIDs(name string, rels []string, docs map[string]*jsondoc.Doc, nv string) map[string]string {
	out := map[string]string{}
	for _, rel := range rels {
		if rel == "pack.json" || docs[rel] == nil {
			continue
		}
		schemaWalk(docs[rel].Root, "", func(key string, n *jsondoc.Node, _ string) {
			if key != "$id" || n.Kind != jsondoc.String {
				return
			}
			if _, rest, ok := splitOwn(n.Str, name); ok {
				out[n.Str] = idBase + name + "/" + nv + "/" + rest
			}
		})
	}
	return out
}

// fileEdits are the $id and $ref edits of one JSON file of the pack.
func fileEdits(doc *jsondoc.Doc, rel, name, old, nv string, own map[string]string) []Edit {
	var out []Edit
	schemaWalk(doc.Root, "", func(key string, n *jsondoc.Node, ptr string) {
		if n.Kind != jsondoc.String {
			return
		}
		switch key {
		case "$id":
			if to, ok := own[n.Str]; ok && to != n.Str {
				out = append(out, Edit{Pointer: ptr, What: "the $id of a schema the pack serves", From: n.Str, To: to})
			}
		case "$ref":
			base, frag, hasFrag := strings.Cut(n.Str, "#")
			to, ok := own[base]
			if !ok {
				if v, rest, mine := splitOwn(base, name); mine && v == old {
					to, ok = idBase+name+"/"+nv+"/"+rest, true
				}
			}
			if !ok || to == base {
				return
			}
			if hasFrag {
				to += "#" + frag
			}
			out = append(out, Edit{Pointer: ptr, What: "a $ref to a schema of the pack", From: n.Str, To: to})
		}
	})
	return out
}

// manifestEdits are pack.json's edits: its version, and its chains' pins
// of its own node types and of itself.
func manifestEdits(doc *jsondoc.Doc, name, old, nv string) []Edit {
	root := doc.Root
	if root == nil || root.Kind != jsondoc.Object {
		return nil
	}
	var out []Edit
	if v := root.Get("version"); v != nil && v.Kind == jsondoc.String && v.Str != nv {
		out = append(out, Edit{Pointer: "/version", What: "the pack's version", From: v.Str, To: nv})
	}
	nodes := map[string]bool{}
	for _, n := range items(root.Get("nodes")) {
		if t := n.Get("typeId"); t != nil && t.Kind == jsondoc.String {
			nodes[t.Str] = true
		}
	}
	for ci, c := range items(root.Get("chains")) {
		cptr := jsondoc.Index("/chains", ci)
		if c.Kind != jsondoc.Object {
			continue
		}
		if dag := c.Get("dag"); dag != nil && dag.Kind == jsondoc.Object {
			for ni, n := range items(dag.Get("nodes")) {
				t := n.Get("typeId")
				if t == nil || t.Kind != jsondoc.String {
					continue
				}
				id, pin, pinned := strings.Cut(t.Str, "@")
				if pinned && pin == old && (nodes[id] || strings.HasPrefix(id, name+".")) {
					out = append(out, Edit{Pointer: jsondoc.Index(cptr+"/dag/nodes", ni) + "/typeId", What: "a chain step pinned to the pack's own node type", From: t.Str, To: id + "@" + nv})
				}
			}
		}
		for si, s := range items(c.Get("subChains")) {
			ref := s.Get("ref")
			if ref == nil || ref.Kind != jsondoc.Object || ref.Get("packName").Text() != name {
				continue
			}
			if v := ref.Get("version"); v != nil && v.Kind == jsondoc.String && v.Str == old {
				out = append(out, Edit{Pointer: jsondoc.Index(cptr+"/subChains", si) + "/ref/version", What: "a sub-chain pinned to the pack itself", From: v.Str, To: nv})
			}
		}
	}
	return out
}

// versionManifestEdits are the edits of a version manifest of this pack
// at the old version that the pack ships.
func versionManifestEdits(doc *jsondoc.Doc, rel, name, old, nv string) []Edit {
	root := doc.Root
	if kinds.Detect(rel, root) != kinds.VersionManifest || root.Get("name").Text() != name {
		return nil
	}
	v := root.Get("version")
	if v == nil || v.Kind != jsondoc.String || v.Str != old {
		return nil
	}
	out := []Edit{{Pointer: "/version", What: "the version of the pack's version manifest", From: old, To: nv}}
	for _, key := range []string{"tarballUrl", "signatureUrl", "manifestUrl", "sbomUrl"} {
		u := root.Get(key)
		if u == nil || u.Kind != jsondoc.String {
			continue
		}
		seg := "/" + name + "/-/" + old + "."
		if strings.Contains(u.Str, seg) {
			out = append(out, Edit{Pointer: "/" + key, What: "a URL of the pack's version manifest", From: u.Str, To: strings.Replace(u.Str, seg, "/"+name+"/-/"+nv+".", 1)})
		}
	}
	return out
}

// items are an array's items (none for anything else).
func items(n *jsondoc.Node) []*jsondoc.Node {
	if n == nil || n.Kind != jsondoc.Array {
		return nil
	}
	return n.Items
}

// schemaWalk calls f on every member of the schema object n and of the
// schemas below it, with its key and pointer. It goes down only the
// keywords that hold subschemas (semdiff.Subschemas): a "$id" or "$ref"
// inside const, enum, default, examples or an unknown keyword's value is
// data, and rewriting it would change what the schema accepts.
func schemaWalk(n *jsondoc.Node, ptr string, f func(key string, v *jsondoc.Node, ptr string)) {
	if n == nil || n.Kind != jsondoc.Object {
		return
	}
	for _, m := range n.Members {
		p := jsondoc.Child(ptr, m.Key)
		f(m.Key, m.Value, p)
		one, list, object := semdiff.Subschemas(m.Key, m.Value.Kind == jsondoc.Array)
		switch {
		case list:
			for i, it := range m.Value.Items {
				schemaWalk(it, jsondoc.Index(p, i), f)
			}
		case one:
			schemaWalk(m.Value, p, f)
		case object && m.Value.Kind == jsondoc.Object:
			for _, mm := range m.Value.Members {
				schemaWalk(mm.Value, jsondoc.Child(p, mm.Key), f)
			}
		}
	}
}

// display is a path as the user should read it: relative to the working
// directory when below it.
func display(p string) string {
	if rel, err := filepath.Rel(".", p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

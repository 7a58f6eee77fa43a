package publish

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Change is one file a plan writes.
type Change struct {
	Path   string `json:"path"`   // slash path relative to the registry root
	Action string `json:"action"` // "create" or "update"
	Bytes  int    `json:"bytes"`  // size of the new content

	data    []byte
	old     []byte
	oldMode fs.FileMode
	existed bool
}

// Plan is what a publish, yank or deprecate writes into a registry tree.
type Plan struct {
	Registry string `json:"registry"` // the registry root
	Tree     string `json:"tree"`     // v1 or v2
	// TreeReason says why the tree: what the discovery document advertises,
	// or --spec v1.
	TreeReason string   `json:"treeReason,omitempty"`
	Name       string   `json:"name"`
	Version    string   `json:"version"`
	NoOp       bool     `json:"noop"` // the tree already holds exactly this
	Changes    []Change `json:"changes"`
	IndexDiff  []string `json:"indexDiff,omitempty"` // the index entries, before (-) and after (+)
	Removed    []string `json:"removed,omitempty"`   // packs whose registry index entries the plan removes (--rebuild-index)
	Notes      []string `json:"notes,omitempty"`
	// Compat compares the release with the published version it follows
	// (wopkit diff's result); nil when it is the first.
	Compat *semdiff.Result `json:"compatibility,omitempty"`

	dir *untrusted.Dir // the registry root, where Apply writes
}

// phase orders the writes so that no index ever names a file not yet in
// place: data files first, then the version manifest, the per-pack index,
// the aggregate SBOM, the registry index and last the v1 landing page.
func (t *Tree) phase(rel string) int {
	switch {
	case rel == landingPath:
		return 5
	case rel == t.RegistryIndex():
		return 4
	case rel == t.AggregateSBOM():
		return 3
	case strings.HasPrefix(rel, t.packsDir()+"/") && strings.HasSuffix(rel, "/index.json") && strings.Count(rel, "/") == 3:
		return 2
	case strings.HasPrefix(rel, t.packsDir()+"/") && strings.HasSuffix(rel, ".json") && !strings.HasSuffix(rel, ".sbom.json"):
		return 1
	}
	return 0
}

// collect turns the tree's overlay into the changes against the disk.
func (p *Plan) collect(t *Tree) error {
	p.Changes = p.Changes[:0]
	p.dir = t.dir
	listed := map[string][]string{} // a folder of the tree -> the names it holds
	for _, rel := range t.order {
		data := t.overlay[rel]
		c := Change{Path: rel, Action: "create", Bytes: len(data), data: data}
		if fi, err := t.dir.Lstat(rel); err == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				if _, err := t.dir.Stat(rel); werr.CodeOf(err) != "" {
					return err // a link leaving the root
				}
				return werr.New(werr.Invalid, "registry_invalid", "%s is a symbolic link; wopkit does not write through links", t.abs(rel)).
					WithHint("replace the link with the file itself")
			}
			old, err := t.dir.ReadFile(rel, t.limit(rel)) // refuses what is not a regular file, or too large
			if err != nil {
				return t.ioErr(rel, "read", err)
			}
			if bytes.Equal(old, data) {
				continue
			}
			c.Action, c.old, c.oldMode, c.existed = "update", old, fi.Mode().Perm(), true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return t.ioErr(rel, "read", err)
		} else if err := t.caseClash(rel, listed); err != nil {
			return err
		}
		p.Changes = append(p.Changes, c)
	}
	sort.SliceStable(p.Changes, func(i, j int) bool { return t.phase(p.Changes[i].Path) < t.phase(p.Changes[j].Path) })
	if len(p.Changes) == 0 {
		p.NoOp = true
	}
	return nil
}

// CodeCaseConflict refuses a new file whose path differs from one the tree
// holds only in letter case (1.0.0-Rc.1 beside a published 1.0.0-RC.1): on
// macOS and Windows checkouts the two are one file.
const CodeCaseConflict = "version_case_conflict"

// caseClash refuses the new file rel when a folder on its way, or the file
// itself, differs from a name the tree holds there only in letter case.
func (t *Tree) caseClash(rel string, listed map[string][]string) error {
	parent := ""
	for _, part := range strings.Split(rel, "/") {
		names, ok := listed[parent]
		if !ok {
			dir := parent
			if dir == "" {
				dir = "."
			}
			ents, err := t.dir.ReadDir(dir)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return t.ioErr(dir, "list", err)
			}
			for _, e := range ents {
				names = append(names, e.Name())
			}
			listed[parent] = names
		}
		for _, n := range names {
			if n != part && strings.EqualFold(n, part) {
				return werr.New(werr.Invalid, CodeCaseConflict, "%s differs only in letter case from %s, which the tree holds: on macOS and Windows checkouts they are one file; nothing was written", t.abs(path.Join(parent, part)), t.abs(path.Join(parent, n))).
					WithHint("publish a version whose name differs from every published one by more than letter case")
			}
		}
		parent = path.Join(parent, part)
	}
	return nil
}

// snapshotIndexes returns the pack's index.json and the registry index's
// entries as they are before the plan.
func snapshotIndexes(t *Tree, name string) ([]byte, map[string][]byte, error) {
	oldPack, _, err := t.read(t.PackIndex(name))
	if err != nil {
		return nil, nil, err
	}
	entries, err := registryEntries(t)
	return oldPack, entries, err
}

// registryEntries maps each pack of the registry index (as planned) to its
// entry's text.
func registryEntries(t *Tree) (map[string][]byte, error) {
	out := map[string][]byte{}
	b, ok, err := t.read(t.RegistryIndex())
	if err != nil || !ok {
		return out, err
	}
	doc, err := jsjson.Parse(b, t.abs(t.RegistryIndex()))
	if err != nil {
		return nil, err
	}
	for _, e := range jsjson.Array(jsjson.Field(doc, "packs")) {
		if n, ok := jsjson.Str(jsjson.Field(e, "name")); ok {
			out[n] = jsjson.Stringify(e)
		}
	}
	return out, nil
}

// indexDiff shows the index entries of name before and after the plan, and
// notes the other packs whose registry index entries change (when the
// tree's registry index was not up to date, as the registry's scripts would
// rewrite them) or are removed (their folders are not in the tree: only
// with --rebuild-index, see Tree.checkComplete). A removal is never called
// a change: the diff says "removed" and Plan.Removed lists them.
func indexDiff(t *Tree, plan *Plan, name string, oldPack []byte, oldReg map[string][]byte) error {
	newPack, _, err := t.read(t.PackIndex(name))
	if err != nil {
		return err
	}
	newReg, err := registryEntries(t)
	if err != nil {
		return err
	}
	plan.IndexDiff = append(lineDiff(t.PackIndex(name), oldPack, newPack),
		lineDiff(t.RegistryIndex()+" (packs[] entry of "+name+")", oldReg[name], newReg[name])...)
	var changed, added, removed []string
	for n, e := range newReg {
		switch old, ok := oldReg[n]; {
		case n == name:
		case !ok:
			added = append(added, n)
		case !bytes.Equal(e, old):
			changed = append(changed, n)
		}
	}
	for n := range oldReg {
		if _, ok := newReg[n]; !ok && n != name {
			removed = append(removed, n)
		}
	}
	if len(changed) > 0 {
		sort.Strings(changed)
		plan.Notes = append(plan.Notes, fmt.Sprintf("%s was not up to date with the tree: the entries of %d other pack(s) change (%s)",
			t.RegistryIndex(), len(changed), shortList(changed)))
	}
	if len(added) > 0 {
		sort.Strings(added)
		plan.Notes = append(plan.Notes, fmt.Sprintf("%s was not up to date with the tree: %d other pack(s) in the tree are added to it (%s)",
			t.RegistryIndex(), len(added), shortList(added)))
	}
	if len(removed) > 0 {
		sort.Strings(removed)
		plan.Removed = removed
		plan.IndexDiff = append(plan.IndexDiff, fmt.Sprintf("removed from %s: the packs[] entries of %d pack(s) whose folders are not in the tree (%s)",
			t.RegistryIndex(), len(removed), shortList(removed)))
		plan.Notes = append(plan.Notes, fmt.Sprintf("the index is rebuilt from the packs this checkout holds (--rebuild-index): %d pack(s) are removed from %s", len(removed), t.RegistryIndex()))
	}
	return nil
}

// lineDiff is a line diff of a and b with one line of context, or nothing
// when they are equal.
func lineDiff(label string, a, b []byte) []string {
	if bytes.Equal(a, b) {
		return nil
	}
	split := func(x []byte) []string {
		if len(x) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSuffix(string(x), "\n"), "\n")
	}
	x, y := split(a), split(b)
	// LCS table (indexes are small: one pack's index).
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i]})
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j]})
			j++
		default:
			ops = append(ops, op{'-', x[i]})
			i++
		}
	}
	out := []string{"--- " + label, "+++ " + label}
	gap := false
	for k, o := range ops {
		near := o.kind != ' ' || (k > 0 && ops[k-1].kind != ' ') || (k+1 < len(ops) && ops[k+1].kind != ' ')
		if !near {
			gap = true
			continue
		}
		if gap {
			out = append(out, "  …")
			gap = false
		}
		out = append(out, string(o.kind)+" "+o.text)
	}
	return out
}

// WriteText prints the plan for a person: the files written (or that would
// be, with dryRun) and the index entries' diff.
// Every name in it comes from a tarball or the tree, so each line is printed
// through termsafe: no control or bidirectional character reaches the
// terminal raw.
func (p *Plan) WriteText(w io.Writer, dryRun bool) {
	line := func(format string, args ...any) {
		fmt.Fprintln(w, termsafe.String(fmt.Sprintf(format, args...)))
	}
	what := p.Name + "@" + p.Version
	if p.NoOp {
		line("%s: %s (tree %s) already holds exactly this: nothing to do", what, p.Registry, p.Tree)
		for _, n := range p.Notes {
			line("note: %s", n)
		}
		return
	}
	verb := "wrote"
	if dryRun {
		verb = "would write"
	}
	line("%s %d file(s) for %s in %s (tree %s):", verb, len(p.Changes), what, p.Registry, p.Tree)
	if p.TreeReason != "" {
		line("tree %s: %s", p.Tree, p.TreeReason)
	}
	for _, c := range p.Changes {
		line("  %-6s %s (%d bytes)", c.Action, c.Path, c.Bytes)
	}
	if len(p.IndexDiff) > 0 {
		line("index entries:")
		for _, l := range p.IndexDiff {
			line("  %s", l)
		}
	}
	if c := p.Compat; c != nil {
		line("compared with %s: %s", c.From, c.Verdict)
		for _, ch := range c.Changes {
			if ch.Level != semdiff.Fix {
				line("  %-8s %s %s: %s [%s]", ch.Level, ch.File, ch.Pointer, ch.Message, ch.Rule)
			}
		}
	}
	for _, n := range p.Notes {
		line("note: %s", n)
	}
}

package publish

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/publish/jsjson"
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
	Registry  string   `json:"registry"` // the registry root
	Tree      string   `json:"tree"`     // v1 or v2
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	NoOp      bool     `json:"noop"` // the tree already holds exactly this
	Changes   []Change `json:"changes"`
	IndexDiff []string `json:"indexDiff,omitempty"` // the index entries, before (-) and after (+)
	Notes     []string `json:"notes,omitempty"`
}

// phase orders the writes so that no index ever names a file not yet in
// place: data files first, then the version manifest, the per-pack index,
// the aggregate SBOM and last the registry index.
func (t *Tree) phase(rel string) int {
	switch {
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
	for _, rel := range t.order {
		data := t.overlay[rel]
		abs := t.abs(rel)
		c := Change{Path: rel, Action: "create", Bytes: len(data), data: data}
		if fi, err := os.Lstat(abs); err == nil {
			if !fi.Mode().IsRegular() {
				return werr.New(werr.Env, "registry_invalid", "%s is not a regular file", abs)
			}
			old, err := os.ReadFile(abs)
			if err != nil {
				return werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", abs)
			}
			if bytes.Equal(old, data) {
				continue
			}
			c.Action, c.old, c.oldMode, c.existed = "update", old, fi.Mode().Perm(), true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", abs)
		}
		p.Changes = append(p.Changes, c)
	}
	sort.SliceStable(p.Changes, func(i, j int) bool { return t.phase(p.Changes[i].Path) < t.phase(p.Changes[j].Path) })
	if len(p.Changes) == 0 {
		p.NoOp = true
	}
	return nil
}

// failBeforeRename, when >= 0, makes Apply fail before its n-th rename
// (tests of the rollback).
var failBeforeRename = -1

// Apply writes the plan's changes all together or not at all: each new
// content goes to a temporary file beside its target, then the temporaries
// are renamed in phase order; if any step fails, the files already renamed
// get their old content back, new files and directories are removed and the
// temporaries discarded.
func (p *Plan) Apply() (err error) {
	if p.NoOp || len(p.Changes) == 0 {
		return nil
	}
	var madeDirs []string
	temps := make([]*atomicfile.File, 0, len(p.Changes))
	done := 0
	defer func() {
		if err == nil {
			return
		}
		for _, f := range temps[done:] {
			f.Abort()
		}
		for i := done - 1; i >= 0; i-- {
			c := p.Changes[i]
			abs := filepath.Join(p.Registry, filepath.FromSlash(c.Path))
			if c.existed {
				if rerr := atomicfile.WriteFile(abs, c.old, c.oldMode); rerr != nil {
					err = errors.Join(err, rerr)
				}
			} else {
				os.Remove(abs)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			os.Remove(madeDirs[i]) // only if empty
		}
	}()
	for _, c := range p.Changes {
		abs := filepath.Join(p.Registry, filepath.FromSlash(c.Path))
		made, err := mkdirs(filepath.Dir(abs))
		madeDirs = append(madeDirs, made...)
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if c.existed {
			mode = c.oldMode
		}
		f, err := atomicfile.Create(abs, mode)
		if err != nil {
			return err
		}
		temps = append(temps, f)
		if _, err := f.Write(c.data); err != nil {
			return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", abs)
		}
	}
	for i, f := range temps {
		if i == failBeforeRename {
			return werr.New(werr.Env, "write_failed", "injected failure before writing %s", f.Final())
		}
		if err := f.Commit(); err != nil {
			return err // Commit discarded its own temporary; files 0..i-1 are rolled back
		}
		done = i + 1
	}
	return nil
}

// mkdirs creates dir and its missing parents, returning those it made,
// outermost first.
func mkdirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var made []string
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return made, werr.Wrap(werr.Env, "write_failed", err, "cannot create directory %s", missing[i])
		}
		made = append(made, missing[i])
	}
	return made, nil
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
// notes the other packs whose registry index entries change too (when the
// tree's registry index was not up to date, as the registry's scripts would
// rewrite them).
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
	var others []string
	for n, e := range newReg {
		if n != name && !bytes.Equal(e, oldReg[n]) {
			others = append(others, n)
		}
	}
	for n := range oldReg {
		if _, ok := newReg[n]; !ok && n != name {
			others = append(others, n)
		}
	}
	if len(others) > 0 {
		sort.Strings(others)
		plan.Notes = append(plan.Notes, fmt.Sprintf("%s was not up to date with the tree: the entries of %d other pack(s) change too (%s)",
			t.RegistryIndex(), len(others), strings.Join(others, ", ")))
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
func (p *Plan) WriteText(w io.Writer, dryRun bool) {
	what := p.Name + "@" + p.Version
	if p.NoOp {
		fmt.Fprintf(w, "%s: %s (tree %s) already holds exactly this: nothing to do\n", what, p.Registry, p.Tree)
		return
	}
	verb := "wrote"
	if dryRun {
		verb = "would write"
	}
	fmt.Fprintf(w, "%s %d file(s) for %s in %s (tree %s):\n", verb, len(p.Changes), what, p.Registry, p.Tree)
	for _, c := range p.Changes {
		fmt.Fprintf(w, "  %-6s %s (%d bytes)\n", c.Action, c.Path, c.Bytes)
	}
	if len(p.IndexDiff) > 0 {
		fmt.Fprintln(w, "index entries:")
		for _, l := range p.IndexDiff {
			fmt.Fprintln(w, "  "+l)
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

package fix

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/order"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// Options configure Run.
type Options struct {
	// Roots are the paths validate was given (folders, or files whose
	// folder is their root): a fix is made only inside one of them.
	Roots []string
	// Validate validates the roots as `wopkit validate` does: Run starts
	// from its report and, after writing, validates again.
	Validate func() (*validate.Report, error)
	// DryRun computes the fixes and their diff and writes nothing.
	DryRun bool
}

// Change is one fix made (or, with DryRun, that would be made).
type Change struct {
	File string `json:"file"` // the file the problem is on (as validate names it)
	Line int    `json:"line"`
	Rule string `json:"rule"`
	What string `json:"what"`          // the fix's title
	Path string `json:"changed"`       // the file written or created
	New  bool   `json:"new,omitempty"` // the fix creates Path
}

// Listed is a fix a problem carries that Run did not make, and why.
type Listed struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Rule string `json:"rule"`
	What string `json:"what"`
	Why  string `json:"why"`
}

// Result is what Run did.
type Result struct {
	Fixed   []Change `json:"fixed"`
	Listed  []Listed `json:"listed"`
	Written bool     `json:"written"`
	Diff    string   `json:"diff"`
	// Report is validate's report on the result (on the files as they are,
	// with DryRun).
	Report *validate.Report `json:"-"`
}

// maxRounds bounds how often Run validates again to make the fixes that
// the first ones moved (a member renamed, an array shortened).
const maxRounds = 3

// Run applies every fix the problems of the report carry that needs no
// choice (validate.Fix.Choice unset, the only fix offered for its place),
// writing each root's files together through the write door, then
// validates again; fixes that the first ones made stale are made in a
// further round. A fix that needs a choice, or cannot be made safely (in
// a tarball, outside the roots, a file to create that something already
// is), is listed, not made.
func Run(o Options) (*Result, error) {
	rep, err := o.Validate()
	if err != nil {
		return nil, err
	}
	res := &Result{Fixed: []Change{}, Listed: []Listed{}}
	done := map[string]bool{}
	for range maxRounds {
		p := plan(rep, o.Roots, done)
		res.Listed = p.listed
		if len(p.files) == 0 {
			break
		}
		if o.DryRun {
			res.Fixed, res.Diff = p.fixed, p.diff()
			break
		}
		if err := p.write(); err != nil {
			res.Report = rep
			return res, err
		}
		res.Fixed, res.Written = append(res.Fixed, p.fixed...), true
		if rep, err = o.Validate(); err != nil {
			return res, err
		}
	}
	res.Report = rep
	return res, nil
}

// target is one file a round writes.
type target struct {
	root, abs, display string
	before, after      []byte
	create             bool
}

type round struct {
	files  map[string]*target // by absolute path
	order  []string
	fixed  []Change
	listed []Listed
}

// candidate is one problem's fix, with the file it writes.
type candidate struct {
	p      validate.Problem
	file   string // the problem's file, as validate names it
	root   string // absolute root
	abs    string // absolute path of the file the fix writes
	create bool
	key    string // the fix's place: the file and its first pointer
	sig    string // the fix itself, to tell a repeat from a rival
}

func plan(rep *validate.Report, roots []string, done map[string]bool) *round {
	r := &round{files: map[string]*target{}, listed: []Listed{}}
	absRoots := make([]string, 0, len(roots))
	for _, root := range roots {
		if a, err := filepath.Abs(root); err == nil {
			if !isDir(a) {
				a = filepath.Dir(a)
			}
			absRoots = append(absRoots, a)
		}
	}
	var cands []candidate
	for _, fr := range rep.Files {
		for _, ps := range [][]validate.Problem{fr.Errors, fr.Warnings} {
			for _, p := range ps {
				if p.Fix == nil || len(p.Fix.Edits) == 0 && p.Fix.Create == "" {
					continue
				}
				c, why := locate(p, fr.Path, absRoots)
				switch {
				case why != "":
					r.list(p, fr.Path, why)
				case p.Fix.Choice != "":
					r.list(p, fr.Path, "needs a choice: "+p.Fix.Choice)
				case done[c.sig]:
				default:
					cands = append(cands, c)
				}
			}
		}
	}
	// One place, several different fixes: a choice.
	rivals := map[string]map[string]bool{}
	for _, c := range cands {
		if rivals[c.key] == nil {
			rivals[c.key] = map[string]bool{}
		}
		rivals[c.key][c.sig] = true
	}
	seen := map[string]bool{}
	var keep []candidate
	for _, c := range cands {
		switch {
		case len(rivals[c.key]) > 1:
			r.list(c.p, c.file, "needs a choice: several fixes are offered for this place")
		case seen[c.sig]:
		default:
			seen[c.sig] = true
			keep = append(keep, c)
		}
	}
	// Edits that shorten an array go last, the highest index first, so the
	// pointers of the others still hold.
	slices.SortStableFunc(keep, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.abs, b.abs), order.Bool(removes(a.p.Fix), removes(b.p.Fix)), -jsondoc.ComparePointers(lastRemove(a.p.Fix), lastRemove(b.p.Fix)))
	})
	for _, c := range keep {
		if why := r.apply(c); why != "" {
			r.list(c.p, c.file, why)
			continue
		}
		done[c.sig] = true
		r.fixed = append(r.fixed, Change{File: c.file, Line: c.p.Line, Rule: c.p.Rule, What: c.p.Fix.Title, Path: display(c.abs), New: c.create})
	}
	return r
}

func (r *round) list(p validate.Problem, file, why string) {
	r.listed = append(r.listed, Listed{File: file, Line: p.Line, Rule: p.Rule, What: p.Fix.Title, Why: why})
}

// locate finds the file a problem's fix writes, or says why it is not
// made.
func locate(p validate.Problem, file string, roots []string) (candidate, string) {
	if strings.Contains(file, "!/") {
		return candidate{}, "the file is inside a tarball: fix the pack folder it was packed from"
	}
	doc, err := filepath.Abs(filepath.FromSlash(file))
	if err != nil {
		return candidate{}, err.Error()
	}
	root := ""
	for _, r := range roots {
		if within(r, doc) && len(r) > len(root) {
			root = r
		}
	}
	if root == "" {
		return candidate{}, "the file is outside the paths given"
	}
	c := candidate{p: p, file: file, root: root, abs: doc}
	rel := ""
	switch {
	case p.Fix.Create != "":
		rel, c.create = p.Fix.Create, true
	case p.Fix.File != "":
		rel = p.Fix.File
	}
	if rel != "" {
		if !fs.ValidPath(rel) || rel == "." {
			return candidate{}, fmt.Sprintf("%q is not a plain path inside the pack", rel)
		}
		c.abs = filepath.Join(filepath.Dir(doc), filepath.FromSlash(rel))
		if !within(root, c.abs) {
			return candidate{}, "the file it writes is outside the paths given"
		}
	}
	// Its place: the file, the first edit's pointer and what it does there
	// (two values set at one pointer are rivals; a rename and a value are not).
	first := "create"
	if len(p.Fix.Edits) > 0 {
		e := p.Fix.Edits[0]
		first = e.Pointer + "\x00" + op(e)
	}
	c.key = c.abs + "\x00" + first
	c.sig = c.key + "\x00" + fmt.Sprintf("%#v", p.Fix.Edits)
	if c.create {
		// The template is the member's: two references of one member to
		// one missing file are one fix, of two members rivals.
		toks := jsondoc.SplitPointer(p.Pointer)
		if len(toks) > 0 {
			c.sig += "\x00create " + toks[len(toks)-1]
		}
	}
	return c, ""
}

// apply makes c's fix on the text its file holds in this round ("" when
// made, else why not).
func (r *round) apply(c candidate) string {
	t, why := r.target(c)
	if why != "" {
		return why
	}
	if c.create {
		member := ""
		if toks := jsondoc.SplitPointer(c.p.Pointer); len(toks) > 0 {
			member = toks[len(toks)-1]
		}
		name, version, why := r.nameVersion(c)
		if why != "" {
			return why
		}
		data, ok := Template(member, c.p.Fix.Create, name, version)
		if !ok {
			return "wopkit has no template for this file (or its name or the pack's name or version lacks its form)"
		}
		if t.after != nil && string(t.after) != string(data) {
			return "needs a choice: another fix creates the same file with other content"
		}
		t.after = data
		return ""
	}
	after, err := Apply(t.after, c.p.Fix.Edits)
	if err != nil {
		return "no longer applies after the other fixes (run validate --fix again): " + err.Error()
	}
	if string(after) == string(t.after) {
		return "changes nothing"
	}
	t.after = after
	return ""
}

// target is the file c writes, read once a round through the read door
// (its root as the root: a file that is, or links to, something outside
// is refused).
func (r *round) target(c candidate) (*target, string) {
	if t, ok := r.files[c.abs]; ok {
		if t.create != c.create {
			return nil, "needs a choice: another fix creates or edits the same file"
		}
		return t, ""
	}
	d, err := untrusted.OpenDir(c.root)
	if err != nil {
		return nil, err.Error()
	}
	defer d.Close()
	rel, err := filepath.Rel(c.root, c.abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, "the file it writes is outside the paths given"
	}
	rel = filepath.ToSlash(rel)
	t := &target{root: c.root, abs: c.abs, display: display(c.abs), create: c.create}
	if c.create {
		if _, err := d.Lstat(rel); !errors.Is(err, fs.ErrNotExist) {
			if err == nil {
				return nil, "something is already at " + t.display + ": nothing is created over it"
			}
			return nil, "cannot create " + t.display + ": " + err.Error()
		}
		// Its nearest existing folder must be a folder of the root, not a
		// link out of it.
		for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
			fi, err := d.Lstat(dir)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil || !fi.IsDir() {
				return nil, "cannot create " + t.display + ": " + cmp.Or(errString(err), dir+" is not a folder of the pack")
			}
			break
		}
	} else {
		b, err := d.ReadFile(rel, validate.MaxFileSize)
		if err != nil {
			return nil, "cannot read " + t.display + ": " + err.Error()
		}
		t.before, t.after = b, b
	}
	r.files[c.abs] = t
	r.order = append(r.order, c.abs)
	return t, ""
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// nameVersion are the name and version of the document c's problem is on
// (the pack.json whose reference names the missing file).
func (r *round) nameVersion(c candidate) (name, version, why string) {
	d, err := untrusted.OpenDir(filepath.Dir(c.abs0()))
	if err != nil {
		return "", "", err.Error()
	}
	defer d.Close()
	b, err := d.ReadFile(filepath.Base(c.abs0()), validate.MaxFileSize)
	if err != nil {
		return "", "", "cannot read " + c.file + ": " + err.Error()
	}
	doc, err := jsondoc.Parse(b)
	if err != nil {
		return "", "", c.file + " does not parse"
	}
	return doc.Root.Get("name").Text(), doc.Root.Get("version").Text(), ""
}

// abs0 is the absolute path of the file the problem is on.
func (c candidate) abs0() string {
	a, _ := filepath.Abs(filepath.FromSlash(c.file))
	return a
}

// diff is the unified diff of the round's files.
func (r *round) diff() string {
	var b strings.Builder
	for _, abs := range r.order {
		t := r.files[abs]
		if string(t.before) == string(t.after) && !t.create {
			continue
		}
		from := t.display
		if t.create {
			from = "/dev/null"
		}
		b.WriteString(udiff.Unified(from, t.display, string(t.before), string(t.after)))
	}
	return b.String()
}

// write writes the round's files, each root's together (new folders first,
// through the root).
func (r *round) write() error {
	byRoot := map[string][]*target{}
	var roots []string
	for _, abs := range r.order {
		t := r.files[abs]
		if !t.create && string(t.before) == string(t.after) {
			continue
		}
		if byRoot[t.root] == nil {
			roots = append(roots, t.root)
		}
		byRoot[t.root] = append(byRoot[t.root], t)
	}
	for _, root := range roots {
		b := atomicfile.Batch{Place: root}
		for _, t := range byRoot[root] {
			var err error
			if t.create {
				if err = mkdirIn(root, filepath.Dir(t.abs)); err == nil {
					err = b.Add(t.abs, t.after, 0o644)
				}
			} else {
				err = b.Replace(t.abs, t.after, t.before, 0o644)
			}
			if err != nil {
				b.Abort()
				return err
			}
		}
		if err := b.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// mkdirIn makes dir (inside root) through the root.
func mkdirIn(root, dir string) error {
	if dir == root {
		return nil
	}
	p, err := atomicfile.OpenPlace(root)
	if err != nil {
		return err
	}
	defer p.Close()
	return p.MkdirAll(dir, 0o755)
}

// op names what an edit does.
func op(e validate.Edit) string {
	switch {
	case e.Remove:
		return "remove"
	case e.Rename != "":
		return "rename"
	case e.Append:
		return "append"
	}
	return "set"
}

func removes(f *validate.Fix) bool { return lastRemove(f) != "" }

// lastRemove is the pointer of the fix's last removal of an array item.
func lastRemove(f *validate.Fix) string {
	out := ""
	for _, e := range f.Edits {
		toks := jsondoc.SplitPointer(e.Pointer)
		if e.Remove && len(toks) > 0 {
			if _, err := strconv.Atoi(toks[len(toks)-1]); err == nil {
				out = e.Pointer
			}
		}
	}
	return out
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// display is a path as the user reads it: relative to the working
// directory when below it.
func display(p string) string {
	wd, err := filepath.Abs(".")
	if err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

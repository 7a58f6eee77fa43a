package validate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/packref"
)

// fileRef is one reference to a file of the pack. Which members reference
// files, and how a reference becomes a path, is packref's one definition
// (pack collects exactly these files).
type fileRef struct {
	pointer, key, val string
	kind              packref.Role
}

// fileRefs returns every file reference of the document (runtime.entry
// aside: OW006 checks it), in document order. Pointers are built only for
// the references found: the editor re-lints on every keystroke.
func (c *lintCtx) fileRefs() []fileRef { return c.fileRefsWhere(nil) }

// fileRefsWhere is fileRefs limited to the references whose value keep
// accepts (nil keeps all).
func (c *lintCtx) fileRefsWhere(keep func(val string) bool) []fileRef {
	var out []fileRef
	var toks []string
	var walk func(n *jsondoc.Node)
	walk = func(n *jsondoc.Node) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				if len(toks) == 0 && packref.Skip("", m.Key) {
					continue
				}
				if k, ok := packref.RoleOf(m.Key); ok && m.Value.Kind == jsondoc.String {
					if keep != nil && !keep(m.Value.Str) {
						continue
					}
					ptr := ""
					for _, t := range toks {
						ptr = jsondoc.Child(ptr, t)
					}
					out = append(out, fileRef{jsondoc.Child(ptr, m.Key), m.Key, m.Value.Str, k})
					continue
				}
				if m.Value.Kind == jsondoc.Object || m.Value.Kind == jsondoc.Array {
					toks = append(toks, m.Key)
					walk(m.Value)
					toks = toks[:len(toks)-1]
				}
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				if it.Kind == jsondoc.Object || it.Kind == jsondoc.Array {
					toks = append(toks, strconv.Itoa(i))
					walk(it)
					toks = toks[:len(toks)-1]
				}
			}
		}
	}
	walk(c.doc.Root)
	return out
}

// unclean reports whether a reference is a path not written in clean form.
func unclean(ref string) bool {
	_, err := packref.Path(ref)
	pe, ok := err.(*packref.Error) // no errors.As: this runs on every keystroke and must not allocate
	return ok && pe.Code == packref.CodeUnclean
}

// checkRefsClean (OW016) reports every file reference that is not written
// in clean form: every tool must read it as the same file, so it is
// refused, never cleaned or dropped (pack refuses it with the same words).
func checkRefsClean(c *lintCtx) {
	refs := c.fileRefsWhere(unclean)
	if c.kind != kinds.Agent {
		if e := c.doc.Lookup("/runtime/entry"); e != nil && e.Kind == jsondoc.String && c.doc.Lookup("/runtime/language").Text() != "remote" {
			refs = append(refs, fileRef{"/runtime/entry", "runtime.entry", e.Str, packref.Entry})
		}
	}
	for _, r := range refs {
		if !unclean(r.val) {
			continue
		}
		_, err := packref.Path(r.val)
		var pe *packref.Error
		if errors.As(err, &pe) && pe.Code == packref.CodeUnclean {
			var fix *Fix
			if pe.Clean != "" {
				fix = setFix(fmt.Sprintf("Write %q", pe.Clean), r.pointer, pe.Clean)
			}
			c.reportFix(r.pointer, false, fmt.Sprintf("%s %q is not a clean path: tools and extractors may read it as different files", r.key, r.val),
				fmt.Sprintf("write %q", pe.Clean), fix)
		}
	}
}

// fileState says whether a referenced file can be used.
type fileState int

const (
	fileOK fileState = iota
	fileMissing
	fileNotRegular
	fileTooLarge
	fileUnreadable
)

// packFile is a file of the pack as read by a rule, kept for the other
// rules of the same run (OW005 and OW013 both read every shipped schema).
type packFile struct {
	state  fileState
	size   int64
	data   []byte
	err    error // why it could not be read
	doc    *jsondoc.Doc
	perr   error // why it does not parse as JSON
	parsed bool
}

// maxCached bounds the content the pack-file cache keeps for the whole run
// (a parsed document costs tens of times its size): files of real packs are
// read once, and a pack of hostile files costs one file at a time.
const maxCached = 1 << 20

// readPackFile reads the regular file p of the pack, once per run (while
// the cache holds less than maxCached) and with one open: files that are
// missing, not regular or beyond MaxFileSize are not read.
func (c *lintCtx) readPackFile(p string) *packFile {
	if f, ok := c.cache[p]; ok {
		return f
	}
	if c.cache == nil {
		c.cache = map[string]*packFile{}
	}
	if c.held > maxCached { // evict: callers keep what they hold
		c.held = 0
		for k, f := range c.cache {
			if f.parsed && f.perr != nil {
				f.data = nil // only the parse error is used from now on: keep it, cheaply
				continue
			}
			delete(c.cache, k)
		}
	}
	f := &packFile{}
	c.cache[p] = f
	defer func() { c.held += len(f.data) }()
	// The type first: opening a named pipe would block until a writer came.
	if fi, err := fs.Stat(c.fsys, p); err != nil {
		f.state, f.err = openState(err), err
		return f
	} else if f.state, f.err = statState(fi, nil); f.state != fileOK {
		return f
	}
	fh, err := c.fsys.Open(p)
	if err != nil {
		f.state, f.err = openState(err), err
		return f
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if f.state, f.err = statState(fi, err); f.state != fileOK {
		return f
	}
	f.size = fi.Size()
	if f.data, f.err = io.ReadAll(io.LimitReader(fh, MaxFileSize+1)); f.err != nil {
		f.state = fileUnreadable
	} else if len(f.data) > MaxFileSize {
		f.state, f.size, f.data = fileTooLarge, int64(len(f.data)), nil
	}
	return f
}

// statFile tells the state of p without reading it.
func statFile(fsys fs.FS, p string) (fileState, int64, error) {
	fi, err := fs.Stat(fsys, p)
	if err != nil {
		return openState(err), 0, err
	}
	st, err := statState(fi, nil)
	return st, fi.Size(), err
}

func openState(err error) fileState {
	if errors.Is(err, fs.ErrPermission) {
		return fileUnreadable
	}
	return fileMissing
}

func statState(fi fs.FileInfo, err error) (fileState, error) {
	switch {
	case err != nil:
		return fileUnreadable, err
	case !fi.Mode().IsRegular():
		return fileNotRegular, nil
	case fi.Size() > MaxFileSize:
		return fileTooLarge, nil
	}
	return fileOK, nil
}

// json returns the file parsed as JSON.
func (f *packFile) json() (*jsondoc.Doc, error) {
	if !f.parsed {
		f.parsed = true
		f.doc, f.perr = jsondoc.Parse(f.data)
	}
	return f.doc, f.perr
}

// displayRef is how a pack file is named in reports: beside the document.
func (c *lintCtx) displayRef(p string) string { return path.Join(path.Dir(c.name), p) }

// fileProblem adds a problem of the running rule to the report on the pack
// file p, creating that report on first use.
func (c *lintCtx) fileProblem(p string, k kinds.Kind, pr Problem) {
	pr.Rule = c.rule.ID
	if pr.Severity == "" {
		pr.Severity = c.severity()
	}
	name := c.displayRef(p)
	for i := range c.files {
		if c.files[i].Path == name {
			c.files[i].add(pr)
			return
		}
	}
	fr := FileReport{Path: name, Kind: k}
	fr.add(pr)
	c.files = append(c.files, fr)
}

var urlScheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// resolve checks that ref names a regular file of the pack and returns its
// clean path. It reports at ptr and returns false when it does not. An
// https:// URL returns "", true: it is allowed and never fetched. With read
// set the file is read (and kept) on the way; without, it is only stat'ed.
func (c *lintCtx) resolve(ptr, what, ref string, read bool) (string, bool) {
	if strings.HasPrefix(ref, "https://") {
		return "", true
	}
	if urlScheme.MatchString(ref) {
		c.report(ptr, false, fmt.Sprintf("%s %q is a URL that is not https://", what, ref),
			"use a path inside the pack, such as schemas/input.json, or an https:// URL")
		return "", false
	}
	p, err := packref.Path(ref)
	var pe *packref.Error
	if errors.As(err, &pe) {
		if pe.Code != packref.CodeUnclean { // OW016 reports unclean paths
			c.report(ptr, false, fmt.Sprintf("%s %q points outside the pack: references are paths relative to %s, without .. or a leading /", what, ref, c.root()),
				"copy the file into the pack and refer to it by its path from "+c.root()+", such as schemas/input.json")
		}
		return "", false
	}
	var st fileState
	var size int64
	if read {
		f := c.readPackFile(p)
		st, size, err = f.state, f.size, f.err
	} else {
		st, size, err = statFile(c.fsys, p)
	}
	switch st {
	case fileMissing:
		hint := "create the file, or fix the path: it is relative to " + c.root()
		fix := &Fix{Title: "Create " + ref + " from the wopkit template", Create: strings.TrimPrefix(ref, "./")}
		if alt := findByBase(c.fsys, path.Base(p)); alt != "" {
			hint = fmt.Sprintf("the pack has %s: did you mean %q?", alt, alt)
			if alt != ref {
				fix = setFix(fmt.Sprintf("Point it at %q", alt), ptr, alt).choice("a file of that name elsewhere in the pack is a guess: the file may belong where the reference says")
			}
		}
		where := "in the pack"
		if c.kind != kinds.NodePack {
			where = "beside " + path.Base(c.name)
		}
		c.reportFix(ptr, false, fmt.Sprintf("%s %q names a file that is not %s", what, ref, where), hint, fix)
	case fileNotRegular:
		c.report(ptr, false, fmt.Sprintf("%s %q names a directory or special file, not a file", what, ref), "point it at a file inside the pack")
	case fileTooLarge:
		c.report(ptr, false, fmt.Sprintf("%s %q is %d bytes, beyond the %d bytes wopkit reads", what, ref, size, MaxFileSize), "reference a smaller file")
	case fileUnreadable:
		c.report(ptr, false, fmt.Sprintf("%s %q cannot be read: %v", what, ref, err), "check the file's permissions")
	default:
		return p, true
	}
	return "", false
}

// root names the directory references are relative to, for messages.
func (c *lintCtx) root() string {
	if c.kind == kinds.NodePack {
		return "the pack root"
	}
	return "the directory of " + path.Base(c.name)
}

// findByBase looks for a file named base anywhere in the pack (bounded), to
// suggest it when a reference misses.
func findByBase(fsys fs.FS, base string) string {
	found, seen := "", 0
	stop := errors.New("stop")
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if seen++; err != nil || seen > 5000 {
			return stop
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return fs.SkipDir
		}
		if !d.IsDir() && d.Name() == base {
			found = p
			return stop
		}
		return nil
	})
	return found
}

func checkRefs(c *lintCtx) {
	done := map[string]bool{}
	for _, r := range c.fileRefs() {
		p, ok := c.resolve(r.pointer, r.key, r.val, true)
		if !ok || p == "" || done[p] || r.kind == packref.EvalSuite {
			continue
		}
		done[p] = true
		f := c.readPackFile(p)
		data := f.data
		switch r.kind {
		case packref.Prompt:
			if off := firstBadUTF8(data); off >= 0 {
				line, col := (&jsondoc.Doc{Src: data}).Position(off)
				c.fileProblem(p, kinds.Prompt, Problem{Line: line, Column: col,
					Message: fmt.Sprintf("the system prompt is not UTF-8 text: byte 0x%02x at offset %d", data[off], off),
					Hint:    "save the prompt as UTF-8"})
			}
		default:
			doc, err := f.json()
			if err != nil {
				pr := syntaxProblem(err)
				pr.Message = fmt.Sprintf("%s (referenced by %s as %s)", pr.Message, path.Base(c.name), r.key)
				c.fileProblem(p, kinds.JSONSchema, pr)
				continue
			}
			if r.kind == packref.Schema && doc.Root.Kind != jsondoc.Object && doc.Root.Kind != jsondoc.Bool {
				c.fileProblem(p, kinds.JSONSchema, Problem{Line: 1, Column: 1,
					Message: fmt.Sprintf("this file is referenced as %s but is a JSON %s, not a JSON Schema", r.key, doc.Root.Kind),
					Hint:    `a JSON Schema is an object such as {"type": "object"}`})
			}
		}
	}
}

// firstBadUTF8 returns the offset of the first byte that is not valid
// UTF-8, or -1.
func firstBadUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func checkRuntimeEntry(c *lintCtx) {
	lang := c.doc.Lookup("/runtime/language").Text()
	entry := c.doc.Lookup("/runtime/entry")
	if lang == "remote" || entry == nil || entry.Kind != jsondoc.String {
		return
	}
	if urlScheme.MatchString(entry.Str) {
		c.report("/runtime/entry", false, fmt.Sprintf("runtime.entry %q is a URL, but runtime.language is %q: only remote runtimes live outside the pack", entry.Str, lang),
			"ship the runtime artifact in the pack and name its path, or set runtime.language to \"remote\"")
		return
	}
	c.resolve("/runtime/entry", "runtime.entry", entry.Str, false)
}

// schemaIDBase is where the registry serves a pack's schemas.
const schemaIDBase = "https://packs.openwop.dev/"

func checkSchemaIDs(c *lintCtx) {
	name, version := c.doc.Root.Get("name").Text(), c.doc.Root.Get("version").Text()
	if name == "" || version == "" {
		return
	}
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, r := range c.fileRefs() {
		if r.kind == packref.Schema {
			if p, err := packref.Path(r.val); err == nil && p != "" {
				add(p)
			}
		}
	}
	visited := 0
	_ = fs.WalkDir(c.fsys, "schemas", func(p string, d fs.DirEntry, err error) error {
		// Bounded, and no path that is not a valid fs path: an in-memory
		// file system holding "schemas//x" lists an empty-named directory
		// under every directory, which would be walked forever.
		if visited++; visited > 10000 {
			return fs.SkipAll
		}
		if err != nil || !fs.ValidPath(p) {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(p, ".json") && len(files) < 1000 {
			add(p)
		}
		return nil
	})
	prefix := schemaIDBase + name + "/" + version + "/"
	for _, p := range files {
		c.checkSchemaID(p, prefix)
	}
}

// schemaIDGate is the registry gate that checks the $id of a pack's schemas.
const schemaIDGate = "check-pack-schema-ids"

// checkSchemaID reports a $id of the schema file p that is not prefix +
// its path (below schemas/ for files there). The registry's
// check-pack-schema-ids reads the files directly in schemas/: for those,
// --for-registry makes a stale $id, and (in a v2 pack) a missing one, an
// error (it refuses the first and caps the second, which a new pack pushes
// over). Other files
// keep the warning: no gate reads them.
func (c *lintCtx) checkSchemaID(p, prefix string) {
	f := c.readPackFile(p)
	if f.state != fileOK {
		return // OW005 reports missing files
	}
	doc, err := f.json()
	if err != nil {
		return // OW005 reports syntax
	}
	rest, gated := strings.CutPrefix(p, "schemas/")
	gated = gated && !strings.Contains(rest, "/")
	// New versions land in the v2 tree only: the v1 tree is frozen, and
	// its published packs (core.openwop.a2a@1.1.0 among them) carry $ids of
	// earlier versions. So the gate's refusals are errors for a v2 pack.
	reg := gated && c.opts.ForRegistry && c.spec == kinds.V2
	sev := Warning
	if reg {
		sev = Error
	}
	refusal := func(what string) string {
		if reg {
			return "the registry refuses it (" + what + ")"
		}
		return "the registry would refuse it on publication (" + what + "; an error with validate --for-registry of a v2 pack)"
	}
	want := prefix + rest
	id := doc.Root.Get("$id")
	if id == nil || id.Kind != jsondoc.String {
		if reg && doc.Root.Kind == jsondoc.Object {
			line, col := doc.Position(doc.Locate("", false))
			c.fileProblem(p, kinds.JSONSchema, Problem{Line: line, Column: col, Severity: sev,
				Message: "this schema has no $id; " + refusal(schemaIDGate+": every schema in schemas/ names its URL"),
				Hint:    fmt.Sprintf("add \"$id\": %q", want),
				Fix:     &Fix{Title: fmt.Sprintf("Set $id to %q", want), Edits: []Edit{{Pointer: "/$id", After: "$schema", Value: want}}}})
		}
		return
	}
	if id.Str == want || !reg && id.Str == prefix+p {
		return
	}
	line, col := doc.Position(doc.Locate("/$id", false))
	msg := fmt.Sprintf("$id %q is not where the registry serves this schema (%s)", id.Str, want)
	if gated {
		msg = fmt.Sprintf("$id %q does not name this pack version's URL %s; %s", id.Str, want, refusal(schemaIDGate))
	}
	hint := fmt.Sprintf("set \"$id\" to %q, or remove $id", want)
	if reg {
		hint = fmt.Sprintf("set \"$id\" to %q (after a version change every $id in schemas/ names the new version)", want)
	}
	c.fileProblem(p, kinds.JSONSchema, Problem{Pointer: "/$id", Line: line, Column: col, Severity: sev, Message: msg, Hint: hint,
		Fix: setFix(fmt.Sprintf("Set $id to %q", want), "/$id", want)})
}

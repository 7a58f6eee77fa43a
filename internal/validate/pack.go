package validate

import (
	"io/fs"
	"os"
	"path"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// packDir validates a pack directory: pack.json and every file it references.
func (v *Validator) packDir(dir string) (*Report, error) {
	pj := dir + string(os.PathSeparator) + "pack.json"
	// pack.json is read inside the pack: a manifest that is a link to a
	// file outside it is refused, never read (its bytes could surface in a
	// syntax error).
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", dir)
	}
	defer d.Close()
	data, err := d.ReadFile("pack.json", MaxFileSize)
	if err != nil {
		if werr.CodeOf(err) != "" {
			return nil, err
		}
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", pj)
	}
	frs, err := v.packRefusals(dir, v.PackFiles(displayPath(pj), packFS(dir), data))
	if err != nil {
		return nil, err
	}
	return v.report(frs...), nil
}

// PackFiles validates a pack manifest with the pack's files (fsys rooted at
// the pack root) and returns unfinished reports: pack.json first, then the
// referenced files that were checked. The TUI calls it with an in-memory
// fs.FS to re-check the whole pack on every keystroke.
func (v *Validator) PackFiles(name string, fsys fs.FS, data []byte) []FileReport {
	fr := FileReport{Path: name, Kind: kinds.NodePack}
	if err := v.init(); err != nil {
		fr.add(Problem{Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error})
		return []FileReport{fr}
	}
	doc, perr := jsondoc.Parse(data)
	if perr != nil {
		fr.add(syntaxProblem(perr))
		return []FileReport{fr}
	}
	fr.Kind = kinds.Detect("pack.json", doc.Root)
	fr.Spec = v.specOf(fr.Kind, doc)
	if fr.Kind == kinds.OtherPack {
		v.checkDoc(&fr, doc, nil)
		return []FileReport{fr}
	}
	extra := v.checkDoc(&fr, doc, fsys)
	v.noteSpec(&fr, doc)
	return append([]FileReport{fr}, extra...)
}

// lintStandalone runs the file-reading rules of a standalone document (a
// tool manifest's verify suite, an agent's prompt) against its directory,
// and returns the reports on the files they checked (an agent's eval suite).
func (v *Validator) lintStandalone(fr *FileReport, fsys fs.FS, data []byte) []FileReport {
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil
	}
	c := &lintCtx{v: v, kind: fr.Kind, spec: fr.Spec, doc: doc, opts: v.opts, fsys: fsys, name: fr.Path}
	for i := range rules {
		r := &rules[i]
		if !r.NeedsFiles || !appliesTo(r, fr.Spec, fr.Kind) {
			continue
		}
		c.rule = r
		r.check(c)
	}
	fr.add(c.out...)
	return c.files
}

// refPath cleans a reference of a tool install manifest (verify.suite.ref,
// not a pack.json: pack references go through packref) for fs.FS access and
// reports whether it is safe (no "..", not absolute, not a URL).
func refPath(ref string) (string, bool) {
	if ref == "" || ref[0] == '/' || ref[0] == '\\' {
		return "", false
	}
	p := path.Clean(ref)
	if p == ".." || len(p) >= 3 && p[:3] == "../" || !fs.ValidPath(p) {
		return "", false
	}
	return p, true
}

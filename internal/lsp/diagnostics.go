package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/report"
	"github.com/openwop/wopkit/internal/validate"
)

// Source is the diagnostics' source.
const Source = "wopkit"

// diagnostics checks documents off the message loop, newest text first:
// changes that arrive while a check runs are coalesced into one more check
// (no timer, no debounce), and each check's results are published for the
// document and for every file it reported on (a referenced eval suite, a
// schema that does not parse).
type diagnostics struct {
	s       *Server
	mu      sync.Mutex
	pending map[string]bool // paths created, changed, opened or closed
	wake    chan struct{}
	quit    chan struct{}
	once    sync.Once

	// Owned by run's goroutine.
	results   map[string]map[string][]protocol.Diagnostic // checked document -> file -> its problems
	published map[string]bool                             // files last published with problems
	versions  map[string]int32                            // the version of each open document last checked
}

func newDiagnostics(s *Server) *diagnostics {
	return &diagnostics{s: s, pending: map[string]bool{}, wake: make(chan struct{}, 1), quit: make(chan struct{}),
		results: map[string]map[string][]protocol.Diagnostic{}, published: map[string]bool{}, versions: map[string]int32{}}
}

// changed queues a re-check of the open documents that may read path.
func (d *diagnostics) changed(path string) {
	d.mu.Lock()
	d.pending[path] = true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// closed queues the removal of a closed document's diagnostics.
func (d *diagnostics) closed(path string) { d.changed(path) }

func (d *diagnostics) stop() { d.once.Do(func() { close(d.quit) }) }

// run checks what changed until ctx is done or the session exits.
func (d *diagnostics) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.quit:
			return
		case <-d.wake:
		}
		d.mu.Lock()
		pending := d.pending
		d.pending = map[string]bool{}
		d.mu.Unlock()
		d.flush(ctx, pending)
	}
}

// flush re-checks every open document that changed or sits in a pack
// directory where a file changed, and drops the results of closed ones.
func (d *diagnostics) flush(ctx context.Context, pending map[string]bool) {
	defer func() {
		if r := recover(); r != nil {
			d.s.logf("wopkit lsp: checking failed: %v", r)
		}
	}()
	touched := map[string]bool{}
	for p := range pending {
		if d.s.docs.get(p) == nil {
			if old, ok := d.results[p]; ok {
				delete(d.results, p)
				delete(d.versions, p)
				for f := range old {
					touched[f] = true
				}
			}
		}
	}
	for _, doc := range d.s.docs.all() {
		hit := pending[doc.path]
		for p := range pending {
			hit = hit || within(filepath.Dir(doc.path), p)
		}
		if !hit {
			continue
		}
		res := d.s.check(doc)
		for f := range d.results[doc.path] {
			touched[f] = true
		}
		for f := range res {
			touched[f] = true
		}
		d.results[doc.path] = res
		d.versions[doc.path] = doc.version
	}
	for f := range touched {
		d.publish(ctx, f)
	}
}

// publish sends a file's diagnostics: the union of what every check
// reported on it (a problem two checks report, once; a problem one check
// reports twice, as validate does for a version manifest, twice).
func (d *diagnostics) publish(ctx context.Context, file string) {
	var all []protocol.Diagnostic
	taken := map[string]int{}
	for _, res := range d.results {
		seen := map[string]int{}
		for _, dg := range res[file] {
			k := dg.Message + "\x00" + fmt.Sprint(dg.Range.Start) + "\x00" + codeOf(dg)
			seen[k]++
			if seen[k] > taken[k] {
				taken[k] = seen[k]
				all = append(all, dg)
			}
		}
	}
	if all == nil {
		if !d.published[file] && d.s.docs.get(file) == nil {
			return
		}
		all = []protocol.Diagnostic{}
	}
	d.published[file] = len(all) > 0
	p := &protocol.PublishDiagnosticsParams{URI: uri.File(file), Diagnostics: all}
	if doc := d.s.docs.get(file); doc != nil {
		// The version checked, which a change may have passed since.
		p.URI = doc.uri
		if v, ok := d.versions[file]; ok && v > 0 {
			p.Version = uint32(v)
		}
	}
	if d.s.client != nil {
		_ = d.s.client.PublishDiagnostics(ctx, p)
	}
}

func codeOf(dg protocol.Diagnostic) string {
	s, _ := dg.Code.(string)
	return s
}

// check validates one document as `wopkit validate FILE` would (the
// document's text, the files beside it inside the workspace) and returns
// its diagnostics by file.
func (s *Server) check(doc *document) map[string][]protocol.Diagnostic {
	name := filepath.ToSlash(doc.path)
	fsys, inside := s.packFS(doc.path)
	var rep *validate.Report
	if inside {
		rep = s.v.Document(name, fsys, doc.text)
	} else {
		rep = s.v.Document(name, nil, doc.text)
	}
	out := map[string][]protocol.Diagnostic{doc.path: {}}
	// The server is attached to every JSON file of the workspace: one that
	// parses and is no OpenWOP or tool document (package.json, a schema)
	// is none of its business, and gets only what a pack reports on it.
	if len(rep.Files) > 0 && rep.Files[0].Kind == kinds.Unknown && filepath.Base(doc.path) != "pack.json" && parsed(doc.text) != nil {
		return out
	}
	for i, fr := range rep.Files {
		file := filepath.FromSlash(fr.Path)
		text := doc.text
		if i > 0 || file != doc.path {
			text = s.fileText(fsys, doc.path, file)
		}
		out[file] = append(out[file], toDiagnostics(fr, text)...)
	}
	if inside && s.opts.Registry != "" && filepath.Base(doc.path) == "pack.json" {
		s.compareWithRegistry(doc, out)
	}
	if !inside {
		out[doc.path] = append(out[doc.path], protocol.Diagnostic{Severity: protocol.DiagnosticSeverityInformation, Source: Source,
			Message: "this file is outside the workspace folders: wopkit reads no file beside it, so the rules that read referenced files did not run"})
	}
	return out
}

// fileText returns the text of a file a check reported on, to place its
// problems: the open document's, else the file read through the pack's
// bounded FS (nil when unreadable: positions are then taken as given).
func (s *Server) fileText(fsys fs.FS, docPath, file string) []byte {
	if d := s.docs.get(file); d != nil {
		return d.text
	}
	if fsys == nil {
		return nil
	}
	rel, err := filepath.Rel(filepath.Dir(docPath), file)
	if err != nil || !within(filepath.Dir(docPath), file) {
		return nil
	}
	b, err := fs.ReadFile(fsys, filepath.ToSlash(rel))
	if err != nil {
		return nil
	}
	return b
}

// toDiagnostics turns one file's problems into diagnostics, errors then
// warnings as validate lists them, and its note into an information.
func toDiagnostics(fr validate.FileReport, text []byte) []protocol.Diagnostic {
	ls := newLines(text)
	doc := parsed(text)
	var out []protocol.Diagnostic
	for _, ps := range [][]validate.Problem{fr.Errors, fr.Warnings} {
		for _, p := range ps {
			out = append(out, toDiagnostic(p, ls, doc))
		}
	}
	if fr.Note != "" {
		out = append(out, protocol.Diagnostic{Severity: protocol.DiagnosticSeverityInformation, Source: Source, Message: "note: " + fr.Note})
	}
	return out
}

// problemData travels with a diagnostic (and back in codeAction requests).
type problemData struct {
	Pointer string `json:"pointer"`
	// Fix is the problem's own mechanical fix (validate.Problem.Fix), kept
	// on the server's side.
	Fix *validate.Fix `json:"-"`
}

// toDiagnostic places a problem on the key or value it names (validate's
// line and column are where the pointer's key or value starts).
func toDiagnostic(p validate.Problem, ls *lines, doc *jsondoc.Doc) protocol.Diagnostic {
	off := ls.lineCol(p.Line, p.Column)
	start, end := off, min(off+1, len(ls.src))
	if doc != nil {
		start, end = spanAt(doc, off)
	}
	sev := protocol.DiagnosticSeverityError
	if p.Severity == validate.Warning {
		sev = protocol.DiagnosticSeverityWarning
	}
	msg := p.Message
	if p.Hint != "" {
		msg += "\nhint: " + p.Hint
	}
	dg := protocol.Diagnostic{Range: ls.rangeOf(start, end), Severity: sev, Code: p.Rule, Source: Source, Message: msg,
		Data: problemData{Pointer: p.Pointer, Fix: p.Fix}}
	if href := report.RuleFor(p.Rule).HelpURI; href != "" {
		dg.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href)}
	}
	return dg
}

package editor

import (
	"os"
	"path/filepath"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/widgets"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// focus is where the editor's keys go.
type focus int

const (
	focusTree     focus = iota
	focusProblems       // the problem list
	focusEdit           // typing a value
	focusAddKey         // typing the name of a new member
	focusSearch         // typing a search
)

// undoStep is a document state to return to.
type undoStep struct {
	src    []byte
	cursor string
}

// editor is the manifest editor screen: the document as a tree beside a
// detail pane, the problem list below, edits applied to the original bytes.
type editor struct {
	ctx  *common.Context
	v    *validate.Validator
	path string // the file being edited
	dir  string // its directory (the pack root for pack.json)
	name string // the name problems are reported under
	kind kinds.Kind

	src, saved []byte
	doc        *jsondoc.Doc
	undo       []undoStep
	redo       []undoStep // what undo took back, redone in turn (an edit clears it)
	// whole: the selected problem is shown whole in the detail pane (the
	// list cuts a long one with …)
	whole bool
	// expansion: the detail pane shows the chain under the cursor (every
	// chain when the cursor is on none) expanded with its default
	// parameters, as a host splices it (a workflow-chain pack only)
	expansion bool

	rows     []row
	expanded map[string]bool
	cursor   int
	offset   int
	focus    focus

	input     textinput.Model
	inputPtr  string // the pointer being edited or added to
	inputKind jsondoc.Kind
	inputErr  string
	checkSeq  int
	checks    []validate.Problem

	gen      int // generation of src, for validation answers
	problems widgets.ProblemList
	marks    map[string]validate.Severity // pointers (and ancestors) with problems
	info     map[string]validate.FieldInfo
	infoSpec kinds.Spec // the spec version info was looked up under
	status   string
	// sealed: a registry version manifest, whose integrity a hand edit
	// breaks; the first save only says so, the second saves.
	sealed, saveAnyway bool
	// cases is the focused node's stored cases, run with t (nil until then).
	cases *casesMsg
}

// loadEditor reads the document at path (a pack directory means its
// pack.json) and builds the editor screen over it. The file's folder (the
// pack directory) is its root, as for migrate: a file that is, or links
// to, something outside it is refused (path_outside_root) before it is
// read, and the save, through the write door rooted there, refuses one that
// became so meanwhile; a link to a file inside the folder is written
// through and stays a link.
func loadEditor(ctx *common.Context, v *validate.Validator, path string) (*editor, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "pack.json")
	}
	data, err := untrusted.ReadFile(path, validate.MaxFileSize)
	if werr.CodeOf(err) != "" {
		return nil, err
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path).
			WithHint("pass a pack directory, a pack.json, or an agent, eval suite or tool manifest file")
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b { // gzip: a packed release, not a manifest
		return nil, werr.New(werr.Invalid, "edit_tarball", "%s is a packed tarball, not a manifest wopkit can edit", path).
			WithHint("see what it holds with `wopkit inspect %s`; edit the pack's folder (`wopkit edit DIR`) and pack it again", path)
	}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "json_invalid", err, "%s is not JSON wopkit can edit", path).
			WithHint("fix the syntax first; `wopkit validate %s` shows where", path)
	}
	if doc.Root.Kind != jsondoc.Object {
		return nil, werr.New(werr.Invalid, "manifest_not_object", "%s holds a JSON %s, not an object", path, doc.Root.Kind).
			WithHint("open a manifest: a JSON object such as pack.json")
	}
	e := &editor{
		ctx: ctx, v: v, path: path, dir: filepath.Dir(path), name: filepath.Base(path),
		kind: kinds.Detect(filepath.Base(path), doc.Root),
		src:  data, saved: data, doc: doc,
		expanded: map[string]bool{},
		info:     map[string]validate.FieldInfo{},
		marks:    map[string]validate.Severity{},
	}
	if e.kind == kinds.Unknown {
		e.kind = ""
	}
	e.sealed = e.kind == kinds.VersionManifest
	e.infoSpec = e.spec()
	e.input = newInput(ctx)
	e.rebuild()
	return e, nil
}

// newInput is the one-line prompt: no blinking (no timer traffic), no
// colour when the styles are plain.
func newInput(ctx *common.Context) textinput.Model {
	in := textinput.New()
	st := textinput.DefaultDarkStyles()
	st.Cursor.Blink = false
	if ctx.Styles.Plain {
		st.Focused = textinput.StyleState{}
		st.Blurred = textinput.StyleState{}
		st.Cursor.Color = nil
	}
	in.SetStyles(st)
	in.ShowSuggestions = true
	return in
}

// Init starts the first validation and asks for the first row's help.
func (e *editor) Init() tea.Cmd {
	return tea.Batch(e.validateNow(), e.wantInfo())
}

func (e *editor) validateNow() tea.Cmd {
	return validateCmd(e.v, e.gen, e.name, e.dir, e.kind, e.src)
}

func (e *editor) dirty() bool { return string(e.src) != string(e.saved) }

// ConfirmQuit implements tui.Quitter: unsaved changes bring up a dialog.
func (e *editor) ConfirmQuit() tui.Screen {
	if !e.dirty() {
		return nil
	}
	return tui.NewConfirm(e.ctx, "Save your changes to "+e.name+" before quitting?",
		saveCmd(e.path, e.saved, e.src, true), func() tea.Msg { return tui.QuitMsg{} })
}

// current returns the row under the cursor.
func (e *editor) current() (row, bool) {
	if e.cursor < 0 || e.cursor >= len(e.rows) {
		return row{}, false
	}
	return e.rows[e.cursor], true
}

// rebuild recomputes the visible rows after the tree or expansion changed.
func (e *editor) rebuild() {
	e.rows = buildRows(e.doc, e.expanded)
	e.cursor = min(max(e.cursor, 0), max(len(e.rows)-1, 0))
}

// moveTo puts the cursor on ptr (or its closest existing ancestor),
// expanding every container above it.
func (e *editor) moveTo(ptr string) {
	ptr = deepestExisting(e.doc, ptr)
	for _, a := range ancestors(ptr) {
		e.expanded[a] = true
	}
	e.rebuild()
	for i, r := range e.rows {
		if r.ptr == ptr {
			e.cursor = i
			return
		}
	}
}

// apply replaces the document with a changed version, recording undo,
// and schedules re-validation.
func (e *editor) apply(src []byte, cursorTo string) tea.Cmd {
	doc, err := jsondoc.Parse(src)
	if err != nil {
		e.status = "edit refused: " + err.Error()
		return nil
	}
	cur, _ := e.current()
	e.undo = append(e.undo, undoStep{src: e.src, cursor: cur.ptr})
	e.redo = nil
	return e.setDoc(src, doc, cursorTo)
}

func (e *editor) setDoc(src []byte, doc *jsondoc.Doc, cursorTo string) tea.Cmd {
	e.src, e.doc = src, doc
	e.gen++
	e.rebuild()
	if cursorTo != "" {
		e.moveTo(cursorTo)
	}
	return tea.Batch(validateTick(e.gen), e.wantInfo())
}

// wantInfo asks for the schema help of the current row unless it is known.
func (e *editor) wantInfo() tea.Cmd {
	r, ok := e.current()
	if !ok {
		return nil
	}
	if sp := e.spec(); sp != e.infoSpec { // the help of another schema set
		e.info, e.infoSpec = map[string]validate.FieldInfo{}, sp
	}
	if _, known := e.info[r.ptr]; known {
		return nil
	}
	return fieldInfoCmd(e.v, e.infoSpec, e.kind, r.ptr)
}

// spec is the spec version of the document as it stands (an edit of the
// engines range or the signing block can move it): field help comes from
// the schema of that version.
func (e *editor) spec() kinds.Spec { return e.v.SpecOf(e.kind, e.doc) }

// field is the schema's help for the field at ptr.
func (e *editor) field(ptr string) validate.FieldInfo { return e.v.FieldFor(e.spec(), e.kind, ptr) }

// setProblems records the problems and marks the rows they concern.
func (e *editor) setProblems(ps []validate.Problem) {
	e.problems.SetItems(ps)
	e.marks = make(map[string]validate.Severity, len(ps))
	for _, p := range ps {
		if p.File != "" {
			continue
		}
		ptr := deepestExisting(e.doc, p.Pointer)
		for _, a := range append(ancestors(ptr), ptr) {
			if e.marks[a] != validate.Error {
				e.marks[a] = p.Severity
			}
		}
	}
}

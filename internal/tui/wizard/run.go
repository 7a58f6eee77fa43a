package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/review"

	"github.com/openwop/wopkit/internal/tui/wizard/toward"

	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/run"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/validate"
)

// Messages of the wizard's commands.
type (
	// planMsg carries the planned files, or the problems that stop them.
	planMsg review.Planned
	// runMsg ends the run: what was written, packed and signed.
	runMsg struct {
		summary []string
		err     error
		cases   string // the new pack's folder, when it has stored cases to run
	}
	// casesMsg is the new pack's stored cases run (the summary's t key).
	casesMsg struct {
		lines []string
	}
	// replaceMsg is the review planned again to replace the pack in the
	// target folder (--force): the wizard keeps Force from then on.
	replaceMsg struct{ tea.Msg }
)

// makePlan asks the scaffold for the files: the pack (with its nodes,
// agents and eval suites), plus the tool manifest.
func makePlan(v *validate.Validator, a *answers) review.Planned {
	if a.standalone() {
		return makeSoloPlan(v, a)
	}
	if out, ok := planDeclared(v, a); ok {
		return out
	}
	if a.isPack() && a.hasTool() { // the tool manifest ships in the pack, named by its agents
		return planOne(scaffold.PlanPackWithTool(a.packAnswers(), a.Tool, v))
	}
	var out review.Planned
	collect := func(err error, file string) bool {
		var fes scaffold.FieldErrors
		var fe scaffold.FieldError
		switch {
		case errors.As(err, &fes):
		case errors.As(err, &fe):
			fes = scaffold.FieldErrors{fe}
		default:
			out.Err = err
			return false
		}
		for _, fe := range fes {
			if file != "" && fe.File == "" {
				fe.File = file
			}
			out.Problems = append(out.Problems, fe)
		}
		return true
	}
	if a.isPack() {
		p, err := scaffold.PlanPack(a.packAnswers(), v)
		if err != nil && !collect(err, "") {
			return out
		}
		out.Plan = p
	}
	if a.hasTool() {
		tp, err := scaffold.PlanTool(a.Tool, "", v)
		if err != nil && !collect(err, docTool) {
			return out
		}
		switch {
		case tp == nil:
		case out.Plan == nil:
			out.Plan = tp
		default:
			out.Plan.Files = append(out.Plan.Files, tp.Files...)
			out.Plan.Notes = append(out.Plan.Notes, tp.Notes...)
			out.Plan.Placeholders = append(out.Plan.Placeholders, tp.Placeholders...)
		}
	}
	if out.Plan != nil {
		main := "pack.json"
		if !a.isPack() && len(out.Plan.Files) > 0 {
			main = out.Plan.Files[0].Path
		}
		if f := out.Plan.File(main); f != nil {
			out.Manifest = string(f.Data)
		}
	}
	if len(out.Problems) > 0 {
		out.Plan = nil
	}
	return out
}

// planOne is the review of one document's plan: pack.json shown, or the
// problems.
func planOne(p *scaffold.Plan, err error) review.Planned {
	var out review.Planned
	var fes scaffold.FieldErrors
	switch {
	case errors.As(err, &fes):
		out.Problems = fes
	case err != nil:
		out.Err = err
	default:
		out.Plan = p
		if f := p.File("pack.json"); f != nil {
			out.Manifest = string(f.Data)
		}
	}
	return out
}

// makeSoloPlan plans a standalone agent manifest or eval suite. Problems
// are named as answers of the first agent (agents.0.id, agents.0.eval.…)
// so that the review leads back to the agent or eval page. It only reads
// the answers (it runs beside the screen).
func makeSoloPlan(v *validate.Validator, a *answers) review.Planned {
	var (
		out    review.Planned
		p      *scaffold.Plan
		err    error
		prefix = "agents.0"
	)
	if a.What == whatSoloAgent {
		p, err = scaffold.PlanStandaloneAgent(a.soloAgent(), v)
	} else {
		p, err = scaffold.PlanStandaloneEval(a.soloEval(), v)
		prefix = "agents.0.eval"
	}
	var fes scaffold.FieldErrors
	switch {
	case errors.As(err, &fes):
		for _, fe := range fes {
			fe.Field = strings.TrimSuffix(prefix+"."+fe.Field, ".")
			out.Problems = append(out.Problems, fe)
		}
		return out
	case err != nil:
		out.Err = err
		return out
	}
	out.Plan = p
	if len(p.Files) > 0 {
		out.Manifest = string(p.Files[0].Data)
	}
	return out
}

func planCmd(v *validate.Validator, a *answers, opts session) tea.Cmd {
	if a.isPack() && needsKey(a.SignMethod) {
		a.keyDefaults()
	}
	// a deep copy: planning runs beside the screen, which goes on changing
	// the answers (a shallow copy shared their lists, and makeSoloPlan
	// wrote through them)
	snap := a.clone()
	return func() tea.Msg {
		return planMsg(checked(v, snap, opts))
	}
}

// checked is the plan with everything that can fail after the review
// checked too: every problem at once.
func checked(v *validate.Validator, a *answers, opts session) review.Planned {
	p := makePlan(v, a)
	if p.Err != nil {
		return p
	}
	if len(p.Problems) > 0 {
		p.Plan = nil
	}
	p.Problems = append(p.Problems, preflight(v, a, opts, p.Plan)...)
	if len(p.Problems) > 0 {
		p.Plan = nil
	}
	p.Where = where(v, a, opts, p.Plan)
	if p.Plan != nil && a.isPack() && opts.Registry != "" {
		files := map[string][]byte{}
		for _, f := range p.Plan.Files {
			files[f.Path] = f.Data
		}
		p.Compat = semdiff.ReviewNote(targetDir(a, opts), files, opts.Registry)
	}
	return p
}

// targetDir is where the files go: --dir, else, as for `new --yes`, a
// directory named after the last part of the pack name (the current
// directory for a tool manifest or standalone document).
func targetDir(a *answers, opts session) string {
	if opts.Dir != "" {
		return opts.Dir
	}
	if a.isPack() {
		return scaffold.PackDir(a.name())
	}
	return "."
}

// mainField is the answer that names the files: a problem with the target
// leads there.
func mainField(a *answers) scaffold.FieldError {
	switch {
	case a.isPack():
		return scaffold.FieldError{Field: "name", File: "pack.json"}
	case a.What == whatTool:
		return scaffold.FieldError{Field: "tool.id", File: docTool}
	case a.What == whatSoloEval:
		return scaffold.FieldError{Field: "agents.0.eval.suiteId"}
	}
	return scaffold.FieldError{Field: "agents.0.id"}
}

// createOptions are the create workflow's options for the answers: where
// the files go, and how the pack is packed and signed (not at all for
// "only write the files", a tool manifest or a standalone document).
func createOptions(v *validate.Validator, a *answers, opts session, plan *scaffold.Plan) create.Options {
	o := create.Options{Plan: plan, Dir: targetDir(a, opts), Force: opts.Force, DryRun: opts.DryRun, Validator: v, Labels: labels(a, opts)}
	switch {
	case !a.isPack():
	case a.SignMethod == "skip":
		o.PackLater = true
	default:
		o.Release = &create.Release{Name: a.name(), Version: a.Pack.Version, Output: opts.Output, Sign: a.SignMethod,
			Key: create.Key{New: a.KeyChoice == "new", Path: strings.TrimSpace(a.KeyPath), ID: a.KeyID, Default: a.KeyAuto.Default,
				Passphrase: passFor(a, opts), NewPassphrase: newPassFor(a, opts.pass)}}
	}
	return o
}

// labels are the hints' words for the answers on the wizard's pages.
func labels(a *answers, opts session) create.Labels {
	l := create.Labels{
		OtherFolder:  "choose another name (the files go to a folder named after it)",
		OtherTarball: "choose another version (or name): the tarball is named after them",
		UseExisting:  `choose "use an existing private key file" with`,
		NewPair:      `choose "create a new key pair"`,
		OtherSigning: "choose another way to sign",
		KeyOutside:   "keep the key outside the checkout",
	}
	switch {
	case opts.Dir != "":
		l.OtherFolder = "start again with another --dir"
	case a.What == whatTool:
		l.OtherFolder = "choose another tool id (the file is named after it)"
	case !a.isPack():
		l.OtherFolder = "choose another id (the file is named after it)"
	}
	if opts.Output != "" {
		l.OtherTarball = "start again with another --output"
	}
	return l
}

// packThere is the target folder when it holds a pack the run could
// replace (a pack, no --force yet, not a dry run), else "".
func packThere(a *answers, opts session) string {
	if !a.isPack() || opts.Force || opts.DryRun {
		return ""
	}
	dir := targetDir(a, opts)
	if fi, err := os.Lstat(filepath.Join(dir, "pack.json")); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return dir
}

// replaceCmd asks before replacing the pack in the target folder, as
// `new --yes --force` does: on yes the review is planned again with Force,
// and the create workflow keeps the files it replaces aside and puts them
// back when writing fails.
func (w *wizard) replaceCmd() tea.Cmd {
	dir := packThere(w.a, w.opts)
	if dir == "" || len(w.rev.Problems) == 0 {
		return nil
	}
	// planned here, on the screen's thread: the confirm's yes runs beside
	// it, where the wizard's answers and options are not its to change
	opts := w.opts
	opts.Force = true
	plan := planCmd(w.k.V, w.a, opts)
	yes := func() tea.Msg { return replaceMsg{plan()} }
	return tui.Push(tui.NewConfirm(w.ctx, "Replace the pack in "+dir+" (and a release of the same version beside it)? "+
		"Its files are replaced only once everything is written, and put back as they were if writing fails.", yes, nil))
}

// preflight is the create workflow's preflight as problems on the pages
// whose answers resolve them; plan is nil when the answers have problems.
// It is where create.Problem becomes the one problem type the wizard
// handles, scaffold.FieldError (TestWizardHandlesOneProblemType).
func preflight(v *validate.Validator, a *answers, opts session, plan *scaffold.Plan) []scaffold.FieldError {
	out := newPassProblem(a, opts.pass)
	for _, p := range create.Preflight(createOptions(v, a, opts, plan)) {
		fe := problemField(a, opts, p.Subject)
		fe.Message, fe.Hint = p.Message, p.Hint
		out = append(out, fe)
	}
	return out
}

// problemField is the answer a problem of the create workflow is about.
func problemField(a *answers, opts session, s create.Subject) scaffold.FieldError {
	switch s {
	case create.Folder:
		fe := mainField(a)
		if a.isPack() && opts.Dir == "" {
			fe.Field = "name.part" // the folder is named after the name's last part
		}
		return fe
	case create.Tarball:
		return scaffold.FieldError{Field: "version", File: "pack.json"}
	case create.SignMethod:
		return scaffold.FieldError{Field: "signMethod", File: docSign}
	case create.KeyFile:
		return scaffold.FieldError{Field: "keyPath", File: docSign}
	case create.KeyID:
		return scaffold.FieldError{Field: "keyId", File: docSign}
	}
	return mainField(a)
}

// where lists where the files of a plan go, for the review.
func where(v *validate.Validator, a *answers, opts session, plan *scaffold.Plan) []string {
	if plan == nil {
		return nil
	}
	return create.Where(createOptions(v, a, opts, plan))
}

// indent indents lines under a heading.
func indent(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = "  " + l
	}
	return out
}

// errText is an error's message without its hint (hints name CLI flags
// the wizard does not have).
func errText(err error) string { return create.Text(err) }

// runCmd writes the plan, then packs and signs as asked: the create
// workflow, all or nothing.
func runCmd(v *validate.Validator, a *answers, opts session, plan *scaffold.Plan) tea.Cmd {
	o := createOptions(v, a, opts, plan)
	ac := a.clone() // read beside the screen (towardPR)
	return func() tea.Msg {
		res, err := create.Run(context.Background(), o)
		if err != nil {
			return runMsg{err: err}
		}
		m := runMsg{summary: toward.Summary(res.Summary(), towardPR(ac, opts, res))}
		if !res.DryRun && run.HasCases(res.Dir) {
			m.cases = res.Dir
		}
		return m
	}
}

// runCases runs the stored cases of the pack in dir (the summary's t key):
// each node's outputs, or its failure, in words.
func runCases(dir string) tea.Cmd {
	return func() tea.Msg {
		tr, err := run.TestPack(context.Background(), dir, nil)
		if err != nil {
			return casesMsg{lines: []string{"the cases did not run: " + create.Text(err)}}
		}
		return casesMsg{lines: tr.Lines()}
	}
}

// draftKinds are where a draft kept before the kinds had one place kept
// each declarative kind's answers ("chain", "prompt", …), by kind name
// (each kind's pages file says its own, askKind): upgradeDraft moves them
// under "kinds", so that resuming such a draft loses nothing.
var draftKinds = map[string]string{}

// upgradeDraft is the draft b in today's shape (b itself when it is).
func upgradeDraft(b []byte) []byte {
	var raw map[string]json.RawMessage
	if json.Unmarshal(b, &raw) != nil || raw["kinds"] != nil {
		return b
	}
	kinds := map[string]json.RawMessage{}
	for old, name := range draftKinds {
		if v, ok := raw[old]; ok {
			kinds[name] = v
			delete(raw, old)
		}
	}
	if len(kinds) == 0 {
		return b
	}
	k, _ := json.Marshal(kinds)
	raw["kinds"] = k
	out, err := json.Marshal(raw)
	if err != nil {
		return b
	}
	return out
}

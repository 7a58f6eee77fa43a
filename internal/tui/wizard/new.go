// Package wizard is `wopkit new`: the full-screen wizard and its accessible
// mode (plain line-by-line prompts, for screen readers and pipes) walking
// one list of pages over one answers value, then the review of the planned
// files, and writing, packing and signing, all or nothing.
//
// Where things are: a page is a value registered from its own file,
// page_KIND.go (register(&page{…}); a list its pages repeat over is
// registered there too, registerList); pages.go walks them; wizard*.go is
// the screen, review*.go the review, run.go the plan and the write,
// accessible*.go the plain prompts, draft*.go the drafts kept in the user's
// state folder. Options are the caller's settings; session is one run.
package wizard

import (
	"context"
	"io"
	"os"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/keys"
	"github.com/openwop/wopkit/internal/validate"
)

// Options configure Run.
type Options struct {
	What       string              // mixed, node, agent, tool, solo-agent or solo-eval; "" asks
	Dir        string              // target directory; "" is the last part of the pack name (. for a tool manifest)
	Output     string              // tarball path for the pack step; "" is <name>-<version>.tgz
	Force      bool                // replace existing files
	Validator  *validate.Validator // nil means validate.New with no options
	Plain      bool                // no colour
	Accessible bool                // plain line-by-line prompts instead of the full-screen wizard
	DryRun     bool                // write nothing (no files, key, tarball or draft): say what would be written
	DraftDir   string              // the folder a draft is kept for (in wopkit's state folder); "" is the current directory
	// Resume names a kept draft to resume (its id or pack name, see
	// Drafts; ResumeNewest: the newest), whatever the folder.
	Resume string
	// Registry is a registry checkout the review compares a pack with
	// (the version of the same pack it follows; WOPKIT_REGISTRY).
	Registry string
	// Pack and Tool, when set, are answers given on the command line
	// (--set, --values): the wizard starts from them, on their kind, and
	// asks the rest. Pack is a pack kind's answers as its scaffold.Kind
	// makes them, whatever the kind (*scaffold.PackAnswers for a node pack,
	// *scaffold.CardPackAnswers, …; see Asks).
	Pack   any
	Tool   *scaffold.ToolAnswers
	Input  io.Reader // nil means the terminal
	Screen io.Writer // where the UI is drawn; nil means stdout
	// Notes, when set, is where notes are printed once the screen closes
	// (a draft kept); nil means stderr.
	Notes io.Writer
	// Summary, when set, is where the summary of a finished run (the
	// folder and its files, the key, the tarball and its hash, the next
	// commands) is printed once the full screen closes, so that it stays
	// in the terminal's scrollback; nil means stdout.
	Summary io.Writer
}

// session is one run of the wizard: the caller's settings and the run's own
// state, which the screens share.
type session struct {
	Options
	out  *outcome   // what the wizard reports back to Run
	pass *keys.Pass // an encrypted key's passphrase, typed on the sign page (never in the answers)
	// otherDraft: a draft of the folder is kept that this run did not
	// resume (accessible mode fed from a pipe): the run neither replaces
	// it nor removes it.
	otherDraft bool
	// resumed are the ids of the copies of the draft resumed by name
	// (Resume), removed with the run's own.
	resumed []string
}

// draftPath is the folder whose draft is offered and kept (see saveDraft):
// DraftDir, else the current one.
func (o Options) draftPath() string {
	if o.DraftDir == "" {
		return "."
	}
	return o.DraftDir
}

// draftOut is the folder whose draft is written or removed: "" in a dry
// run, which writes none (a draft there is still offered: reading writes
// nothing).
func (o session) draftOut() string {
	if o.DryRun || o.otherDraft {
		return ""
	}
	return o.draftPath()
}

// Run runs the `wopkit new` wizard on a terminal.
func Run(ctx context.Context, settings Options) error {
	opts := session{Options: settings, pass: &keys.Pass{}}
	v, err := tui.ValidatorOr(opts.Validator)
	if err != nil {
		return err
	}
	c := common.New(opts.Plain)
	a := newAnswers()
	node, _ := opts.Pack.(*scaffold.PackAnswers)
	prefill(a, node, opts.Tool)
	if opts.Pack != nil && (node != nil || adopt(a, opts.Pack)) && opts.What == "" {
		opts.What = a.What // the kind of the answers given
	}
	if opts.Resume != "" {
		if a, opts.resumed, err = findDraft(opts.Resume); err != nil {
			return err
		}
		opts.What = ""
	}
	k := ask.Asker{V: v}
	if opts.Accessible {
		return runAccessible(ctx, k, a, opts)
	}
	opts.out = &outcome{}
	err = tui.Run(ctx, tui.NewApp(c, firstScreen(c, k, a, opts)), opts.Input, opts.Screen)
	notes := opts.Notes
	if notes == nil {
		notes = os.Stderr
	}
	printLines(notes, opts.out.notes)
	if opts.out.ok {
		sum := opts.Summary
		if sum == nil {
			sum = os.Stdout
		}
		printLines(sum, opts.out.summary)
	}
	if err == nil && !opts.out.ok && opts.out.err != nil {
		return opts.out.err // the run failed and the author left: exit non-zero
	}
	return err
}

// firstScreen is the wizard, or the offer to resume the draft this user's
// wopkit kept for the folder (never one found in the folder itself) when no
// answers were given on the command line.
func firstScreen(c *common.Context, k ask.Asker, a *answers, opts session) tui.Screen {
	if d, ok := draftToOffer(opts.Options); ok {
		return newDraftOffer(c, k, a, d, opts)
	}
	return newWizard(c, k, a, opts)
}

// draftToOffer is the draft this user's wopkit kept for the folder, when
// there is one and no answers were given on the command line (which start
// a run of their own): the full-screen wizard and accessible mode offer it.
func draftToOffer(opts Options) (*answers, bool) {
	if opts.Pack != nil || opts.Tool != nil || opts.Resume != "" {
		return nil, false
	}
	return loadDraft(opts.draftPath())
}

package tui

import (
	"context"
	"errors"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// EditOptions configure Edit.
type EditOptions struct {
	Path      string              // pack directory, pack.json, agent, eval suite or tool manifest
	Validator *validate.Validator // the checks; nil means validate.New with no options
	Plain     bool                // no colour (NO_COLOR)
	Input     io.Reader           // keys; nil means the terminal
	Screen    io.Writer           // where the UI is drawn; nil means stdout
}

// Edit opens the manifest editor on a terminal and returns when the user
// quits. It refuses a file it cannot read or parse before the screen opens.
func Edit(ctx context.Context, opts EditOptions) error {
	v, err := validatorOr(opts.Validator)
	if err != nil {
		return err
	}
	c := common.New(opts.Plain)
	ed, err := loadEditor(c, v, opts.Path)
	if err != nil {
		return err
	}
	return run(ctx, newApp(c, ed), opts.Input, opts.Screen)
}

func validatorOr(v *validate.Validator) (*validate.Validator, error) {
	if v != nil {
		return v, nil
	}
	return validate.New(validate.Options{})
}

// run drives a program to its end.
func run(ctx context.Context, m tea.Model, in io.Reader, out io.Writer) error {
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if in != nil {
		opts = append(opts, tea.WithInput(in))
	}
	if out != nil {
		opts = append(opts, tea.WithOutput(out))
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, context.Canceled) {
			return nil
		}
		return werr.Wrap(werr.Env, "terminal_failed", err, "the terminal UI stopped").
			WithHint("run in a terminal at least 40x10, or use the non-interactive commands")
	}
	return nil
}

// NewOptions configure New.
type NewOptions struct {
	What       string              // mixed, node, agent, tool, solo-agent or solo-eval; "" asks
	Dir        string              // target directory; "" is the last part of the pack name (. for a tool manifest)
	Output     string              // tarball path for the pack step; "" is <name>-<version>.tgz
	Force      bool                // replace existing files
	Validator  *validate.Validator // nil means validate.New with no options
	Plain      bool                // no colour
	Accessible bool                // plain line-by-line prompts instead of the full-screen wizard
	DryRun     bool                // write nothing (no files, key, tarball or draft): say what would be written
	DraftDir   string              // the folder a draft is kept for (in wopkit's state folder); "" is the current directory
	// Registry is a registry checkout the review compares a pack with
	// (the version of the same pack it follows; WOPKIT_REGISTRY).
	Registry string
	// Pack and Tool, when set, are answers given on the command line
	// (--set, --values): the wizard starts from them and asks the rest.
	Pack *scaffold.PackAnswers
	Tool *scaffold.ToolAnswers
	// Declarative, when set, is the answers of a declarative pack kind
	// given on the command line (*scaffold.PromptPackAnswers, ...; see
	// Asks): the wizard starts from them on that kind.
	Declarative any
	Input       io.Reader // nil means the terminal
	Screen      io.Writer // where the UI is drawn; nil means stdout
	// Notes, when set, is where notes are printed once the screen closes
	// (a draft kept); nil means stderr.
	Notes io.Writer
	// Summary, when set, is where the summary of a finished run (the
	// folder and its files, the key, the tarball and its hash, the next
	// commands) is printed once the full screen closes, so that it stays
	// in the terminal's scrollback; nil means stdout.
	Summary io.Writer

	out  *outcome // what the wizard reports back to New
	pass *keyPass // an encrypted key's passphrase, typed on the sign page (never in the answers)
	// otherDraft: a draft of the folder is kept that this run did not
	// resume (accessible mode fed from a pipe): the run neither replaces
	// it nor removes it.
	otherDraft bool
}

// draftPath is the folder whose draft is offered and kept (see saveDraft):
// DraftDir, else the current one.
func (o NewOptions) draftPath() string {
	if o.DraftDir == "" {
		return "."
	}
	return o.DraftDir
}

// draftOut is the folder whose draft is written or removed: "" in a dry
// run, which writes none (a draft there is still offered: reading writes
// nothing).
func (o NewOptions) draftOut() string {
	if o.DryRun || o.otherDraft {
		return ""
	}
	return o.draftPath()
}

// New runs the `wopkit new` wizard on a terminal.
func New(ctx context.Context, opts NewOptions) error {
	v, err := validatorOr(opts.Validator)
	if err != nil {
		return err
	}
	c := common.New(opts.Plain)
	a := newAnswers()
	prefill(a, opts.Pack, opts.Tool)
	if opts.Declarative != nil && adopt(a, opts.Declarative) && opts.What == "" {
		opts.What = a.What // the kind of the answers given
	}
	if opts.Pack != nil && opts.What == "" {
		opts.What = a.What // the kind of pack follows from the answers given
	}
	k := asker{v: v}
	opts.pass = &keyPass{}
	if opts.Accessible {
		return runAccessible(ctx, k, a, opts)
	}
	opts.out = &outcome{}
	err = run(ctx, newApp(c, firstScreen(c, k, a, opts)), opts.Input, opts.Screen)
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
func firstScreen(c *common.Context, k asker, a *answers, opts NewOptions) screen {
	if d, ok := draftToOffer(opts); ok {
		return newDraftOffer(c, k, a, d, opts)
	}
	return newWizard(c, k, a, opts)
}

// draftToOffer is the draft this user's wopkit kept for the folder, when
// there is one and no answers were given on the command line (which start
// a run of their own): the full-screen wizard and accessible mode offer it.
func draftToOffer(opts NewOptions) (*answers, bool) {
	if opts.Pack != nil || opts.Tool != nil || opts.Declarative != nil {
		return nil, false
	}
	return loadDraft(opts.draftPath())
}

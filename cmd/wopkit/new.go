package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/tui/wizard"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// newOptions are the flags of `wopkit new`.
type newOptions struct {
	Kind       string   // pack, agent, node, eval or tool (the argument)
	Dir        string   // where a new pack, tool manifest or standalone agent or eval suite goes
	Sets       []string // --set KEY=VALUE, in order
	Values     string   // --values FILE (JSON answers)
	Pack       string   // --pack DIR: the pack an agent, node or eval is added to
	Yes        bool     // take defaults, ask nothing
	Force      bool     // overwrite existing files
	Accessible bool     // plain prompts instead of the full-screen wizard
	DryRun     bool     // list what would be written, write nothing
	Spec       string   // --spec v1|v2: the OpenWOP spec a new pack is written for (default v2)
	ListKeys   bool     // --list-keys: print the --set keys of every kind, create nothing
	Resume     bool     // --resume [DRAFT]: resume a kept draft (the argument names it, by id or pack name; none: the newest)
	draft      string   // the draft --resume names (wizard.ResumeNewest: the newest)
	ListDrafts bool     // --list-drafts: list the drafts kept, create nothing
	// startDir is the folder new was run in (before leaveSourceTree moves
	// away from wopkit's source tree): the folder a draft is kept for,
	// which the wizard's message names.
	startDir string
}

// AddFlags registers the flags of `wopkit new`.
func (o *newOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Dir, "dir", "", "directory to create the pack in (default: the last part of the pack name), or to write the tool manifest or standalone agent or eval suite to (default .)")
	f.StringArrayVar(&o.Sets, "set", nil, "set an answer: KEY=VALUE with a dotted KEY (repeatable; lists are comma-separated)")
	f.StringVar(&o.Values, "values", "", "JSON file of answers, applied before --set")
	f.StringVar(&o.Pack, "pack", "", "existing pack directory to add an agent, node or eval suite to (a node defaults to .; an agent or eval suite without --pack is a standalone document)")
	f.BoolVarP(&o.Yes, "yes", "y", false, "take the defaults plus --set/--values and ask nothing")
	f.BoolVar(&o.Force, "force", false, "overwrite files that already exist")
	f.StringVar(&o.Spec, "spec", "", "OpenWOP spec version of a new pack: v2 (default: kind, engines \""+scaffold.EnginesV2+"\") or v1 (engines \""+scaffold.EnginesV1+"\", for hosts that still need it)")
	f.BoolVar(&o.DryRun, "dry-run", false, "check the answers and list the files that would be written, writing nothing")
	f.BoolVar(&o.ListKeys, "list-keys", false, "print the --set keys of every kind and exit")
	f.BoolVar(&o.Accessible, "accessible", os.Getenv("ACCESSIBLE") != "", "plain line-by-line prompts instead of the full-screen wizard (also ACCESSIBLE=1)")
	f.BoolVar(&o.Resume, "resume", false, "resume a draft the wizard kept, named by the argument (its id or pack name, see --list-drafts; none: the newest), whatever the folder")
	f.BoolVar(&o.ListDrafts, "list-drafts", false, "list the drafts the wizard kept (id, pack name, age) and exit")
}

// runWizard is the terminal branch of `wopkit new`: the full-screen wizard,
// set by the TUI when it is linked in. It is called when --yes is not
// given and stdin and stdout are terminals, or with --accessible (whose
// plain prompts read answers from stdin, a pipe too); with it nil, `new`
// always takes the non-interactive path.
var runWizard = func(cmd *cobra.Command, o *newOptions) error {
	opts := wizard.Options{Dir: o.Dir, Force: o.Force, Accessible: o.Accessible, DryRun: o.DryRun, Plain: styles.NoColor(),
		Registry: os.Getenv(registryEnv), DraftDir: o.startDir, Resume: o.draft}
	if o.Accessible { // plain prompts read stdin, a terminal or not (scripts, screen readers)
		opts.Input, opts.Screen = cmd.InOrStdin(), cmd.OutOrStdout()
	}
	if o.Resume { // the draft's own kind and answers
		return wizard.Run(cmd.Context(), opts)
	}
	given := len(o.Sets) > 0 || o.Values != "" || o.Spec != ""
	switch o.Kind {
	case "pack":
		kind, err := packKind(o)
		switch {
		case err != nil:
			return err
		case !wizard.Asks(kind): // no wizard page for this kind yet: the answers given, no questions
			return runNew(cmd.OutOrStdout(), o)
		}
		if given { // the wizard starts on the kind asked, from the answers given, and asks the rest
			k, _ := scaffold.PackKind(kind)
			a, err := packAnswers(k, o, false)
			if err != nil {
				return answersError(o.Kind, err)
			}
			opts.Pack = a
		}
	case "tool":
		opts.What = "tool"
		if given {
			a := scaffold.ToolAnswers{}.Defaults()
			if err := applyAnswers(&a, o, nil); err != nil {
				return answersError(o.Kind, err)
			}
			opts.Tool = &a
		}
	case "agent", "eval":
		if o.Pack != "" || given { // added into a pack, or answered already: no questions
			return runNew(cmd.OutOrStdout(), o)
		}
		opts.What = map[string]string{"agent": "solo-agent", "eval": "solo-eval"}[o.Kind] // a standalone document
	default: // a node added into a pack: no questions
		return runNew(cmd.OutOrStdout(), o)
	}
	return wizard.Run(cmd.Context(), opts)
}

// newKinds are the things `wopkit new` creates (the scaffold's kinds' verbs).
var newKinds = scaffold.Verbs()

// newKeysIntro heads the list `new --list-keys` prints: the --set keys of
// every kind (kept out of `new --help`, where they buried the examples).
const newKeysIntro = "Keys for --set (N is a list index, a|b are keys beside each other):\n"

// registryEnv names a registry checkout the wizard's review compares a
// pack with: the version of the same pack it follows, and the bump its
// changes need (see `wopkit diff`).
const registryEnv = "WOPKIT_REGISTRY"

// newNewCmd scaffolds packs, agents, nodes, eval suites, chains and tool
// manifests from templates/.
func newNewCmd() *cobra.Command {
	o := &newOptions{}
	cmd := &cobra.Command{
		Use:   "new [pack|agent|node|eval|tool|chain]",
		Short: "Create a pack, or add an agent, node, eval suite or chain, or write a tool manifest",
		Long: "new scaffolds from templates: a full-screen wizard on a terminal; with --yes, or when stdin or\n" +
			"stdout is not a terminal, the defaults plus --values and --set, asking nothing. Every answer is\n" +
			"checked before anything is written. agent, node and eval are added into a pack with --pack DIR\n" +
			"(only the new entry is added to pack.json); without it agent and eval write a standalone document.\n" +
			"The --set keys of every kind: wopkit new --list-keys.",
		Example: "  wopkit new pack --yes --set name=vendor.acme.hello --dir hello\n" +
			"  wopkit new pack --yes --set name=vendor.acme.bot --set runtime.language=remote\n" +
			"  wopkit new pack --yes --values answers.json --dir bot --dry-run\n" +
			"  wopkit new pack --yes --set kind=workflow-chain --set name=vendor.acme.chains --dir chains\n" +
			"  wopkit new pack --yes --set kind=prompt --set name=vendor.acme.prompts --dir prompts\n" +
			"  wopkit new agent --pack hello --set id=writer --set modelClass=writing --set eval=true\n" +
			"  wopkit new agent --pack hello --set id=greeter --set systemPrompt='Greet the user.'\n" +
			"  wopkit new node --pack hello --set id=shout --set inputs=text --set outputs=text\n" +
			"  wopkit new eval --pack hello --set targetAgentId=writer\n" +
			"  wopkit new chain --pack chains --set id=digest --set steps.1.typeId=vendor.acme.tools.digest\n" +
			"  wopkit new agent --yes --dir agents --set id=vendor.acme.writer --set modelClass=writing\n" +
			"  wopkit new eval --yes --set targetAgentId=vendor.acme.writer\n" +
			"  wopkit new tool --yes --set tool.id=acme-search --set runtime.kind=python-module --set install.method=pip\n" +
			"  wopkit new --list-drafts                       # the drafts the wizard kept\n" +
			"  wopkit new --resume community.acme.hello       # resume one, from any folder",
		Args:      usageArgs(cobra.MaximumNArgs(1)),
		ValidArgs: newKinds,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			o.Kind = "pack"
			if o.Resume { // the argument names the draft, which knows its kind
				o.draft = wizard.ResumeNewest
				if len(args) == 1 {
					o.draft = args[0]
				}
				args = nil
			}
			if len(args) == 1 {
				o.Kind = args[0]
			}
			if slices.Index(newKinds, o.Kind) < 0 {
				return werr.New(werr.Usage, "usage", "cannot create %q", o.Kind).WithHint("use one of: %s", strings.Join(newKinds, ", "))
			}
			if o.Resume && o.Yes {
				return werr.New(werr.Usage, "usage", "--resume goes on with the wizard's questions and --yes asks none: give one of the two").
					WithHint("resume the draft on a terminal, or with --accessible")
			}
			if o.Yes && o.Accessible && cmd.Flags().Changed("accessible") { // ACCESSIBLE=1 alone is a standing preference: --yes wins
				return werr.New(werr.Usage, "usage", "--accessible asks the questions and --yes answers none of them (the suggestions and --set do): give one of the two").
					WithHint("pipe the answers to `wopkit new --accessible`, one line per question, or drop --accessible and answer with --yes --set KEY=VALUE")
			}
			adds := o.Kind == "agent" || o.Kind == "node" || o.Kind == "eval" || o.Kind == "chain"
			if o.Pack != "" && !adds {
				return werr.New(werr.Usage, "usage", "--pack is for adding an agent, node, eval suite or chain, not a %s", o.Kind).
					WithHint("use --dir to say where the new %s goes", o.Kind)
			}
			if o.Dir != "" && (o.Kind == "node" || o.Kind == "chain" || adds && o.Pack != "") {
				return werr.New(werr.Usage, "usage", "--dir is for new packs, tool manifests and standalone agents and eval suites, not with --pack or for a node or chain").
					WithHint("use --pack DIR to name the pack the %s is added to", o.Kind)
			}
			if o.Spec != "" && (o.Kind != "pack" || !slices.Contains(scaffold.Specs, o.Spec)) {
				return werr.New(werr.Usage, "usage", "--spec %q is for a new pack and takes one of: %s", o.Spec, strings.Join(scaffold.Specs, ", ")).
					WithHint("use --spec v2 (the default) or --spec v1 with `wopkit new pack`")
			}
			for _, s := range o.Sets {
				if !strings.Contains(s, "=") {
					return werr.New(werr.Usage, "usage", "--set %q has no =", s).WithHint("write --set KEY=VALUE")
				}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.ListKeys {
				_, err := fmt.Fprintln(cmd.OutOrStdout(), newKeysIntro+scaffold.SetKeysHelp(96))
				return err
			}
			if o.ListDrafts {
				return wizard.ListDrafts(cmd.OutOrStdout(), time.Now())
			}
			o.startDir, _ = os.Getwd()
			if err := leaveSourceTree(cmd.ErrOrStderr(), o); err != nil {
				return err
			}
			if o.Resume && runWizard != nil {
				return runWizard(cmd, o)
			}
			if !o.Yes && runWizard != nil && (o.Accessible || isTerminal(os.Stdin) && isTerminal(os.Stdout)) {
				return runWizard(cmd, o)
			}
			return runNew(cmd.OutOrStdout(), o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// runNew is the non-interactive path of `wopkit new`.
func runNew(out io.Writer, o *newOptions) error {
	var (
		plan   *scaffold.Plan
		dir    string
		err    error
		unlock = func() {}
	)
	switch o.Kind {
	case "pack":
		plan, dir, err = newPack(o)
	case "tool":
		plan, dir, err = newTool(o)
	case "agent", "eval":
		if o.Pack == "" {
			plan, dir, err = newStandalone(o)
			break
		}
		plan, dir, err = newInPackLocked(o, &unlock)
	default:
		plan, dir, err = newInPackLocked(o, &unlock)
	}
	defer unlock()
	if err != nil {
		return answersError(o.Kind, err)
	}
	res, err := create.Run(context.Background(), create.Options{Plan: plan, Dir: dir, Force: o.Force, DryRun: o.DryRun, Labels: newLabels(o)})
	if err != nil {
		return err
	}
	for _, f := range res.Files {
		verb := "created"
		if f.Update {
			verb = "updated"
		}
		if o.DryRun {
			verb = "would " + strings.TrimSuffix(verb, "d") // would create, would update
		}
		safeLine(out, "%s %s", verb, filepath.Join(dir, filepath.FromSlash(f.Path)))
	}
	if o.DryRun {
		return nil
	}
	for _, n := range res.Notes {
		safeLine(out, "next: %s", n)
	}
	if o.Kind == "pack" {
		if n := newPackNext(plan); n != "" {
			safeLine(out, "next: %s", n)
		}
	}
	return nil
}

// newLabels are the words of the create workflow's hints on the command
// line: what changes where the files go.
func newLabels(o *newOptions) create.Labels {
	l := create.Labels{Replace: "pass --force to replace them"}
	if o.Pack != "" || o.Kind == "node" || o.Kind == "chain" {
		l.OtherFolder = "give the new " + o.Kind + " another id with --set"
	}
	return l
}

func newPack(o *newOptions) (*scaffold.Plan, string, error) {
	kind, err := packKind(o)
	if err != nil {
		return nil, "", err
	}
	k, _ := scaffold.PackKind(kind)
	a, err := packAnswers(k, o, true)
	if err != nil {
		return nil, "", err
	}
	plan, err := k.Plan(a, nil)
	if err != nil {
		return nil, "", err
	}
	dir := o.Dir
	if dir == "" {
		name := k.Pack(a).Name
		dir = name[strings.LastIndexByte(name, '.')+1:]
	}
	return plan, dir, nil
}

// packAnswers are the answers of a new pack of kind k, whatever the kind:
// its defaults, the name --dir suggests (when named), --spec, then --values
// and --set.
func packAnswers(k scaffold.Kind, o *newOptions, named bool) (any, error) {
	a := k.New()
	id := k.Pack(a)
	if named && o.Dir != "" {
		id.Name = "community.example." + scaffold.Slug(filepath.Base(filepath.Clean(o.Dir)))
	}
	id.Spec = o.specOr(id.Spec)
	return a, applyAnswers(a, o, k.Aliases)
}

// packKind returns the pack kind the answers ask for: the last
// `--set kind=...`, else the --values file's "kind", else node. A kind
// wopkit cannot scaffold is a usage error naming those it can.
func packKind(o *newOptions) (string, error) {
	kind := ""
	if o.Values != "" {
		if b, err := untrusted.ReadNamed(o.Values, untrusted.MaxDocument); err == nil { // unreadable: applyAnswers says so
			var v struct {
				Kind *string `json:"kind"`
			}
			if json.Unmarshal(b, &v) == nil && v.Kind != nil {
				kind = *v.Kind
			}
		}
	}
	for _, s := range o.Sets {
		if k, v, _ := strings.Cut(s, "="); k == "kind" {
			kind = v
		}
	}
	if kind == "" {
		return scaffold.KindNode, nil
	}
	if kinds := scaffold.PackKinds(); !slices.Contains(kinds, kind) {
		return "", werr.New(werr.Usage, "usage", "cannot scaffold a pack of kind %q", kind).
			WithHint("`wopkit new pack` writes the kinds: %s (--set kind=KIND)", strings.Join(kinds, ", "))
	}
	return kind, nil
}

// specOr returns the --spec flag, or def when it was not given.
func (o *newOptions) specOr(def string) string {
	if o.Spec != "" {
		return o.Spec
	}
	return def
}

func newTool(o *newOptions) (*scaffold.Plan, string, error) {
	a := scaffold.ToolAnswers{}.Defaults()
	if err := applyAnswers(&a, o, nil); err != nil {
		return nil, "", err
	}
	plan, err := scaffold.PlanTool(a, "", nil)
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	return plan, dir, err
}

// newStandalone plans a standalone agent manifest or eval suite (no --pack).
func newStandalone(o *newOptions) (*scaffold.Plan, string, error) {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	if o.Kind == "agent" {
		a := scaffold.AgentAnswers{}.StandaloneDefaults()
		if err := applyAnswers(&a, o, nil); err != nil {
			return nil, "", err
		}
		if hasSet(o, "systemPrompt") && !hasSet(o, "systemPromptInline") && !hasSet(o, "systemPromptFile") {
			a.PromptInline = true
		}
		plan, err := scaffold.PlanStandaloneAgent(a, nil)
		return plan, dir, err
	}
	e := scaffold.EvalAnswers{}.StandaloneDefaults()
	if err := applyAnswers(&e, o, nil); err != nil {
		return nil, "", err
	}
	plan, err := scaffold.PlanStandaloneEval(e, nil)
	return plan, dir, err
}

// newInPackLocked is newInPack with the pack directory locked until *unlock
// is called (after the plan is written): two `new agent --pack SAME` at once
// take turns, the second reading the first one's pack.json.
func newInPackLocked(o *newOptions, unlock *func()) (*scaffold.Plan, string, error) {
	dir := o.Pack
	if dir == "" {
		dir = "."
	}
	if !o.DryRun {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			u, err := atomicfile.LockDir(dir)
			if err != nil {
				return nil, "", err
			}
			*unlock = u
		}
	}
	return newInPack(o)
}

func newInPack(o *newOptions) (*scaffold.Plan, string, error) {
	dir := o.Pack
	if dir == "" {
		dir = "."
	}
	src, err := scaffold.OpenPack(dir)
	if err != nil {
		return nil, "", err
	}
	var plan *scaffold.Plan
	switch o.Kind {
	case "agent":
		a := scaffold.AgentAnswers{}.Defaults()
		if err := applyAnswers(&a, o, nil); err != nil {
			return nil, "", err
		}
		if hasSet(o, "systemPrompt") && !hasSet(o, "systemPromptInline") && !hasSet(o, "systemPromptFile") {
			a.PromptInline = true
		}
		plan, err = scaffold.PlanAgent(src, a, nil)
	case "node":
		a := scaffold.NodeAnswers{}.Defaults()
		if err := applyAnswers(&a, o, nil); err != nil {
			return nil, "", err
		}
		plan, err = scaffold.PlanNode(src, a, nil)
	case "eval":
		a := scaffold.EvalAnswers{}.Defaults()
		if err := applyAnswers(&a, o, nil); err != nil {
			return nil, "", err
		}
		plan, err = scaffold.PlanEval(src, a, nil)
	case "chain":
		a := scaffold.ChainAnswers{}.Defaults()
		if err := applyAnswers(&a, o, nil); err != nil {
			return nil, "", err
		}
		plan, err = scaffold.PlanChain(src, a, nil)
	}
	return plan, dir, err
}

// applyAnswers applies --values then each --set, in order; aliases (the
// kind's) name the first entry of a list without an index.
func applyAnswers(a any, o *newOptions, aliases map[string]string) error {
	if o.Values != "" {
		b, err := untrusted.ReadNamed(o.Values, untrusted.MaxDocument)
		if werr.CodeOf(err) != "" {
			return err
		}
		if err != nil {
			return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read --values file %s", o.Values).WithHint("check the path")
		}
		if _, node := a.(*scaffold.PackAnswers); node {
			b = dropNodeKind(b)
		}
		if err := scaffold.Values(a, b); err != nil {
			return err
		}
	}
	for _, s := range o.Sets {
		k, v, _ := strings.Cut(s, "=")
		if _, node := a.(*scaffold.PackAnswers); node && k == "kind" && v == scaffold.KindNode {
			continue // the kind chose these answers (packKind)
		}
		for from, to := range aliases {
			if strings.HasPrefix(k, from) {
				k = to + strings.TrimPrefix(k, from)
			}
		}
		if err := scaffold.Set(a, k, v); err != nil {
			return err
		}
	}
	return nil
}

// dropNodeKind removes `"kind": "node"` from a --values object: the kind
// chose the node pack answers, which have no kind of their own.
func dropNodeKind(b []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || string(m["kind"]) != `"`+scaffold.KindNode+`"` {
		return b
	}
	delete(m, "kind")
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

func hasSet(o *newOptions, key string) bool {
	for _, s := range o.Sets {
		if k, _, _ := strings.Cut(s, "="); k == key {
			return true
		}
	}
	return false
}

// answersError turns the scaffold's field errors into one error listing
// every answer to change, with the validator's words.
func answersError(kind string, err error) error {
	var fes scaffold.FieldErrors
	if !errors.As(err, &fes) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the answers do not make a valid %s (nothing was written):", kind)
	for _, fe := range fes {
		field := fe.Field
		if field == "" {
			field = "(" + fe.File + ")"
		}
		fmt.Fprintf(&b, "\n  %s: %s", field, fe.Message)
		if fe.Hint != "" {
			fmt.Fprintf(&b, "\n      hint: %s", fe.Hint)
		}
	}
	return werr.New(werr.Invalid, "scaffold_invalid_answers", "%s", b.String()).
		WithHint("change the answers with --set KEY=VALUE")
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

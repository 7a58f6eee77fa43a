package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/fix"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/publish"
	"github.com/openwop/wopkit/internal/regcheck"
	"github.com/openwop/wopkit/internal/report"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/smoke"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// validateOptions are the flags of `wopkit validate`.
type validateOptions struct {
	JSON        bool
	Strict      bool
	SchemaDir   string
	Kind        string
	Spec        string
	ForRegistry bool
	Registry    string
	ListRules   bool
	RunEntry    bool
	Fix         bool
	DryRun      bool
	Size        SizeOptions
	Format      FormatOptions

	entryChosen bool // --run-entry or WOPKIT_RUN_ENTRY given: no note when off
}

func (o *validateOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.JSON, "json", false, "print the report as one JSON object (shape in docs/CLI.md); same as --format json")
	f.BoolVar(&o.Strict, "strict", false, "fail on warnings too, and on the placeholders wopkit new writes to be replaced (PH001)")
	f.StringVar(&o.SchemaDir, "schemas", "", "directory of JSON Schemas that override the embedded ones by $id")
	f.StringVar(&o.Kind, "kind", "", "treat standalone documents as this kind: "+kindList())
	f.StringVar(&o.Spec, "spec", "", "check every document against this OpenWOP spec version (v1 or v2) instead of detecting it")
	f.BoolVar(&o.ForRegistry, "for-registry", false, "apply the rules for publishing to a registry (size limits, reserved scopes), as pack --for-registry does")
	f.StringVar(&o.Registry, "registry", "", "with --for-registry: a registry checkout to compare each pack with the version it follows (the bump its changes need: publish's version_bump_too_small)")
	f.BoolVar(&o.ListRules, "rules", false, "list the lint rules and exit")
	f.BoolVar(&o.RunEntry, "run-entry", false, "run OW017: load a javascript pack directory's runtime.entry with node (this runs the pack's code) in a sandbox: "+
		"Linux amd64/arm64 only; reads limited to the pack (node's permission model; a link or hard link out refused before node starts); "+
		fmt.Sprintf("no sockets, no signals to other processes (seccomp); %s of CPU and wall clock, %d MiB; ", validate.EntryTimeout, validate.EntryMemory>>20)+
		"not a substitute for reading the code. Also "+validate.RunEntryEnv+"=1; never for tarballs")
	f.BoolVar(&o.Fix, "fix", false, "apply every fix the problems carry that needs no choice (each printed as file:line: fixed RULE: what; the others listed), then validate again")
	f.BoolVar(&o.DryRun, "dry-run", false, "with --fix: print the unified diff of the fixes; write nothing")
	o.Size.AddFlags(cmd)
	o.Format.AddFlags(cmd)
}

// newValidateCmd checks packs, manifests and tarballs against the schemas and
// the lint rules.
func newValidateCmd() *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Check packs, agents, eval suites, tool manifests and tarballs",
		Long: "Validate checks each PATH (a pack directory, default \".\"; a pack.json of any kind; a registry version\n" +
			"manifest; an agent, eval suite or tool manifest; or a pack .tgz, read without extracting) against the\n" +
			"JSON Schemas of its kind and spec version (v1 or v2, detected from $schema, the signing block, a version\n" +
			"manifest's tarballUrl or an engines range whose ceiling admits major 2; a range with no ceiling leaves\n" +
			"it to the pack's v2 marks, a node's or agent's role, and says so; --spec forces one) and the lint\n" +
			"rules, and prints every problem as file:line:column: message (at /json/pointer) [rule]; --format json,\n" +
			"github (GitHub Actions annotations) or sarif (SARIF 2.1.0, for code scanning) prints it for tools.\n" +
			"OW017, which loads a javascript pack's entry with node, runs only with --run-entry (or\n" +
			validate.RunEntryEnv + "=1), sandboxed.\n\n" +
			"Exit status: 0 valid, 1 problems found, 2 usage error, 3 unreadable input.",
		Example: "  wopkit validate\n  wopkit validate ./my-pack --strict\n  wopkit validate tool.json --json\n" +
			"  wopkit validate ./my-pack --format github\n  wopkit validate ./my-pack --format sarif > wopkit.sarif\n" +
			"  wopkit validate ./my-pack --run-entry\n  wopkit validate my-pack-1.0.0.tgz\n  wopkit validate pack.json --schemas ./newer-schemas",
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Size.Validate(); err != nil {
				return err
			}
			if err := o.Format.Resolve(cmd, o.JSON); err != nil {
				return err
			}
			o.entryChosen = cmd.Flags().Changed("run-entry")
			if v, ok := os.LookupEnv(validate.RunEntryEnv); ok && !o.entryChosen {
				o.entryChosen = v != ""
				on, err := strconv.ParseBool(v)
				if err != nil && v != "" {
					return werr.New(werr.Usage, "usage", "%s=%q is not a boolean", validate.RunEntryEnv, v).WithHint("use 1 to run OW017, 0 not to")
				}
				o.RunEntry = on
			}
			if o.Kind != "" {
				if _, ok := kinds.Parse(o.Kind); !ok {
					return werr.New(werr.Usage, "usage", "unknown --kind %q", o.Kind).
						WithHint("use one of %s", kindList())
				}
			}
			if o.DryRun && !o.Fix {
				return usageErr("--dry-run shows what --fix would write", "add --fix")
			}
			if o.Registry != "" && !o.ForRegistry {
				return usageErr("--registry compares with a registry's published versions for --for-registry", "add --for-registry")
			}
			if _, ok := kinds.ParseSpec(o.Spec); !ok {
				return werr.New(werr.Usage, "usage", "unknown --spec %q", o.Spec).WithHint("use v1 or v2")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.ListRules {
				return printRules(cmd.OutOrStdout())
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			k, _ := kinds.Parse(o.Kind)
			sp, _ := kinds.ParseSpec(o.Spec)
			var err error
			var cat validate.TypeCatalog
			if o.Registry != "" { // OW020 resolves openwop:<typeId> against the tree new versions land in
				if cat, err = publish.TreeCatalog(o.Registry, publish.SpecV2); err != nil {
					return err
				}
			}
			v, err := validate.New(validate.Options{SchemaDir: o.SchemaDir, Strict: o.Strict, Placeholders: o.Strict, ForRegistry: o.ForRegistry, Kind: k, Spec: sp, Limits: o.Size.Limits(), RunEntry: o.RunEntry, Catalog: cat, Smoke: smoke.ForValidate})
			if err != nil {
				return err
			}
			check := func() (*validate.Report, error) {
				rep, err := v.Paths(args)
				if err != nil {
					return nil, err
				}
				if o.Registry != "" {
					if err := checkAgainstRegistry(rep, args, o.Registry, o.Size.Limits()); err != nil {
						return nil, err
					}
				}
				return rep, nil
			}
			var rep *validate.Report
			out := cmd.OutOrStdout()
			if o.Fix {
				res, err := fix.Run(fix.Options{Roots: args, Validate: check, DryRun: o.DryRun})
				if res == nil {
					return err
				}
				out = printFixes(cmd, res, o.DryRun, o.Format.Format)
				if err != nil {
					return err
				}
				rep = res.Report
			} else if rep, err = check(); err != nil {
				return err
			}
			switch {
			case o.RunEntry && !validate.NodeAvailable():
				fmt.Fprintln(cmd.ErrOrStderr(), "validate: node is not installed: the javascript entry check (OW017) was skipped, nothing was run")
			case !o.RunEntry && !o.entryChosen && slices.ContainsFunc(args, validate.EntryCheckable):
				fmt.Fprintln(cmd.ErrOrStderr(), "validate: note: OW017 (load runtime.entry with node) skipped: it runs the pack's code; --run-entry or "+validate.RunEntryEnv+"=1 runs it sandboxed")
			}
			if err := printValidate(out, rep, o.Format.Format); err != nil {
				return err
			}
			if !rep.Valid {
				return errSilent
			}
			return nil
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// checkAgainstRegistry runs, on each pack folder or tarball among paths,
// what publish would check against the registry checkout: the gates that
// do not need the signed release (publish.Preflight: each an error on
// pack.json named by publish's code), and the comparison with the version
// it follows (wopkit diff's): a bump smaller than the changes need is an
// error on pack.json's version, each change that needs the bump a warning
// where it is; a bump that is enough is a note.
func checkAgainstRegistry(rep *validate.Report, paths []string, reg string, lim *tarball.Limits) error {
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || !st.IsDir() && !strings.HasSuffix(path, ".tgz") {
			continue // a standalone document has no published versions
		}
		p, err := semdiff.Load(path, semdiff.LoadOptions{Limits: lim})
		if err != nil {
			continue // validate reported why it cannot be read
		}
		gates, err := regcheck.Gates(p, path, reg, lim)
		if err != nil {
			return err
		}
		addFindings(rep, p, gates)
		r, err := semdiff.AgainstRegistry(p, reg, lim)
		if err != nil {
			return err
		}
		if r != nil {
			note, found := regcheck.Comparison(p, r)
			if note != "" {
				manifest := fileReport(rep, p.Display("pack.json"))
				manifest.Note = strings.TrimPrefix(manifest.Note+"; "+note, "; ")
			}
			addFindings(rep, p, found)
		}
	}
	return nil
}

// addFindings puts regcheck's findings into the report: errors make it
// invalid, warnings do not.
func addFindings(rep *validate.Report, p *semdiff.Pack, found []regcheck.Finding) {
	for _, f := range found {
		fr := fileReport(rep, p.Display(f.File))
		f.Problem.File = fr.Path
		if f.Problem.Severity == validate.Error {
			fr.Errors = append(fr.Errors, f.Problem)
			fr.Valid, rep.Valid = false, false
		} else {
			fr.Warnings = append(fr.Warnings, f.Problem)
		}
	}
}

// fileReport is the report's entry for the file named name (as validate
// names files: relative to the working directory when inside it), added
// when validate had none.
func fileReport(rep *validate.Report, name string) *validate.FileReport {
	if rel, err := filepath.Rel(".", name); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	}
	for i := range rep.Files {
		if rep.Files[i].Path == name {
			return &rep.Files[i]
		}
	}
	rep.Files = append(rep.Files, validate.FileReport{Path: name, Kind: "json-schema", Valid: true, Errors: []validate.Problem{}, Warnings: []validate.Problem{}})
	return &rep.Files[len(rep.Files)-1]
}

// printValidate prints the report in the format asked for.
func printValidate(w io.Writer, rep *validate.Report, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, rep)
	case FormatGitHub:
		if err := report.WriteGitHub(w, report.FromValidate(rep), workDir()); err != nil {
			return err
		}
		_, err := fmt.Fprintln(w, summaryLine(rep))
		return err
	case FormatSARIF:
		return report.WriteSARIF(w, report.FromValidate(rep), sarifOptions("validate"))
	}
	return printReport(w, rep)
}

// sarifOptions describe a SARIF run of verb: wopkit at its build's
// version, paths relative to the working directory, the verb as the
// category (so validate's and verify's uploads do not replace each other).
func sarifOptions(verb string) report.SARIFOptions {
	return report.SARIFOptions{
		Tool:     report.Tool{Name: "wopkit", Version: readBuildInfo().Version, InformationURI: "https://" + modulePath},
		Dir:      workDir(),
		Category: "wopkit/" + verb + "/",
	}
}

// workDir is the directory paths are made relative to ("" when unknown).
func workDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// maxTextProblems caps the problems printed per file in text output; the
// rest are counted on a summary line (--json keeps them all).
const maxTextProblems = 200

func printReport(w io.Writer, rep *validate.Report) error {
	for _, f := range rep.Files {
		if f.Note != "" {
			safeLine(w, "%s: note: %s", f.Path, f.Note)
		}
		shown := 0
		for _, ps := range [][]validate.Problem{f.Errors, f.Warnings} {
			for _, p := range ps {
				if shown == maxTextProblems {
					break
				}
				fmt.Fprintln(w, safeProblem(p).String())
				shown++
			}
		}
		if more := len(f.Errors) + len(f.Warnings) - shown; more > 0 {
			safeLine(w, "%s: … and %d more problems (all are in --json)", f.Path, more)
		}
	}
	_, err := fmt.Fprintln(w, summaryLine(rep))
	return err
}

// summaryLine is the last line of the text report: the verdict and counts.
func summaryLine(rep *validate.Report) string {
	e, wn := rep.ErrorCount()
	verdict := "valid"
	if !rep.Valid {
		verdict = "invalid"
	}
	return fmt.Sprintf("%s: %d file(s), %d error(s), %d warning(s)", verdict, len(rep.Files), e, wn)
}

func kindList() string {
	var names []string
	for _, k := range kinds.All() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

func printRules(w io.Writer) error {
	for _, r := range validate.Rules() {
		fmt.Fprintf(w, "%s  %-7s  %s\n", r.ID, r.Severity, r.Summary)
	}
	return nil
}

// printFixes prints what --fix did: with --dry-run the diff on stdout and
// the rest on stderr (the diff applies with patch), else each fix made as
// `file:line: fixed RULE: what`, and each one listed with why.
// It returns where the report goes: stderr after a diff, and after the
// fixes when the format is for a tool (its output stays one document).
func printFixes(cmd *cobra.Command, res *fix.Result, dryRun bool, format string) io.Writer {
	out, diag := cmd.OutOrStdout(), cmd.ErrOrStderr()
	lines := out
	if dryRun || format != FormatText {
		lines = diag
	}
	if dryRun {
		fmt.Fprint(out, terminalDiff(out, res.Diff))
		out = diag
	}
	verb := "fixed"
	if dryRun {
		verb = "would fix"
	}
	for _, c := range res.Fixed {
		safeLine(lines, "%s:%d: %s %s: %s", c.File, c.Line, verb, c.Rule, c.What)
	}
	for _, l := range res.Listed {
		safeLine(lines, "%s:%d: not fixed %s: %s (%s)", l.File, l.Line, l.Rule, l.What, l.Why)
	}
	return out
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/bump"
	"github.com/openwop/wopkit/internal/validate"
)

// bumpOptions are the flags of `wopkit bump`.
type bumpOptions struct {
	From       string
	Registry   string
	DryRun     bool
	NoValidate bool
	Schemas    string
	Output     OutputOptions
	Size       SizeOptions
}

// AddFlags registers the flags of `wopkit bump`.
func (o *bumpOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.From, "from", "", "auto: the version to compare with (a pack folder, a .tgz, or NAME@VERSION read from --registry)")
	f.StringVar(&o.Registry, "registry", "", "auto: a registry checkout; without --from, compare with the latest version of the pack it holds")
	f.BoolVar(&o.DryRun, "dry-run", false, "print the unified diff of what would change; write nothing")
	f.BoolVar(&o.NoValidate, "no-validate", false, "bump a pack that does not validate")
	f.StringVar(&o.Schemas, "schemas", "", "directory of JSON Schemas that override the embedded ones by $id when checking the pack first")
	o.Output.AddFlags(cmd)
	o.Size.AddFlags(cmd)
}

// newBumpCmd raises a pack's version everywhere the pack names it.
func newBumpCmd() *cobra.Command {
	o := &bumpOptions{}
	cmd := &cobra.Command{
		Use:   "bump major|minor|patch|auto [DIR]",
		Short: "Raise a pack's version, and write it everywhere the pack names its own version",
		Long: "Bump raises the version of the pack in DIR (default \".\") and writes the new version into everything\n" +
			"that names the pack's own version: pack.json's version; every $id the pack owns\n" +
			"(https://packs.openwop.dev/<name>/<version>/<file>, stale ones included) and every $ref to one; a chain\n" +
			"step pinned to one of the pack's own node types (<typeId>@<version>) or a sub-chain pinned to the pack\n" +
			"itself; a version manifest of the pack that it ships. Nodes', agents' and chains' own versions stay.\n" +
			"Only those values change: every other byte stays, and the files are written together, atomically.\n\n" +
			"auto compares the pack with --from OLD (a folder, a .tgz, or NAME@VERSION with --registry) or with\n" +
			"the latest version a --registry checkout holds, as `wopkit diff` does, and takes the smallest bump\n" +
			"of OLD's version that makes `wopkit diff OLD DIR` pass (before 1.0.0 a breaking change needs the\n" +
			"minor number, as diff says). A pack that does not validate is refused unless --no-validate.\n\n" +
			"Exit status: 0 bumped (or nothing to bump), 1 refused, 2 usage error, 3 unreadable or unwritable files.",
		Example: "  wopkit bump minor\n  wopkit bump auto ./my-pack --registry ../openwop-registry --dry-run\n" +
			"  wopkit bump auto ./my-pack --from my-pack-0.1.0.tgz --json\n  wopkit bump patch ./my-pack --dry-run > bump.diff && patch -p0 < bump.diff",
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return o.Size.Validate()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 2 {
				dir = args[1]
			}
			v, err := validate.New(validate.Options{SchemaDir: o.Schemas, Limits: o.Size.Limits()})
			if err != nil {
				return err
			}
			res, err := bump.Run(dir, bump.Options{Level: args[0], From: o.From, Registry: o.Registry, Limits: o.Size.Limits(),
				DryRun: o.DryRun, NoValidate: o.NoValidate, Validator: v})
			if res == nil {
				return err
			}
			out, diag := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if o.Output.JSON {
				return jsonResult(out, res, err)
			}
			if o.DryRun && err == nil {
				fmt.Fprint(out, terminalDiff(out, res.Diff))
				out = diag
			}
			printBump(out, diag, res, o.DryRun)
			if err == nil && !o.DryRun && res.New != "" && res.Written {
				for _, n := range bumpNext(res, o.Registry) {
					safeLine(out, "next: %s", n)
				}
			}
			return err
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// printBump says what was (or would be) changed, and why.
func printBump(out, diag io.Writer, res *bump.Result, dryRun bool) {
	for _, p := range res.Problems {
		q := p.Problem
		q.File = p.File
		fmt.Fprintln(diag, safeProblem(q).String())
	}
	if res.ComparedWith != "" {
		safeLine(out, "compared with %s: %d change(s)", res.ComparedWith, len(res.Reasons))
		for _, c := range res.Reasons {
			where := c.File
			if c.Pointer != "" {
				where += " " + c.Pointer
			}
			safeLine(out, "  %-8s %s: %s [%s]", c.Level, where, c.Message, c.Rule)
		}
	}
	if res.New != "" {
		verb := "bumped"
		if dryRun {
			verb = "would bump (dry run, nothing written)"
		}
		safeLine(out, "%s %s %s → %s (%s): %d file(s)", verb, res.Name, res.Old, res.New, res.Level, len(res.Files))
		for _, f := range res.Files {
			for _, e := range f.Edits {
				safeLine(out, "  %s:%d: %s: %s → %s", strings.TrimPrefix(res.Path+"/"+f.Path, "./"), e.Line, e.What, e.From, e.To)
			}
		}
	}
	for _, n := range res.Notes {
		safeLine(out, "note: %s", n)
	}
	if res.Verdict != "" && res.New != "" {
		safeLine(out, "diff: %s", res.Verdict)
	}
}

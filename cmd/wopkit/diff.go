package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/report"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/werr"
)

// diffOptions are the flags of `wopkit diff`.
type diffOptions struct {
	JSON     bool
	Registry string
	Size     SizeOptions
	Format   FormatOptions
}

func (o *diffOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.JSON, "json", false, "print the comparison as one JSON object (shape in docs/CLI.md); same as --format json")
	f.StringVar(&o.Registry, "registry", "", "registry checkout (or root) that NAME@VERSION sides are read from (v2 tree, then v1)")
	o.Size.AddFlags(cmd)
	o.Format.AddFlags(cmd)
}

// newDiffCmd builds `wopkit diff OLD NEW`: what changed between two
// versions of a pack, each change breaking, feature or fix, and the
// smallest honest version bump.
func newDiffCmd() *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Say what changed between two versions of a pack, and whether the version bump is big enough",
		Long: "diff compares two versions of a pack (each a pack folder, a .tgz, or NAME@VERSION read from --registry,\n" +
			"v2 tree then v1) and lists every change a consumer can notice with its level (breaking, feature, fix),\n" +
			"file, JSON pointer and rule (docs/RULES.md, \"What `wopkit diff` counts\"), then the smallest honest\n" +
			"version bump and whether NEW's version meets it. JSON Schemas are compared by what they accept,\n" +
			"following $ref inside the pack; a change that cannot be proved compatible is breaking.\n\n" +
			"Exit status: 0 NEW's version is at least the bump its changes need, 1 it is smaller, 2 usage error,\n" +
			"3 an input could not be read or was refused (hostile tarball, broken pack.json).",
		Example: "  wopkit diff core.openwop.flow-1.0.1.tgz ./core.openwop.flow\n" +
			"  wopkit diff core.openwop.flow@1.0.1 core.openwop.flow@1.1.0 --registry ../openwop-registry\n" +
			"  wopkit diff old.tgz new.tgz --json | jq .required\n  wopkit diff old.tgz ./my-pack --format github",
		Args: usageArgs(cobra.ExactArgs(2)),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Size.Validate(); err != nil {
				return err
			}
			return o.Format.Resolve(cmd, o.JSON)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			lo := semdiff.LoadOptions{Registry: o.Registry, Limits: o.Size.Limits()}
			var sides [2]*semdiff.Pack
			for i, arg := range args {
				p, err := semdiff.Load(arg, lo)
				if err != nil {
					return inert(inputError(arg, err))
				}
				sides[i] = p
			}
			res := semdiff.Compare(sides[0], sides[1])
			if err := printDiff(cmd.OutOrStdout(), res, sides[1], o.Format.Format); err != nil {
				return err
			}
			if o.Format.Format == FormatText {
				safeLine(cmd.OutOrStdout(), "next: %s", diffNext(args[1], res))
			}
			if !res.VersionOK {
				return errSilent
			}
			return nil
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// inputError makes a side that could not be read or was refused exit 3:
// diff keeps exit 1 for its verdict (the version bump is too small). The
// code stays the reader's; a usage error stays one.
func inputError(arg string, err error) error {
	if c, ok := werr.ClassOf(err); ok && c == werr.Usage {
		return err
	}
	code := werr.CodeOf(err)
	if code == "" {
		code = "file_unreadable"
	}
	return werr.Wrap(werr.Env, code, err, "cannot compare %s", arg)
}

// printDiff prints the comparison in the format asked for.
func printDiff(w io.Writer, r *semdiff.Result, to *semdiff.Pack, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, r)
	case FormatGitHub:
		if err := report.WriteGitHub(w, report.FromDiff(r, to.Display), workDir()); err != nil {
			return err
		}
		_, err := fmt.Fprintln(w, diffSummary(r))
		return err
	case FormatSARIF:
		return report.WriteSARIF(w, report.FromDiff(r, to.Display), sarifOptions("diff"))
	}
	return printDiffText(w, r)
}

// printDiffText is the text report: one line per change, the notes, then
// the verdict.
func printDiffText(w io.Writer, r *semdiff.Result) error {
	safeLine(w, "%s → %s", r.From, r.To)
	for _, c := range r.Changes {
		where := c.File
		if c.Pointer != "" {
			where += " " + c.Pointer
		}
		safeLine(w, "  %-8s %s: %s [%s]", c.Level, where, c.Message, c.Rule)
	}
	for _, n := range r.Notes {
		safeLine(w, "  note     %s", n)
	}
	_, err := fmt.Fprintln(w, diffSummary(r))
	return err
}

// diffNext is what to do after the verdict, for NEW as it was named
// (issue 35, item 8): raise a version too low where it is written, or
// pack (a folder) or publish (a tarball) a release whose bump is enough.
func diffNext(newArg string, r *semdiff.Result) string {
	fi, err := os.Stat(newArg)
	folder := err == nil && fi.IsDir()
	switch {
	case !r.VersionOK && folder && r.Required != semdiff.BumpNone:
		return "raise the version: wopkit bump " + r.Required + " " + newArg + " (pack.json and every $id), then run wopkit diff again"
	case !r.VersionOK && folder:
		return "raise the version in " + filepath.Join(newArg, "pack.json") + " as the verdict says (wopkit edit " + newArg + "), then run wopkit diff again"
	case !r.VersionOK:
		return "raise the version in the pack's folder as the verdict says, pack it again, then run wopkit diff again"
	case folder:
		return "pack and sign it: wopkit pack " + shellWord(newArg) + " --sign v2 --key KEY --key-id ID (KEY: your private key file; ID: its id in the registry's keychain)"
	case err == nil: // a tarball
		return "publish it: wopkit publish " + shellWord(newArg) + " --registry " + shellWord(registryPath()) + " --dry-run (then without --dry-run)"
	}
	return "nothing to do: its version is enough for its changes"
}

// diffSummary is the last line: the counts, the bump needed and the verdict.
func diffSummary(r *semdiff.Result) string {
	n := map[semdiff.Level]int{}
	for _, c := range r.Changes {
		n[c.Level]++
	}
	verdict := "ok"
	if !r.VersionOK {
		verdict = "version too low"
	}
	return fmt.Sprintf("%s: %d breaking, %d feature, %d fix; needs %s bump: %s", verdict, n[semdiff.Breaking], n[semdiff.Feature], n[semdiff.Fix], bumpArticle(r.Required), r.Verdict)
}

func bumpArticle(b string) string {
	if b == semdiff.BumpNone {
		return "no"
	}
	return "a " + b
}

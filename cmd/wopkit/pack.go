package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/validate"
)

// packOptions are the flags of `wopkit pack`.
type packOptions struct {
	OutputFile  string
	DryRun      bool
	NoValidate  bool
	Schemas     string
	ForRegistry bool
	Level       int
	Method      SignMethodOptions
	Key         KeyOptions
	Sigstore    SigstoreOptions
	Output      OutputOptions
	Size        SizeOptions
}

// newPackCmd builds `wopkit pack [DIR]`: a deterministic registry-format
// tarball, optionally signed in the same step.
func newPackCmd() *cobra.Command {
	o := &packOptions{}
	cmd := &cobra.Command{
		Use:   "pack [DIR]",
		Short: "Build a deterministic pack tarball (<name>-<version>.tgz), optionally signed",
		Long: "pack validates the pack in DIR (default .), collects pack.json, README*, LICENSE*, the runtime entry,\n" +
			"every file the manifest references and schemas/, prompts/, evals/, keys/ (minus .openwopignore), and\n" +
			"writes the tarball in the registry's exact format, plus the detached .sig and a version manifest\n" +
			"<base>.json with its integrity. It refuses .git, node_modules, lock files, .env files and anything\n" +
			"holding a private key. Outputs appear all together or not at all.",
		Example: "  wopkit pack\n" +
			"  wopkit pack ./my-pack --dry-run\n" +
			"  wopkit pack ./my-pack --sign manual --key acme.key --key-id acme-1\n" +
			"  wopkit pack ./my-pack --sign v2 --key acme.key --key-id acme-1 -o dist/hello.tgz --json",
		Args: usageArgs(cobra.MaximumNArgs(1)),
		PreRunE: func(*cobra.Command, []string) error {
			if o.Level < 0 || o.Level > 9 {
				return usageErr(fmt.Sprintf("--level %d is out of range", o.Level), "use 1 (fastest) to 9 (smallest), or 0 for the default 9 (the registry builder's level)")
			}
			if err := o.Size.Validate(); err != nil {
				return err
			}
			return o.Method.Validate(&o.Key, true)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			signer, err := newSigner(o.Method.Method, &o.Key, &o.Sigstore)
			if err != nil {
				return err
			}
			res, err := pack.Pack(cmd.Context(), pack.Options{Dir: dir, Output: o.OutputFile, Signer: signer,
				NoValidate: o.NoValidate, SchemaDir: o.Schemas, DryRun: o.DryRun, ForRegistry: o.ForRegistry || signer != nil, Level: o.Level,
				Limits: o.Size.Limits(), Validate: validate.BeforePack})
			if err != nil {
				return err
			}
			return printPackResult(summaryOut(cmd, o.OutputFile), res, o.Output.JSON)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.OutputFile, "output", "o", "", "tarball path (default <name>-<version>.tgz); NAME.sig and NAME.json go beside it")
	f.BoolVar(&o.DryRun, "dry-run", false, "list what would go in, with sizes and the integrity; write nothing")
	f.BoolVar(&o.NoValidate, "no-validate", false, "pack even when validation fails or referenced files are missing")
	f.StringVar(&o.Schemas, "schemas", "", "JSON Schemas that override the embedded ones by $id (as in validate)")
	f.BoolVar(&o.ForRegistry, "for-registry", false, "apply the registry's size limits (always on when signing)")
	f.IntVar(&o.Level, "level", 0, "gzip level 1-9 (default 9, the registry builder's: same gzip header)")
	o.Method.AddFlags(cmd, sign.MethodNone)
	o.Key.AddFlags(cmd)
	o.Sigstore.AddFlags(cmd)
	o.Output.AddFlags(cmd)
	o.Size.AddFlags(cmd)
	return cmd
}

// printPackResult prints a pack (or sign) result as text or as the
// `pack --json` object of docs/CLI.md.
func printPackResult(w io.Writer, res *pack.Result, asJSON bool) error {
	if asJSON {
		return writeJSON(w, res)
	}
	var total int64
	for _, f := range res.Files {
		safeLine(w, "%10d  %s", f.Size, f.Path)
		total += f.Size
	}
	verb := "wrote"
	if res.DryRun {
		verb = "would write"
	}
	safeLine(w, "%d files, %d bytes unpacked", len(res.Files), total)
	safeLine(w, "%s %s (%d bytes, %s)", verb, res.Output, res.Size, res.Integrity)
	if res.Signature != nil {
		safeLine(w, "%s %s (%s signature)", verb, *res.Signature, res.Method)
	} else if res.NotWritten != "" && res.Method != "" {
		safeLine(w, "signed (%s)", res.Method)
	} else {
		safeLine(w, "not signed")
	}
	if res.NotWritten != "" {
		safeLine(w, "note: %s", res.NotWritten)
	} else {
		safeLine(w, "%s %s (version manifest)", verb, res.VersionManifest)
	}
	if !res.DryRun && res.Method != "" && res.NotWritten == "" {
		safeLine(w, "next: %s", packNext(res.Output))
	}
	for _, m := range res.Missing {
		safeLine(w, "warning: pack.json references %s, which does not exist", m)
	}
	return nil
}

// summaryOut is where a verb's summary goes: standard error when one of
// its outputs is standard output ("-": the output's bytes go there), else
// standard output.
func summaryOut(cmd *cobra.Command, outputs ...string) io.Writer {
	for _, o := range outputs {
		if o == atomicfile.Stdout {
			return cmd.ErrOrStderr()
		}
	}
	return cmd.OutOrStdout()
}

package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/migrate"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// migrateOptions are the flags of `wopkit migrate`.
type migrateOptions struct {
	DryRun     bool
	NoValidate bool
	Schemas    string
	Output     OutputOptions
}

// AddFlags registers the flags of `wopkit migrate`.
func (o *migrateOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.DryRun, "dry-run", false, "print the unified diff of what would change; write nothing")
	f.BoolVar(&o.NoValidate, "no-validate", false, "write the migrated pack.json even when it is not a valid v2 pack (its problems are still listed)")
	f.StringVar(&o.Schemas, "schemas", "", "directory of JSON Schemas that override the embedded ones by $id when checking the result")
	o.Output.AddFlags(cmd)
}

// newMigrateCmd upgrades a v1 pack manifest to v2.
func newMigrateCmd() *cobra.Command {
	o := &migrateOptions{}
	cmd := &cobra.Command{
		Use:   "migrate [DIR|pack.json]",
		Short: "Upgrade a v1 pack manifest to OpenWOP v2",
		Long: "Migrate rewrites a v1 pack.json (DIR defaults to \".\") as v2, the way the registry's codemod does:\n" +
			"  - kind: written as \"node\" when absent (v2 requires it), after \"version\";\n" +
			"  - engines.openwop: the same floor with an explicit ceiling that admits protocol major 2\n" +
			"    (\">=1.0.0 <2.0.0\" becomes \">=1.0.0 <3.0.0\"; a ceiling of 3 or more is kept);\n" +
			"  - peerDependencies: keys of the registry's alias table become their v2 family (\"host.agentRuntime\"\n" +
			"    becomes \"agentRuntime\"), their facets go to peerDependenciesMeta.<family>.facets;\n" +
			"  - signing: a v1 manual block {method, publicKeyRef, signatureRef} is relabelled {keyId, scheme}.\n" +
			"Only those members change: every other byte (key order, indentation, unknown members) stays.\n" +
			"Agents get no role (RFC 0131: never inferred; absent means unconstrained, as in v1).\n\n" +
			"Migrate refuses, with the reason and writing nothing, what it cannot rewrite without inventing\n" +
			"something: an engines range that cannot take the ceiling, a peer-dependency key that is neither a v2\n" +
			"family nor an alias, a signing block that must be re-signed rather than relabelled (method ed25519 or\n" +
			"sigstore). The result is checked as v2 (schema and lint, with the pack's files; the pack's code is not\n" +
			"run) and written atomically, the directory locked meanwhile. A v1 signature never carries over:\n" +
			"re-sign with `wopkit pack --sign v2`. A pack that is v2 already is left as it is.\n\n" +
			"Exit status: 0 migrated (or nothing to do), 1 refused, 2 usage error, 3 unreadable or unwritable files.",
		Example: "  wopkit migrate\n  wopkit migrate ./my-pack --dry-run\n  wopkit migrate ./my-pack/pack.json --json\n" +
			"  wopkit migrate ./my-pack --dry-run > v2.diff && patch -p0 < v2.diff",
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return runMigrate(cmd, path, o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runMigrate(cmd *cobra.Command, path string, o *migrateOptions) error {
	v, err := validate.New(validate.Options{SchemaDir: o.Schemas, Spec: kinds.V2})
	if err != nil {
		return err
	}
	res, err := migrate.Pack(path, migrate.Options{DryRun: o.DryRun, NoValidate: o.NoValidate, Validator: v})
	if res == nil {
		return err
	}
	out, diag := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if o.Output.JSON {
		return jsonResult(out, res, err)
	}
	if o.DryRun {
		// The diff alone on stdout (it can be piped to patch); the rest on stderr.
		fmt.Fprint(out, terminalDiff(out, res.Diff))
		out = diag
	}
	printMigration(out, diag, res, o.DryRun)
	return err
}

// printMigration prints what was (or would be) changed, the notes, then
// the problems (on diag).
func printMigration(out, diag io.Writer, res *migrate.Result, dryRun bool) {
	switch {
	case res.Already:
		safeLine(out, "%s is already a v2 pack manifest: nothing to change", res.Path)
	case len(res.Changes) == 0:
	case res.Written:
		safeLine(out, "migrated %s to OpenWOP v2:", res.Path)
	case dryRun:
		safeLine(out, "would migrate %s to OpenWOP v2 (dry run, nothing written):", res.Path)
	default:
		safeLine(out, "%s was not migrated; migrating it would change:", res.Path)
	}
	for _, c := range res.Changes {
		safeLine(out, "  %s", c.Summary)
	}
	for _, n := range res.Notes {
		safeLine(out, "note: %s", n)
	}
	for _, p := range res.Problems {
		q := p.Problem
		q.File = p.File
		fmt.Fprintln(diag, safeProblem(q).String())
	}
}

// silenced keeps err's exit class but prints nothing more (the JSON said it).
// jsonResult writes a command's --json result and returns its error as
// already reported there.
func jsonResult(out io.Writer, res any, err error) error {
	if jerr := writeJSON(out, res); jerr != nil {
		return jerr
	}
	if err != nil {
		return silenced(err)
	}
	return nil
}

func silenced(err error) error {
	c, ok := werr.ClassOf(err)
	if !ok {
		return err
	}
	return &werr.Error{Class: c, Code: werr.CodeOf(err), Msg: "reported above", Err: errSilent}
}

// terminalDiff returns the diff as it may reach w: exact when w is not a
// terminal (so that it applies with patch), else with the characters that
// could take over the terminal escaped (tabs and line-ending CRs kept).
func terminalDiff(w io.Writer, diff string) string {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return diff
	}
	lines := strings.Split(diff, "\n")
	for i, l := range lines {
		cr := strings.HasSuffix(l, "\r")
		parts := strings.Split(strings.TrimSuffix(l, "\r"), "\t")
		for j, p := range parts {
			parts[j] = termsafe.String(p)
		}
		lines[i] = strings.Join(parts, "\t")
		if cr {
			lines[i] += "\r"
		}
	}
	return strings.Join(lines, "\n")
}

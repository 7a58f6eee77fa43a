package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lsp"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// lspOptions are the flags of `wopkit lsp`.
type lspOptions struct {
	Stdio       bool
	SchemaDir   string
	Spec        string
	ForRegistry bool
	Registry    string
}

func (o *lspOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.Stdio, "stdio", true, "talk LSP on stdin and stdout (the only transport; accepted because editors pass it)")
	f.StringVar(&o.SchemaDir, "schemas", "", "directory of JSON Schemas that override the embedded ones by $id (as validate --schemas)")
	f.StringVar(&o.Spec, "spec", "", "check every document against this OpenWOP spec version (v1 or v2) instead of detecting it")
	f.BoolVar(&o.ForRegistry, "for-registry", false, "apply the rules for publishing to a registry, as validate --for-registry does")
	f.StringVar(&o.Registry, "registry", "", "with --for-registry: a registry checkout to compare each pack.json with the version it follows, and to run publish's gates on (as validate --registry)")
}

// newLspCmd serves the Language Server Protocol on stdio: validate's
// diagnostics, the schema's help, completion and quick fixes in any editor.
func newLspCmd() *cobra.Command {
	o := &lspOptions{}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve validate, help and fixes to editors (Language Server Protocol on stdio)",
		Long: "Lsp is a language server (LSP 3.17, stdio) for pack.json of every kind, agent manifests, eval suites,\n" +
			"tool manifests and registry version manifests: the problems `wopkit validate FILE` reports, on the\n" +
			"offending key or value; hover help; completion of members, values, typeIds, files and template\n" +
			"variables; quick fixes (create a missing referenced file, declare a variable or parameter, pin a chain\n" +
			"reference, add kind, migrate v1 to v2); an outline. It reads only inside the workspace folders (and the\n" +
			"registry checkout --registry names, to compare a pack.json with the version it follows, as validate\n" +
			"--registry does), never runs a pack's code (no OW017) and writes nothing: the editor applies the edits it\n" +
			"proposes.\n\n" +
			"Editors start it themselves: see \"Editor integration\" in docs/GUIDE.md.",
		Example: "  wopkit lsp\n  wopkit lsp --stdio\n  wopkit lsp --spec v2\n  wopkit lsp --for-registry --registry ../openwop-registry",
		PreRunE: func(*cobra.Command, []string) error {
			if _, ok := kinds.ParseSpec(o.Spec); !ok {
				return werr.New(werr.Usage, "usage", "unknown --spec %q", o.Spec).WithHint("use v1 or v2")
			}
			if o.Registry != "" && !o.ForRegistry {
				return usageErr("--registry compares with a registry's published versions for --for-registry", "add --for-registry")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			sp, _ := kinds.ParseSpec(o.Spec)
			v, err := validate.New(validate.Options{SchemaDir: o.SchemaDir, Spec: sp, ForRegistry: o.ForRegistry})
			if err != nil {
				return err
			}
			s, err := lsp.New(lsp.Options{Validator: v, Version: readBuildInfo().Version, Log: cmd.ErrOrStderr(), Registry: o.Registry})
			if err != nil {
				return err
			}
			if err := s.Serve(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout()); err != nil {
				return werr.Wrap(werr.Env, "lsp_session", err, "the language server session ended: %v", err)
			}
			return nil
		},
	}
	o.AddFlags(cmd)
	return cmd
}

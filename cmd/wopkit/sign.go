package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// signOptions are the flags of `wopkit sign`.
type signOptions struct {
	OutputFile string
	NoValidate bool
	Schemas    string
	Method     SignMethodOptions
	Key        KeyOptions
	Sigstore   SigstoreOptions
	Output     OutputOptions
}

// newSignCmd builds `wopkit sign DIR|TGZ`: signing changes pack.json, so it
// writes a new tarball (for a TGZ, by default over the input).
func newSignCmd() *cobra.Command {
	o := &signOptions{}
	cmd := &cobra.Command{
		Use:   "sign DIR|TGZ",
		Short: "Sign a pack directory or re-sign a tarball (writes a new tarball, .sig and version manifest)",
		Long: "sign sets pack.json's signing block, canonicalises it and signs it. For a DIR it packs like\n" +
			"`wopkit pack --sign`; for a TGZ it reads the tarball safely in memory, drops its old signatures,\n" +
			"re-signs and writes the tarball again (over the input unless -o is given), atomically.",
		Example: "  wopkit sign ./my-pack --key acme.key --key-id acme-1          # v2 for a v2 pack, manual for a v1 pack\n" +
			"  wopkit sign hello-1.0.0.tgz --sign v2 --key acme.key --key-id acme-1\n" +
			"  wopkit sign hello-1.0.0.tgz --key acme.key --key-id acme-1 -o signed/hello-1.0.0.tgz --json",
		Args: usageArgs(cobra.ExactArgs(1)),
		PreRunE: func(*cobra.Command, []string) error {
			return o.Method.Validate(&o.Key, false)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := os.Stat(args[0])
			if err != nil {
				return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", args[0]).WithHint("give a pack directory or a .tgz")
			}
			method := o.Method.Method
			if !cmd.Flags().Changed("sign") && !cmd.Flags().Changed("method") {
				method = defaultSignMethod(args[0], st)
			}
			signer, err := newSigner(method, &o.Key, &o.Sigstore)
			if err != nil {
				return err
			}
			opts := pack.Options{Dir: args[0], Output: o.OutputFile, Signer: signer, NoValidate: o.NoValidate, SchemaDir: o.Schemas, ForRegistry: true}
			var res *pack.Result
			if st.IsDir() {
				res, err = pack.Pack(cmd.Context(), opts)
			} else {
				res, err = pack.SignTarball(cmd.Context(), args[0], opts)
			}
			if err != nil {
				return err
			}
			return printPackResult(cmd.OutOrStdout(), res, o.Output.JSON)
		},
	}
	cmd.Flags().StringVarP(&o.OutputFile, "output", "o", "", "tarball path (DIR: <name>-<version>.tgz; TGZ: the input itself)")
	cmd.Flags().BoolVar(&o.NoValidate, "no-validate", false, "sign a pack directory even when validation fails")
	cmd.Flags().StringVar(&o.Schemas, "schemas", "", "JSON Schemas that override the embedded ones by $id (as in validate)")
	o.Method.AddFlags(cmd, sign.MethodV2)
	cmd.Flags().Lookup("sign").Usage += " (when not given: v2 for a v2 pack, manual for a v1 pack, detected from pack.json)"
	cmd.Flags().StringVar(&o.Method.Method, "method", sign.MethodV2, "same as --sign (e.g. --method sigstore)")
	o.Key.AddFlags(cmd)
	o.Sigstore.AddFlags(cmd)
	o.Output.AddFlags(cmd)
	return cmd
}

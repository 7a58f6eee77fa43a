package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/validate"
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
	Detached   DetachedOptions
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
			"  wopkit sign hello-1.0.0.tgz --key acme.key --key-id acme-1 -o signed/hello-1.0.0.tgz --json\n" +
			"  wopkit sign ./my-pack --key ssh-agent: --key-id acme-1        # the ssh-agent's only Ed25519 key\n" +
			"  wopkit sign ./my-pack --key ssh-agent:SHA256:AbC... --key-id acme-1\n" +
			"  # a key in an HSM, a KMS or a card: prepare the bytes, sign them outside, attach\n" +
			"  wopkit sign ./my-pack --prepare pack.tbs --key-id acme-1\n" +
			"  openssl pkeyutl -sign -rawin -inkey acme.pem -in pack.tbs -out pack.tbs.sig\n" +
			"  wopkit sign ./my-pack --attach pack.tbs.sig --public-key acme.pub --key-id acme-1",
		Args: usageArgs(cobra.ExactArgs(1)),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			if o.Detached.Prepare != "" || o.Detached.Attach != "" || o.Detached.PublicKey != "" {
				return o.Detached.Validate(cmd, o.Method.Method, &o.Key, o.OutputFile)
			}
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
			if o.Detached.Prepare != "" {
				return prepare(cmd, args[0], st, method, o)
			}
			var signer sign.Signer
			if o.Detached.Attach != "" {
				signer, err = o.Detached.attachSigner(method, o.Key.KeyID)
			} else {
				signer, err = newSigner(method, &o.Key, &o.Sigstore)
			}
			if err != nil {
				return err
			}
			res, err := signPath(cmd.Context(), args[0], st, o.packOptions(args[0], signer))
			if err != nil {
				return err
			}
			return printPackResult(summaryOut(cmd, o.OutputFile), res, o.Output.JSON)
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
	o.Detached.AddFlags(cmd)
	o.Output.AddFlags(cmd)
	return cmd
}

// packOptions are the pack options of signing path with signer.
func (o *signOptions) packOptions(path string, signer sign.Signer) pack.Options {
	return pack.Options{Dir: path, Output: o.OutputFile, Signer: signer, NoValidate: o.NoValidate, SchemaDir: o.Schemas, ForRegistry: true, Validate: validate.BeforePack}
}

// signPath packs a directory or re-signs a tarball.
func signPath(ctx context.Context, path string, st os.FileInfo, opts pack.Options) (*pack.Result, error) {
	if st.IsDir() {
		return pack.Pack(ctx, opts)
	}
	return pack.SignTarball(ctx, path, opts)
}

// prepare runs the signing as a dry run whose signer records the exact
// bytes it is asked to sign (the same build a key file goes through), and
// writes them to --prepare FILE: nothing else is written.
func prepare(cmd *cobra.Command, path string, st os.FileInfo, method string, o *signOptions) error {
	signer, rec, err := sign.NewPrepareSigner(method, o.Key.KeyID)
	if err != nil {
		return err
	}
	opts := o.packOptions(path, signer)
	opts.DryRun = true
	res, err := signPath(cmd.Context(), path, st, opts)
	if err != nil {
		return err
	}
	msg := rec.Message()
	if msg == nil {
		return werr.New(werr.Env, "sign_failed", "packing %s asked for no signature", path)
	}
	if err := atomicfile.WriteFile(o.Detached.Prepare, msg, 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(msg)
	p := preparedResult{Prepared: o.Detached.Prepare, Size: len(msg), SHA256: hex.EncodeToString(sum[:]),
		Method: signer.Method(), Scheme: signer.Scheme(), KeyID: o.Key.KeyID, Output: res.Output}
	if o.Output.JSON {
		return writeJSON(summaryOut(cmd, o.Detached.Prepare), p)
	}
	w := summaryOut(cmd, o.Detached.Prepare)
	safeLine(w, "wrote %s (%d bytes, sha256 %s): pack.json with its signing block, as --sign %s (%s) signs it for key id %s",
		p.Prepared, p.Size, p.SHA256, p.Method, p.Scheme, p.KeyID)
	safeLine(w, "sign these exact bytes with plain Ed25519 (not prehashed), e.g.")
	safeLine(w, "  openssl pkeyutl -sign -rawin -inkey KEY.pem -in %s -out %s.sig", p.Prepared, p.Prepared)
	safeLine(w, "then attach the signature (raw 64 bytes or base64):")
	safeLine(w, "  wopkit sign %s --attach %s.sig --public-key PUB.pem --key-id %s --sign %s", path, p.Prepared, p.KeyID, p.Method)
	return nil
}

// preparedResult is what `sign --prepare --json` prints.
type preparedResult struct {
	Prepared string `json:"prepared"` // the file written
	Size     int    `json:"size"`
	SHA256   string `json:"sha256"` // of the prepared bytes, hex
	Method   string `json:"method"` // manual or v2: give it to --attach as --sign
	Scheme   string `json:"scheme"` // what the signing block declares
	KeyID    string `json:"keyId"`
	Output   string `json:"output"` // the tarball --attach writes (without -o)
}

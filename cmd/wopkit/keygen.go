package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// keygenOptions are the flags of `wopkit keygen`.
type keygenOptions struct {
	Out        string
	Algorithm  string
	Passphrase bool
	Force      bool
	Output     OutputOptions
}

// newKeygenCmd builds `wopkit keygen`: a key pair PREFIX.key (PKCS#8 PEM,
// 0600, optionally encrypted) and PREFIX.pub (SPKI PEM).
func newKeygenCmd() *cobra.Command {
	o := &keygenOptions{}
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Make a signing key pair: PREFIX.key (PKCS#8 PEM, 0600) and PREFIX.pub (SPKI PEM)",
		Long: "keygen writes an Ed25519 key pair (the registry's algorithm) or, with --algorithm ecdsa-p256, an\n" +
			"ECDSA P-256 pair for Sigstore bundles. With --passphrase the private key is encrypted (PBES2:\n" +
			"PBKDF2-HMAC-SHA256 + AES-256-CBC, readable by openssl); the passphrase comes from " + sign.PassphraseEnv + "\n" +
			"or is prompted for on the terminal. The private key is never printed.",
		Example: "  wopkit keygen --out keys/acme\n" +
			"  wopkit keygen --out acme --passphrase\n" +
			"  WOPKIT_KEY_PASSPHRASE=... wopkit keygen --out ci --passphrase --force\n" +
			"  wopkit keygen --out sigstore --algorithm ecdsa-p256",
		Args: usageArgs(cobra.NoArgs),
		PreRunE: func(*cobra.Command, []string) error {
			if o.Out == "" {
				return usageErr("keygen needs --out PREFIX", "e.g. --out keys/acme writes keys/acme.key and keys/acme.pub")
			}
			switch sign.Algorithm(o.Algorithm) {
			case sign.Ed25519, sign.ECDSAP256:
				return nil
			}
			return usageErr("unknown --algorithm "+o.Algorithm, "use ed25519 or ecdsa-p256")
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			key, err := sign.GenerateKey(sign.Algorithm(o.Algorithm))
			if err != nil {
				return err
			}
			var pass []byte
			if o.Passphrase {
				if pass, err = sign.Passphrase("New key passphrase", true)(); err != nil {
					return err
				}
				if len(pass) == 0 {
					return werr.New(werr.Invalid, "key_passphrase_empty", "--passphrase was given but the passphrase is empty").
						WithHint("set a non-empty %s, or drop --passphrase for an unencrypted key", sign.PassphraseEnv)
				}
			}
			// The prefix's directory is created (0700: it holds a private key).
			if err := os.MkdirAll(filepath.Dir(o.Out), 0o700); err != nil {
				return werr.Wrap(werr.Env, "write_failed", err, "cannot create the directory of %s", o.Out).
					WithHint("check the --out path and its permissions")
			}
			keyPath, pubPath, err := sign.WriteKeyPair(o.Out, key, pass, o.Force)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.Output.JSON {
				return json.NewEncoder(out).Encode(map[string]any{"key": keyPath, "pub": pubPath,
					"algorithm": o.Algorithm, "encrypted": len(pass) > 0})
			}
			fmt.Fprintf(out, "wrote %s (private, mode 0600%s) and %s (public)\n", keyPath, map[bool]string{true: ", encrypted"}[len(pass) > 0], pubPath)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "path prefix: writes PREFIX.key and PREFIX.pub")
	f.StringVar(&o.Algorithm, "algorithm", string(sign.Ed25519), "ed25519 (registry signing) or ecdsa-p256 (Sigstore bundles)")
	f.BoolVar(&o.Passphrase, "passphrase", false, "encrypt the private key (passphrase from "+sign.PassphraseEnv+", else prompted)")
	f.BoolVar(&o.Force, "force", false, "replace existing PREFIX.key / PREFIX.pub")
	o.Output.AddFlags(cmd)
	return cmd
}

package main

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// keygenOptions are the flags of `wopkit keygen`.
type keygenOptions struct {
	Out        string
	Algorithm  string
	Passphrase bool
	Force      bool
	FromAgent  string
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
			"  wopkit keygen --out sigstore --algorithm ecdsa-p256\n" +
			"  wopkit keygen --from-ssh-agent --out acme                  # acme.pub of the ssh-agent's only Ed25519 key\n" +
			"  wopkit keygen --from-ssh-agent SHA256:AbC... --out acme    # or by fingerprint (or comment)",
		Args: usageArgs(cobra.MaximumNArgs(1)),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if o.Out == "" {
				return usageErr("keygen needs --out PREFIX", "e.g. --out keys/acme writes keys/acme.key and keys/acme.pub")
			}
			if o.FromAgent != "" || len(args) > 0 {
				return o.agentArgs(cmd, args)
			}
			switch sign.Algorithm(o.Algorithm) {
			case sign.Ed25519, sign.ECDSAP256:
				return nil
			}
			return usageErr("unknown --algorithm "+o.Algorithm, "use ed25519 or ecdsa-p256")
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.FromAgent != "" {
				return o.fromAgent(cmd)
			}
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
			if err := atomicfile.MkdirAll(filepath.Dir(o.Out), 0o700); err != nil {
				return werr.Wrap(werr.Env, "write_failed", err, "cannot create the directory of %s", o.Out).
					WithHint("check the --out path and its permissions")
			}
			keyPath, pubPath, err := sign.WriteKeyPair(o.Out, key, pass, o.Force)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.Output.JSON {
				return writeJSON(out, map[string]any{"key": keyPath, "pub": pubPath,
					"algorithm": o.Algorithm, "encrypted": len(pass) > 0})
			}
			safeLine(out, "wrote %s (private, mode 0600%s) and %s (public)", keyPath, map[bool]string{true: ", encrypted"}[len(pass) > 0], pubPath)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "path prefix: writes PREFIX.key and PREFIX.pub")
	f.StringVar(&o.Algorithm, "algorithm", string(sign.Ed25519), "ed25519 (registry signing) or ecdsa-p256 (Sigstore bundles)")
	f.BoolVar(&o.Passphrase, "passphrase", false, "encrypt the private key (passphrase from "+sign.PassphraseEnv+", else prompted)")
	f.BoolVar(&o.Force, "force", false, "replace existing PREFIX.key / PREFIX.pub")
	f.StringVar(&o.FromAgent, "from-ssh-agent", "", "write only PREFIX.pub, the SPKI PEM of an Ed25519 key in the ssh-agent ("+sign.AgentSocketEnv+"):\n"+
		"alone its only one, or SELECTOR (SHA256:<fingerprint> or the key's comment) as the next argument or after =")
	f.Lookup("from-ssh-agent").NoOptDefVal = sign.AgentPrefix
	o.Output.AddFlags(cmd)
	return cmd
}

// agentArgs folds keygen's optional SELECTOR argument into --from-ssh-agent
// (`--from-ssh-agent SHA256:...` or `--from-ssh-agent=SHA256:...`) and
// refuses what does not go with it.
func (o *keygenOptions) agentArgs(cmd *cobra.Command, args []string) error {
	if o.FromAgent == "" {
		return usageErr("keygen takes no argument "+args[0], "an argument is the key of --from-ssh-agent SELECTOR; otherwise keygen only takes flags")
	}
	if len(args) == 1 {
		if o.FromAgent != sign.AgentPrefix {
			return usageErr("--from-ssh-agent got two selectors: "+o.FromAgent+" and "+args[0], "give one")
		}
		o.FromAgent = args[0]
	}
	if !sign.IsAgentRef(o.FromAgent) {
		o.FromAgent = sign.AgentPrefix + o.FromAgent
	}
	if o.Passphrase || cmd.Flags().Changed("algorithm") {
		return usageErr("--from-ssh-agent writes only the public key of an Ed25519 key the agent holds", "drop --passphrase and --algorithm")
	}
	return nil
}

// fromAgent writes PREFIX.pub for the agent key --from-ssh-agent selects.
func (o *keygenOptions) fromAgent(cmd *cobra.Command) error {
	key, err := sign.OpenAgentKey(o.FromAgent)
	if err != nil {
		return err
	}
	pubPath := o.Out + ".pub"
	if err := atomicfile.MkdirAll(filepath.Dir(pubPath), 0o755); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot create the directory of %s", pubPath).
			WithHint("check the --out path and its permissions")
	}
	if err := sign.WritePublicKey(pubPath, key.Public(), o.Force); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if o.Output.JSON {
		return writeJSON(out, map[string]any{"pub": pubPath, "algorithm": string(sign.Ed25519),
			"fingerprint": key.Info.Fingerprint, "comment": key.Info.Comment, "key": key.Info.Ref()})
	}
	safeLine(out, "wrote %s (public, SPKI PEM) of the ssh-agent key %s", pubPath, key.Info)
	safeLine(out, "sign with: --key %s", key.Info.Ref())
	return nil
}

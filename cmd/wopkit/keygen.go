package main

import (
	"fmt"
	"os"
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
	NoPass     bool
	Force      bool
	FromAgent  string
	Output     OutputOptions

	// secret reads a passphrase typed on the terminal; nil when stdin is
	// not one (then keygen asks nothing). env is os.LookupEnv.
	secret sign.ReadSecret
	env    func(string) (string, bool)
}

// newKeygenCmd builds `wopkit keygen`: a key pair PREFIX.key (PKCS#8 PEM,
// 0600, optionally encrypted) and PREFIX.pub (SPKI PEM).
func newKeygenCmd() *cobra.Command { return newKeygenCmdWith(sign.TerminalSecret(), os.LookupEnv) }

// newKeygenCmdWith is newKeygenCmd asking passphrases through secret (nil:
// no terminal) and reading the environment through env.
func newKeygenCmdWith(secret sign.ReadSecret, env func(string) (string, bool)) *cobra.Command {
	o := &keygenOptions{secret: secret, env: env}
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Make a signing key pair: PREFIX.key (PKCS#8 PEM, 0600) and PREFIX.pub (SPKI PEM)",
		Long: "keygen writes an Ed25519 key pair (the registry's algorithm) or, with --algorithm ecdsa-p256, an\n" +
			"ECDSA P-256 pair for Sigstore bundles. On a terminal it asks for a passphrase, twice (or takes\n" +
			sign.PassphraseEnv + " when set, as signing does), and encrypts the private key with it (PBES2:\n" +
			"PBKDF2-HMAC-SHA256 + AES-256-CBC, readable by openssl); an empty answer writes the key unencrypted,\n" +
			"and says so. With --passphrase the key is always encrypted, the passphrase read from\n" +
			sign.PassphraseEnv + " or else asked; with --no-passphrase nothing is asked and the key is\n" +
			"unencrypted. When stdin is not a terminal (a script, CI) nothing is asked: the key is unencrypted,\n" +
			"with a note unless --no-passphrase says it is meant. Signing with an encrypted key asks for its\n" +
			"passphrase (or reads " + sign.PassphraseEnv + "). The private key is never printed.",
		Example: "  wopkit keygen --out keys/acme                               # asks for a passphrase on a terminal\n" +
			"  wopkit keygen --out ci --no-passphrase --force\n" +
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
			if o.Passphrase && o.NoPass {
				return usageErr("--passphrase and --no-passphrase contradict each other", "give one of them")
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
			if kind := atomicfile.StreamKind(o.Out); kind != "" {
				return usageErr(fmt.Sprintf("--out %s is %s: keygen writes two files named from the prefix (PREFIX.key and PREFIX.pub), and nothing beside a device, a named pipe or standard output", o.Out, articleOf(kind)),
					"give a path prefix, e.g. --out keys/acme")
			}
			if o.FromAgent != "" {
				return o.fromAgent(cmd)
			}
			if err := sign.KeyPairFree(o.Out, o.Force); err != nil {
				return err
			}
			key, err := sign.GenerateKey(sign.Algorithm(o.Algorithm))
			if err != nil {
				return err
			}
			pass, err := o.passphrase(cmd)
			if err != nil {
				return err
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
			safeLine(out, "next: %s", keygenNext(o.Out))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Out, "out", "", "path prefix: writes PREFIX.key and PREFIX.pub")
	f.StringVar(&o.Algorithm, "algorithm", string(sign.Ed25519), "ed25519 (registry signing) or ecdsa-p256 (Sigstore bundles)")
	f.BoolVar(&o.Passphrase, "passphrase", false, "encrypt the private key (passphrase from "+sign.PassphraseEnv+", else prompted)")
	f.BoolVar(&o.NoPass, "no-passphrase", false, "write the private key unencrypted and ask nothing (scripts, CI)")
	f.BoolVar(&o.Force, "force", false, "replace existing PREFIX.key / PREFIX.pub")
	f.StringVar(&o.FromAgent, "from-ssh-agent", "", "write only PREFIX.pub, the SPKI PEM of an Ed25519 key in the ssh-agent ("+sign.AgentSocketEnv+"):\n"+
		"alone its only one, or SELECTOR (SHA256:<fingerprint> or the key's comment) as the next argument or after =")
	f.Lookup("from-ssh-agent").NoOptDefVal = sign.AgentPrefix
	o.Output.AddFlags(cmd)
	return cmd
}

// passphrase is the new key's passphrase (nil: unencrypted): with
// --passphrase from the environment or the terminal, and required; with
// --no-passphrase none; else on a terminal from the environment or asked
// (an empty answer is none, said plainly), and on no terminal none, with a
// note.
func (o *keygenOptions) passphrase(cmd *cobra.Command) ([]byte, error) {
	errOut := cmd.ErrOrStderr()
	key := o.Out + ".key"
	switch {
	case o.Passphrase:
		var pass []byte
		var err error
		if v, ok := o.env(sign.PassphraseEnv); ok {
			pass = []byte(v)
		} else if o.secret == nil {
			err = werr.New(werr.Env, "key_passphrase_unavailable", "--passphrase was given and stdin is not a terminal").
				WithHint("set %s, or pass --no-passphrase for an unencrypted key", sign.PassphraseEnv)
		} else {
			pass, err = sign.AskNewPassphrase(o.secret)
		}
		if err != nil {
			return nil, err
		}
		if len(pass) == 0 {
			return nil, werr.New(werr.Invalid, "key_passphrase_empty", "--passphrase was given but the passphrase is empty").
				WithHint("set a non-empty %s, or drop --passphrase for an unencrypted key", sign.PassphraseEnv)
		}
		return pass, nil
	case o.NoPass:
		return nil, nil
	case o.secret == nil:
		safeLine(errOut, "note: stdin is not a terminal, so no passphrase was asked: %s is not encrypted (--passphrase with %s encrypts it; --no-passphrase silences this note)", key, sign.PassphraseEnv)
		return nil, nil
	}
	// On a terminal the passphrase comes from where signing reads it:
	// the environment first, else asked.
	pass, fromEnv := []byte(nil), false
	if v, ok := o.env(sign.PassphraseEnv); ok {
		pass, fromEnv = []byte(v), true
	} else if p, err := sign.AskNewPassphrase(o.secret); err != nil {
		return nil, err
	} else {
		pass = p
	}
	if fromEnv && len(pass) > 0 {
		safeLine(errOut, "encrypting %s with the passphrase in %s", key, sign.PassphraseEnv)
	}
	if len(pass) == 0 {
		safeLine(errOut, "no passphrase: %s is written unencrypted (anyone who can read the file can sign as you)", key)
	}
	return pass, nil
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

// articleOf is a stream kind with its article ("a device", "standard
// output").
func articleOf(kind string) string {
	if kind == "standard output" {
		return kind
	}
	return "a " + kind
}

// Package keys is what the wizard's sign page knows of keys: the
// passphrase typed for a key, held in memory for the run only (Pass), asked
// masked on the page or, in accessible mode, on the terminal (Ask, AskNew);
// the ssh-agent's Ed25519 keys offered (AgentChoices); whether keyless
// signing can start (KeylessState); and where the key suggested comes from
// (Where). The page itself and the answers are the wizard's
// (internal/tui/wizard).
package keys

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"charm.land/huh/v2"
	"golang.org/x/term"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/werr"
)

// errText is an error's message in the wizard's words.
func errText(err error) string { return create.Text(err) }

// Pass is the passphrase of an encrypted key file, typed on the sign
// page and checked there: it lives in memory for the run only, never in
// the answers, a draft or the screen (the field is masked).
type Pass struct {
	Text string // as typed
	Path string // the key file it opened ("" until it opened one)
	// fresh and again are the passphrase a new pair's private key is
	// encrypted with, typed twice ("": unencrypted; see newPassGroup).
	Fresh, Again string
}

// Source is the passphrase for the key file path: the one typed, once it
// opened that file; nil otherwise (create reads WOPKIT_KEY_PASSPHRASE).
func (p *Pass) Source(path string) sign.PassphraseFunc {
	if p == nil || p.Path == "" || p.Path != path {
		return nil
	}
	text := p.Text
	return func() ([]byte, error) { return []byte(text), nil }
}

// Check opens the key file path with the passphrase s: kept for signing
// when it does, else why not, to type it again.
func (p *Pass) Check(path, s string) error {
	p.Path = ""
	if s == "" {
		return errors.New(path + " is encrypted: type its passphrase (or set " + sign.PassphraseEnv + " before starting)")
	}
	if err := create.CheckPassphrase(path, []byte(s)); err != nil {
		return errors.New(errText(err) + ": type it again")
	}
	p.Text, p.Path = s, path
	return nil
}

// NewPassHelp says what the new key's passphrase does, and what an empty
// one means, as keygen says it.
const NewPassHelp = "encrypts the new private key (asked when signing); empty: the key is written unencrypted, and anyone who can read the file can sign as you"

// agentListBound bounds asking the agent for its keys while the sign page
// is built (OpenSSH's agent answers in well under a millisecond).
const agentListBound = 3 * time.Second

// AgentChoices are the sign page's key choices for the Ed25519 keys of
// the ssh-agent at SSH_AUTH_SOCK (none when it is not set), each chosen by
// its "ssh-agent:SHA256:..." reference, and a note for the Key field when
// the agent cannot be asked or holds no key wopkit can sign with.
func AgentChoices() (opts []huh.Option[string], note string) {
	if os.Getenv(sign.AgentSocketEnv) == "" {
		return nil, ""
	}
	keys, err := sign.ListAgentKeysWithin(agentListBound)
	if err != nil {
		return nil, "ssh-agent: " + errText(err)
	}
	for _, k := range keys {
		if k.Usable() {
			opts = append(opts, huh.NewOption("ssh-agent key "+k.Label(), k.Ref()))
		}
	}
	if len(opts) == 0 {
		return nil, "the ssh-agent holds no Ed25519 key (ssh-add one to sign with it)"
	}
	return opts, ""
}

// IsAgent reports whether a key answer names a key in the ssh-agent.
func IsAgent(path string) bool { return sign.IsAgentRef(strings.TrimSpace(path)) }

// JoinNotes joins two notes of a field's help (either may be empty).
func JoinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// KeylessState says whether keyless signing can start: a token in
// SIGSTORE_ID_TOKEN whose claims Fulcio would take (checked without any
// network call). When not, reason is the sign page's short word for the
// choice's label and why the whole story, with what to do.
func KeylessState() (ready bool, reason string, why error) {
	if ok, r := sigstore.KeylessReady(); !ok {
		return false, r, errors.New("keyless signing needs an OIDC identity token: " + r)
	}
	err := sigstore.CheckToken(os.Getenv(sigstore.TokenEnv))
	if err == nil {
		return true, "", nil
	}
	return false, "the token is refused; choose it for why",
		errors.New("keyless signing is not possible: " + errText(err) + "; " + TokenHint)
}

// TokenHint is what to do about an identity token Fulcio would refuse, in
// the wizard (which reads SIGSTORE_ID_TOKEN when it starts).
const TokenHint = "export a token Fulcio takes in " + sigstore.TokenEnv + ` (fresh, audience "sigstore", and "email_verified": true when it names an email) ` +
	"and start wopkit new again (a draft keeps your answers), or choose another way to sign"

// Where says where the key suggested comes from: a key already in the
// folder (or kept outside the git checkout), or a new pair kept out of a
// git checkout.
func Where(d scaffold.KeyDefault) string {
	switch {
	case d.Existing != "" && filepath.IsAbs(d.Existing): // DefaultKey names a key of this folder relative to it
		return "your key kept outside the git checkout: " + d.Existing + " (the default is to sign with it)"
	case d.Existing != "":
		return "this folder has a key already: " + d.Existing + " (the default is to sign with it)"
	case d.Checkout != "":
		return "a new key pair goes to your config folder, outside the git checkout " + d.Checkout + " (which does not ignore it)"
	}
	return ""
}

// AskNew asks on a terminal, as keygen does, the passphrase a new
// key pair's private key is encrypted with: twice, without echo, asked
// again when the two differ; empty writes the key unencrypted, said plainly.
func AskNew(in io.Reader, lines *ask.Lines, out io.Writer, p *Pass) error {
	fmt.Fprintln(out, "The new private key is encrypted with a passphrase: "+NewPassHelp+".")
	read := func(prompt string) (string, error) {
		fmt.Fprint(out, prompt)
		defer fmt.Fprintln(out)
		if f, ok := in.(*os.File); ok {
			b, err := term.ReadPassword(int(f.Fd()))
			if err != nil {
				return "", werr.Wrap(werr.Env, "key_passphrase_unavailable", err, "cannot read the passphrase from the terminal")
			}
			return string(b), nil
		}
		s, err := ask.SecretLine(lines.R)
		if err != nil {
			lines.EOF = true
			return "", ask.Ended("pack and sign")
		}
		return s, nil
	}
	for tries := 0; ; tries++ {
		first, err := read("New key passphrase (not shown, never kept; empty: unencrypted): ")
		if err != nil {
			return err
		}
		again, err := read("Passphrase again: ")
		if err != nil {
			return err
		}
		if first == again {
			p.Fresh, p.Again = first, again
			if first == "" {
				fmt.Fprintln(out, "  no passphrase: the new private key is written unencrypted")
			}
			return nil
		}
		if tries >= 4 {
			return werr.New(werr.Invalid, "key_passphrase_mismatch", "the new key's passphrase was typed twice differently, five times").
				WithHint("run wopkit new again (a draft keeps your answers), or make the key with `wopkit keygen`")
		}
		fmt.Fprintln(out, "  the two passphrases differ: type it again")
	}
}

// Ask asks the passphrase of the encrypted key file path in
// accessible mode, checked by opening the key: on a terminal read without
// echo, asked again when wrong; from a pipe one line, never echoed to the
// transcript, and a wrong one stops the run (the next line answers
// another question).
func Ask(in io.Reader, lines *ask.Lines, out io.Writer, pipe bool, p *Pass, path string) error {
	for tries := 0; ; tries++ {
		fmt.Fprintf(out, "Key passphrase (%s is encrypted; not shown, never kept): ", path)
		var s string
		if f, ok := in.(*os.File); ok && !pipe {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(out)
			if err != nil {
				return werr.Wrap(werr.Env, "key_passphrase_unavailable", err, "cannot read the passphrase from the terminal")
			}
			s = string(b)
		} else {
			line, err := ask.SecretLine(lines.R)
			fmt.Fprintln(out)
			if err != nil {
				lines.EOF = true
				return ask.Ended("pack and sign")
			}
			s = line
		}
		err := p.Check(path, s)
		if err == nil {
			return nil
		}
		if pipe || tries >= 4 {
			return werr.New(werr.Invalid, "key_passphrase_wrong", "%s", err.Error()).
				WithHint("check the passphrase, or set %s", sign.PassphraseEnv)
		}
		fmt.Fprintln(out, "  "+err.Error())
	}
}

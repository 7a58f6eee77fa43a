package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/keys"

	"errors"
	"fmt"
	"os"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/werr"
)

// signKeyless is the sign page's choice of a keyless Sigstore bundle: a
// Fulcio certificate for the OIDC token in SIGSTORE_ID_TOKEN and a Rekor
// entry (public-good instances unless WOPKIT_FULCIO_URL / WOPKIT_REKOR_URL
// say otherwise).
const signKeyless = create.Keyless

// needsKey reports whether a signing choice asks for a key file and id.
func needsKey(method string) bool {
	switch method {
	case sign.MethodNone, "skip", signKeyless, "":
		return false
	}
	return true
}

func init() {
	register(&page{id: "sign", title: "pack and sign", order: 80, doc: docSign,
		when: func(a *answers, _ pos) bool { return a.isPack() },
		owns: paths("signMethod", "keyChoice", "keyPath", "keyId", newPassKey), groups: signGroups})
	register(&page{id: "review", title: "review", order: 90, doc: docPack})
}

// signMethods are the sign page's choices, the default first.
var signMethods = []scaffold.Choice{
	{Value: sign.MethodV2, About: "v2 Ed25519 (ed25519-canonical-json, what the registry publishes)"},
	{Value: sign.MethodManual, About: "manual Ed25519 (v1, for hosts that still need v1)"},
	{Value: sign.MethodSigstore, About: "Sigstore bundle with an ECDSA P-256 key (offline, no log entry)"},
	{Value: signKeyless, About: "Sigstore keyless (OIDC token from " + sigstore.TokenEnv + ")"},
	{Value: sign.MethodNone, About: "pack without signing"},
	{Value: "skip", About: "no, only write the files"},
}

// specOf is the spec whose packs the Ed25519 method m signs.
func specOf(m string) string {
	if m == sign.MethodManual {
		return scaffold.SpecV1
	}
	return scaffold.SpecV2
}

// signGroups ask how to sign the pack once it is written, then (for the
// keyed methods only) which key. The review checks the key before anything
// is written.
func signGroups(w *wizard, _ pos) []*huh.Group {
	k, a := w.k, w.a
	ready, reason, why := keys.KeylessState()
	// The Ed25519 method follows the pack's spec: a v2 pack is signed v2, a
	// v1 pack manual (the other is refused when signing).
	fits := scaffold.KeySignMethod(a.Pack.Spec)
	if a.SignMethod == sign.MethodV2 || a.SignMethod == sign.MethodManual {
		a.SignMethod = fits
	}
	misfit := func(m string) bool { return (m == sign.MethodV2 || m == sign.MethodManual) && m != fits }
	var opts []huh.Option[string]
	for _, m := range signMethods {
		label := m.About
		if m.Value == signKeyless && !ready {
			label = "Sigstore keyless: unavailable, " + reason
		}
		if misfit(m.Value) {
			label = m.Value + " Ed25519: not for a " + specOf(fits) + " pack (" + fits + " signs it)"
		}
		opts = append(opts, huh.NewOption(label, m.Value))
	}
	method := k.Choose(ask.Choice{Key: "signMethod", Title: "Pack and sign now?",
		Opts: opts, Acc: huh.NewPointerAccessor(&a.SignMethod),
		Check: func(m string) error {
			if m == signKeyless && !ready {
				return why
			}
			if misfit(m) {
				return fmt.Errorf("%s signs a %s pack and this pack is %s: choose %s, or start again with `wopkit new --spec %s` (a draft keeps your answers)", m, specOf(m), specOf(fits), fits, specOf(m))
			}
			return nil
		}})
	a.keyDefaults()
	needed := func(what string, tv ask.TextValue) func(string) error {
		return func(s string) error {
			if needsKey(a.SignMethod) && strings.TrimSpace(tv.Value(s).(string)) == "" {
				return errors.New("a " + what + " is needed to sign")
			}
			return nil
		}
	}
	// the key file suggested follows the choice (an ssh-agent key's is its
	// ssh-agent: reference), the key id the key file
	path := ask.Follow{P: &a.KeyPath, Def: func() string {
		if sign.IsAgentRef(a.KeyChoice) {
			return a.KeyChoice
		}
		return a.keyPathFor(a.KeyChoice)
	}}
	id := ask.Follow{P: &a.KeyID, Def: func() string { return a.keyIDFor(a.KeyPath) }}
	agentKeys, agentNote := keys.AgentChoices()
	keyGroup := w.hideWhen(w.k.Group(
		k.Choose(ask.Choice{Key: "keyChoice", Title: "Key",
			Desc: keys.JoinNotes(keys.Where(a.KeyAuto.Default), agentNote),
			Opts: append([]huh.Option[string]{
				huh.NewOption("create a new key pair", "new"),
				huh.NewOption("use an existing private key file", "existing")}, agentKeys...),
			Acc: huh.NewPointerAccessor(&a.KeyChoice)}),
		k.Reg(k.Following("keyPath", "Key file", path, &a.KeyChoice, "", "").Description(k.Fit("new: the prefix of PREFIX.key and PREFIX.pub (kept outside the pack); existing: the .key file, or "+sign.AgentPrefix+"SHA256:<fingerprint> for a key in the ssh-agent", ask.DescInset)),
			needed("key file", path)),
		k.Reg(k.Following("keyId", "Key id", id, &a.KeyPath, "", "").Description(k.Fit("the id the registry knows your public key by, e.g. acme-1", ask.DescInset)),
			needed("key id", id)),
	), func() bool { return !needsKey(a.SignMethod) })
	return []*huh.Group{w.k.Group(method), keyGroup, passGroup(w), newPassGroup(w)}
}

// passFor is the passphrase source of the answers' key: the one typed on
// the sign page; until then, for a key that asks one, a problem that says
// where it is asked (not the CLI's "set WOPKIT_KEY_PASSPHRASE").
func passFor(a *answers, opts session) sign.PassphraseFunc {
	path := strings.TrimSpace(a.KeyPath)
	if src := opts.pass.Source(path); src != nil || !needsPass(a) {
		return src
	}
	return func() ([]byte, error) {
		return nil, werr.New(werr.Env, "key_passphrase_unavailable", "%s is encrypted: type its passphrase on the sign page (below the key id)", path)
	}
}

// needsPass reports whether the sign page asks for the key's passphrase:
// a keyed method with an existing key file that is encrypted, and no
// WOPKIT_KEY_PASSPHRASE (which is used instead, as the CLI does).
func needsPass(a *answers) bool {
	if !needsKey(a.SignMethod) || a.KeyChoice == "new" || keys.IsAgent(a.KeyPath) {
		return false
	}
	if _, ok := os.LookupEnv(sign.PassphraseEnv); ok {
		return false
	}
	return create.KeyEncrypted(strings.TrimSpace(a.KeyPath))
}

// passGroup asks an encrypted key's passphrase, masked, and checks it by
// opening the key (a wrong one is said at once and asked again). Accessible
// mode asks it apart (askPassphrase): huh's masked prompt needs a terminal
// and would read the answers' pipe.
func passGroup(w *wizard) *huh.Group {
	a, p := w.a, w.opts.pass
	in := w.k.Text(passKey, "Key passphrase", ask.Str{P: &p.Text}, "", "").EchoMode(huh.EchoModePassword).
		Description("the key file is encrypted: its passphrase signs with it now and is never kept (not in a draft either)").
		Validate(w.passCheck)
	return w.hideWhen(w.k.Group(in), func() bool { return w.k.Accessible || !needsPass(a) })
}

// passKey is the passphrase field's key.
const passKey = "keyPassphrase"

// passCheck checks the passphrase typed for the answers' key file.
func (w *wizard) passCheck(s string) error {
	if !needsPass(w.a) {
		return nil
	}
	return w.opts.pass.Check(strings.TrimSpace(w.a.KeyPath), s)
}

// newPassKey is the key of the new pair's passphrase field.
const newPassKey = "newKeyPassphrase"

// newPassGroup asks, as keygen does, the passphrase a new key pair's
// private key is encrypted with, twice and masked; empty writes it
// unencrypted, which the field says plainly. It is never kept (not in the
// answers, nor a draft). Accessible mode asks it apart (askNewPassphrase).
func newPassGroup(w *wizard) *huh.Group {
	k, a, p := w.k, w.a, w.opts.pass
	first := k.Text(newPassKey, "New key passphrase", ask.Str{P: &p.Fresh}, "", "").EchoMode(huh.EchoModePassword).
		Description(k.Fit(keys.NewPassHelp, ask.DescInset))
	again := k.Reg(k.Text(newPassKey+".again", "Passphrase again", ask.Str{P: &p.Again}, "", "").EchoMode(huh.EchoModePassword),
		func(s string) error {
			if s != p.Fresh {
				return errors.New("the two passphrases differ: type it again")
			}
			return nil
		})
	return w.hideWhen(k.Group(first, again), func() bool { return k.Accessible || !asksNewPass(a) })
}

// asksNewPass reports whether the run makes a new key pair whose
// passphrase is asked: not when WOPKIT_KEY_PASSPHRASE is set (it encrypts
// the key, as keygen uses it).
func asksNewPass(a *answers) bool {
	if !makesKey(a) {
		return false
	}
	_, env := os.LookupEnv(sign.PassphraseEnv)
	return !env
}

// makesKey reports whether the run makes a new key pair.
func makesKey(a *answers) bool {
	return a.isPack() && needsKey(a.SignMethod) && a.KeyChoice == "new" && !keys.IsAgent(a.KeyPath)
}

// newPassFor is the passphrase a new pair's private key is encrypted with
// (nil: unencrypted): WOPKIT_KEY_PASSPHRASE when set, else the one typed.
func newPassFor(a *answers, p *keys.Pass) []byte {
	if !makesKey(a) {
		return nil
	}
	if s := os.Getenv(sign.PassphraseEnv); s != "" {
		return []byte(s)
	}
	if p == nil || p.Fresh == "" {
		return nil
	}
	return []byte(p.Fresh)
}

// newPassProblem is the review's problem with the new key's passphrase:
// typed twice differently (the second field refuses that, but the first
// can be changed after it).
func newPassProblem(a *answers, p *keys.Pass) []scaffold.FieldError {
	if !asksNewPass(a) || p == nil || p.Fresh == p.Again {
		return nil
	}
	return []scaffold.FieldError{{Field: newPassKey, File: docSign, Message: "the new key's passphrase was typed twice differently",
		Hint: "type it again, twice (empty: the key is written unencrypted)"}}
}

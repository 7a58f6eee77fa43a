package create

import (
	"crypto"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// LoadKey is the one place the workflow gets a signing key: a new one made
// in memory (Ed25519, or ECDSA P-256 for a Sigstore bundle; written by
// Run once the pack is signed), or the existing private key file k.Path.
// An encrypted key's passphrase comes from k.Passphrase, else from
// WOPKIT_KEY_PASSPHRASE only.
func LoadKey(k Key, method string) (crypto.Signer, error) {
	if k.New {
		alg := sign.Ed25519
		if method == sign.MethodSigstore {
			alg = sign.ECDSAP256 // a Sigstore message signature needs ECDSA (docs/FORMATS.md §4)
		}
		return sign.GenerateKey(alg)
	}
	pass := k.Passphrase
	if pass == nil {
		pass = func() ([]byte, error) {
			if v, ok := os.LookupEnv(sign.PassphraseEnv); ok {
				return []byte(v), nil
			}
			return nil, werr.New(werr.Env, "key_passphrase_unavailable", "%s is encrypted", k.Path).
				WithHint("set %s and start again, or choose to pack without signing", sign.PassphraseEnv)
		}
	}
	return sign.LoadPrivateKey(k.Path, pass)
}

// KeySuits reports whether the private key file path can sign with the
// keyed method (an ECDSA key left by a Sigstore run cannot make an Ed25519
// signature). A key that cannot be read here (encrypted, missing) is not
// judged: true, and the review says what is wrong with it.
func KeySuits(path, method string) bool {
	key, err := sign.LoadPrivateKey(path, func() ([]byte, error) { return nil, errNotAsked })
	if err != nil {
		return true
	}
	_, err = keySigner(method, key, "suits")
	return err == nil
}

// wrongKind is a key that cannot sign with the method chosen.
type wrongKind struct{ err error }

func (e *wrongKind) Error() string { return e.err.Error() }
func (e *wrongKind) Unwrap() error { return e.err }

// keySigner is the signer of a keyed method: Ed25519 (manual, v2) or a
// Sigstore bundle with an ECDSA key, offline (no log entry).
func keySigner(method string, key crypto.Signer, keyID string) (sign.Signer, error) {
	var (
		s   sign.Signer
		err error
	)
	if method == sign.MethodSigstore {
		s, err = sigstore.NewSigner(sigstore.SignOptions{Key: key})
	} else {
		s, err = sign.NewEd25519Signer(method, key, keyID)
	}
	if err != nil {
		return nil, &wrongKind{err}
	}
	return s, nil
}

// savePair writes a new key pair once the pack is signed, recording it for
// a rollback; it returns the private and public key files.
type savePair func(u *undo) (keyPath, pubPath string, err error)

// signerOf is the release's signer (nil when it is not signed), the public
// key its signature verifies with, and, for a new pair, how to write it.
func signerOf(r *Release) (sign.Signer, string, savePair, error) {
	switch {
	case r.Signer != nil:
		return r.Signer, "", nil, nil
	case !r.signed():
		return nil, "", nil, nil
	case r.Sign == Keyless: // the CLI's construction: token and service URLs from the environment
		s, err := sigstore.NewSignerFromEnv(sigstore.SignOptions{})
		return s, "", nil, err
	}
	key, err := LoadKey(r.Key, r.Sign)
	if err != nil {
		return nil, "", nil, err
	}
	s, err := keySigner(r.Sign, key, r.Key.ID)
	if err != nil {
		return nil, "", nil, err
	}
	prefix := r.Key.prefix()
	if sign.IsAgentRef(prefix) { // the agent keeps it: keygen --from-ssh-agent writes its public half (see agentNote)
		return s, r.Key.ID + ".pub", nil, nil
	}
	if !r.Key.New {
		return s, prefix + ".pub", nil, nil
	}
	save := func(u *undo) (string, string, error) {
		u.mkdirs([]string{prefix + ".key"})
		if err := atomicfile.MkdirAll(filepath.Dir(prefix), 0o700); err != nil {
			return "", "", werr.Wrap(werr.Env, "key_write_failed", err, "cannot make the folder of %s", prefix+".key")
		}
		keyPath, pubPath, err := sign.WriteKeyPair(prefix, key, r.Key.NewPassphrase, false)
		if werr.CodeOf(err) == "key_exists" { // it refused before writing: the files are someone else's
			return "", "", err
		}
		u.made(prefix + ".key") // a pair half written is removed too
		u.made(prefix + ".pub")
		return keyPath, pubPath, err
	}
	return s, prefix + ".pub", save, nil
}

// agentNote is what to do about a key in the ssh-agent (ref, "ssh-agent:..."):
// write its public half, the file the summary's verify command names.
func agentNote(ref, keyID string) string {
	cmd := Command + " keygen --from-ssh-agent"
	if sel := strings.TrimPrefix(strings.TrimSpace(ref), sign.AgentPrefix); sel != "" {
		cmd += " " + shellWord(sel)
	}
	return "the ssh-agent keeps the signing key; write its public key for the registry: " + cmd + " --out " + shellWord(keyID)
}

// shellWord quotes s for a POSIX shell when it holds more than letters,
// digits and @%+=:,./-_.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// keylessIdentity is who signed a keyless bundle and their issuer, read
// back from the bundle written ("" when it cannot say).
func keylessIdentity(bundlePath string) (id, issuer string) {
	b, err := untrusted.ReadNamed(bundlePath, untrusted.MaxDocument)
	if err != nil {
		return "", ""
	}
	who, err := sigstore.Summarize(b)
	if err != nil {
		return "", ""
	}
	return who.Identity, who.Issuer
}

// errNotAsked is the passphrase source of a look at a key that only asks
// whether it is encrypted.
var errNotAsked = errors.New("not asked")

// KeyEncrypted reports whether the private key file path is encrypted
// (it asks for a passphrase to load); false for a key in the ssh-agent, a
// file that cannot be read or is not a key (the review says why).
func KeyEncrypted(path string) bool {
	if sign.IsAgentRef(path) {
		return false
	}
	asked := false
	_, _ = sign.LoadPrivateKey(path, func() ([]byte, error) { asked = true; return nil, errNotAsked })
	return asked
}

// CheckPassphrase loads the encrypted key file path with passphrase: nil
// when it opens the key, else why not (key_passphrase_wrong for a wrong
// one). The passphrase is neither kept nor said.
func CheckPassphrase(path string, passphrase []byte) error {
	_, err := sign.LoadPrivateKey(path, func() ([]byte, error) { return passphrase, nil })
	return err
}

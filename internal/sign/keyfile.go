package sign

import (
	"bytes"
	"crypto"
	"errors"
	"fmt"
	"github.com/openwop/wopkit/internal/atomicfile"
	"io/fs"
	"os"

	"golang.org/x/term"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// PassphraseEnv is the environment variable read for a key passphrase before
// any terminal prompt.
const PassphraseEnv = "WOPKIT_KEY_PASSPHRASE"

// maxKeyFile bounds what wopkit reads as a key file.
const maxKeyFile = 64 << 10

// WriteKeyPair writes PREFIX.key (PKCS#8 PEM, mode 0600, encrypted when
// passphrase is non-empty) and PREFIX.pub (SPKI PEM, 0644), each atomically.
// It refuses to replace an existing file unless force is set.
func WriteKeyPair(prefix string, key crypto.Signer, passphrase []byte, force bool) (keyPath, pubPath string, err error) {
	keyPath, pubPath = prefix+".key", prefix+".pub"
	if err := KeyPairFree(prefix, force); err != nil {
		return "", "", err
	}
	privPEM, err := MarshalPrivateKeyPEM(key, passphrase)
	if err != nil {
		return "", "", err
	}
	pubPEM, err := MarshalPublicKeyPEM(key.Public())
	if err != nil {
		return "", "", err
	}
	if err := atomicfile.WriteFile(keyPath, privPEM, 0o600); err != nil {
		return "", "", err
	}
	if err := atomicfile.WriteFile(pubPath, pubPEM, 0o644); err != nil {
		return "", "", err
	}
	return keyPath, pubPath, nil
}

// KeyPairFree refuses (key_exists) when PREFIX.key or PREFIX.pub already
// exists and force is not set: keygen checks it before it asks anything.
func KeyPairFree(prefix string, force bool) error {
	if force {
		return nil
	}
	for _, p := range []string{prefix + ".key", prefix + ".pub"} {
		if _, err := os.Lstat(p); err == nil {
			return werr.New(werr.Invalid, "key_exists", "%s already exists; nothing was asked or written", p).
				WithHint("choose another --out prefix, or pass --force to replace it")
		}
	}
	return nil
}

// WritePublicKey writes pub to path as SPKI PEM (0644), atomically, the
// form a registry keychain publishes (keys/<keyId>.pub). It refuses to
// replace an existing file unless force is set.
func WritePublicKey(path string, pub crypto.PublicKey, force bool) error {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return werr.New(werr.Invalid, "key_exists", "%s already exists", path).
				WithHint("choose another --out prefix, or pass --force to replace it")
		}
	}
	pubPEM, err := MarshalPublicKeyPEM(pub)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, pubPEM, 0o644)
}

// LoadPrivateKey opens the signing key a --key names: a key in the
// ssh-agent when path starts with "ssh-agent:" (see OpenAgentKey; the
// private key stays in the agent), else a private key file, whose
// passphrase pass is asked for only when the key is encrypted.
func LoadPrivateKey(path string, pass PassphraseFunc) (crypto.Signer, error) {
	if IsAgentRef(path) {
		return OpenAgentKey(path)
	}
	data, err := readSmall(path)
	if err != nil {
		return nil, err
	}
	return ParsePrivateKeyPEM(data, path, pass)
}

// LoadPublicKey reads an SPKI PEM public key file.
func LoadPublicKey(path string) (crypto.PublicKey, error) {
	data, err := readSmall(path)
	if err != nil {
		return nil, err
	}
	return ParsePublicKeyPEM(data, path)
}

func readSmall(path string) ([]byte, error) {
	return readSmallMax(path, maxKeyFile, "key", "key_invalid")
}

// readSmallMax reads a file the user named (a key or a signature): regular
// (never blocks on a named pipe), at most max bytes.
func readSmallMax(path string, max int64, what, tooLargeCode string) ([]byte, error) {
	data, err := untrusted.ReadNamed(path, max)
	switch code := werr.CodeOf(err); {
	case err == nil:
		return data, nil
	case code == untrusted.CodeTooLarge:
		return nil, werr.New(werr.Invalid, tooLargeCode, "%s is larger than %d bytes, not a %s file", path, max, what)
	case code != "":
		return nil, err
	}
	if what == "key" && errors.Is(err, fs.ErrNotExist) { // said in words, not as the system call that failed
		return nil, werr.New(werr.Env, "key_unreadable", "the key file %s does not exist", path).
			WithHint("check the path given to --key; wopkit keygen --out NAME writes NAME.key and NAME.pub")
	}
	if what == "key" {
		return nil, werr.Wrap(werr.Env, "key_unreadable", err, "cannot read key %s", path).
			WithHint("check the path given to --key")
	}
	return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s %s", what, path).
		WithHint("check the path")
}

// ReadSecret reads one line typed on a terminal without echo, after
// printing prompt.
type ReadSecret func(prompt string) ([]byte, error)

// TerminalSecret returns a ReadSecret on the process's terminal (stdin,
// prompts on stderr), or nil when stdin is not a terminal.
func TerminalSecret() ReadSecret {
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return nil
	}
	return func(p string) ([]byte, error) {
		fmt.Fprint(os.Stderr, p)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(os.Stderr)
		if err != nil {
			return nil, werr.Wrap(werr.Env, "key_passphrase_unavailable", err, "cannot read the passphrase from the terminal")
		}
		return b, nil
	}
}

// AskNewPassphrase asks read for the passphrase of a new key, as cosign
// does: typed twice, the two must match. An empty first answer is no
// passphrase (nil, not asked again): the key is then written unencrypted.
func AskNewPassphrase(read ReadSecret) ([]byte, error) {
	pw, err := read("Passphrase for the new key (empty for none): ")
	if err != nil || len(pw) == 0 {
		return nil, err
	}
	again, err := read("Repeat the passphrase: ")
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(pw, again) {
		return nil, werr.New(werr.Invalid, "key_passphrase_mismatch", "the two passphrases differ; no key was written").
			WithHint("run the command again and type the same passphrase twice")
	}
	return pw, nil
}

// Passphrase returns a PassphraseFunc that reads WOPKIT_KEY_PASSPHRASE, or
// else prompts on the terminal without echo (twice when confirm is set). It
// fails with an environment error when neither is available. The
// passphrase is never printed.
func Passphrase(prompt string, confirm bool) PassphraseFunc {
	return func() ([]byte, error) {
		if v, ok := os.LookupEnv(PassphraseEnv); ok {
			return []byte(v), nil
		}
		read := TerminalSecret()
		if read == nil {
			return nil, werr.New(werr.Env, "key_passphrase_unavailable", "a key passphrase is needed and stdin is not a terminal").
				WithHint("set %s", PassphraseEnv)
		}
		pw, err := read(prompt + ": ")
		if err != nil {
			return nil, err
		}
		if confirm {
			again, err := read("Repeat " + prompt + ": ")
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(pw, again) {
				return nil, werr.New(werr.Invalid, "key_passphrase_mismatch", "the two passphrases differ").
					WithHint("run the command again and type the same passphrase twice")
			}
		}
		return pw, nil
	}
}

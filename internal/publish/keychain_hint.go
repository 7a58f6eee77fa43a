package publish

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// maxPubGuesses bounds the .pub files read to guess which one signed a
// pack whose key the keychain lacks.
const maxPubGuesses = 32

// unknownKey gives a key_unknown refusal the command that onboards the
// key: `wopkit keychain add` with the registry, the key id, the public key
// (a .pub beside the tarball or in the working directory that verifies
// the tarball's embedded signature, else a placeholder) and the pack's
// namespace. Any other error is returned as it is.
func unknownKey(err error, registryDir, keyID, name, tgzPath string, a *tarball.Archive) error {
	var we *werr.Error
	if !errors.As(err, &we) || we.Code != "key_unknown" || keyID == "" {
		return err
	}
	pub := guessPublicKey(keyID, tgzPath, a)
	if pub == "" {
		pub = "PUB"
	}
	cmd := "wopkit keychain add --registry " + shellWord(registryDir) + " --key-id " + shellWord(keyID) +
		" --public-key " + shellWord(pub) + " --namespace " + shellWord(NamespaceGlob(name))
	hint := "a key gets into a registry's keychain through its onboarding pull request: " + cmd
	if pub == "PUB" {
		hint += " (PUB: the .pub of the key you signed with)"
	}
	return we.WithHint("%s; then commit keys/%s.pub and .well-known/openwop-registry.json and open the pull request (or, if the id is wrong, sign again with the key id the registry lists: `wopkit keychain list --registry %s`)",
		hint, keyID, shellWord(registryDir))
}

// NamespaceGlob is the namespace a publisher claims for pack name: the
// tier and org, vendor.acme.* for vendor.acme.hello; a name of fewer than
// three segments is its own namespace.
func NamespaceGlob(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 {
		return name
	}
	return parts[0] + "." + parts[1] + ".*"
}

// guessPublicKey returns the .pub that verifies the tarball's embedded
// signature over its pack.json: <keyId>.pub first, then any *.pub, beside
// the tarball and in the working directory; "" when none does (or there
// is no embedded signature: then <keyId>.pub beside the tarball or in the
// working directory, when one exists). Each file is read through the
// untrusted layer (regular, bounded).
func guessPublicKey(keyID, tgzPath string, a *tarball.Archive) string {
	var dirs []string
	if tgzPath != "" {
		dirs = append(dirs, filepath.Dir(tgzPath))
	}
	if wd, err := os.Getwd(); err == nil && (len(dirs) == 0 || !sameDir(dirs[0], wd)) {
		dirs = append(dirs, ".")
	}
	var cands []string
	for _, d := range dirs {
		cands = append(cands, filepath.Join(d, keyID+".pub"))
	}
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "*.pub"))
		cands = append(cands, m...)
	}
	var packJSON, sig []byte
	if a != nil {
		if f := a.Get(tarball.ManifestName); f != nil {
			packJSON = f.Data
		}
		if f := a.Get(sign.SignatureFile); f != nil {
			sig = f.Data
		}
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if seen[c] || len(seen) >= maxPubGuesses {
			continue
		}
		seen[c] = true
		data, err := untrusted.ReadNamed(c, untrusted.MaxKey)
		if err != nil {
			continue
		}
		if packJSON == nil || sig == nil {
			if strings.EqualFold(filepath.Base(c), keyID+".pub") {
				return c
			}
			continue
		}
		k, err := sign.ParsePublicKeyPEM(data, c)
		if pub, ok := k.(ed25519.PublicKey); err == nil && ok && len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, packJSON, sig) {
			return c
		}
	}
	return ""
}

func sameDir(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

var plainWord = lazyre.New(`^[A-Za-z0-9_./:@=+,-]+$`)

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

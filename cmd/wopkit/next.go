package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/scaffold"
)

// The next steps the road from `wopkit new` to a merged pull request
// prints, each a command that runs as printed from the folder the author
// is in: new --yes → keygen → keychain add → pack --sign → publish → the
// pull request's branch, commit and checks.

// registryPath is the registry checkout the next steps name: the one
// WOPKIT_REGISTRY names, else ../openwop-registry (where the README clones
// it).
func registryPath() string {
	if r := os.Getenv(registryEnv); r != "" {
		return r
	}
	return "../openwop-registry"
}

// orgOf is the organisation of a pack name (acme in vendor.acme.hello),
// the namespace a key signs.
func orgOf(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[1]
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// newPackNext is the step after `new pack --yes`: the signing key, named
// after the pack's organisation (none when the name has none).
func newPackNext(plan *scaffold.Plan) string {
	for _, f := range plan.Files {
		if f.Path != "pack.json" {
			continue
		}
		var m struct{ Name string }
		if json.Unmarshal(f.Data, &m) != nil {
			return ""
		}
		if org := orgOf(m.Name); org != "" {
			return "make your signing key (skip it if you have one): wopkit keygen --out " + shellWord(org)
		}
	}
	return ""
}

// keygenNext is the step after keygen: the key's onboarding pull request.
func keygenNext(prefix string) string {
	base := filepath.Base(prefix)
	return "put the key in the registry's keychain (its onboarding pull request): wopkit keychain add --registry " +
		shellWord(registryPath()) + " --key-id " + shellWord(base+"-1") + " --public-key " + shellWord(prefix+".pub") +
		" --namespace " + shellWord("vendor."+base+".*")
}

// keychainNext is the step after keychain add: signing a pack with the
// key, in the pack's folder (the private key named by its whole path).
func keychainNext(pubPath, keyID string) string {
	key := strings.TrimSuffix(pubPath, ".pub") + ".key"
	if abs, err := filepath.Abs(key); err == nil {
		key = abs
	}
	if _, err := os.Stat(key); err != nil {
		key = "KEY"
	}
	return "in your pack's folder, pack and sign it with this key: wopkit pack --sign v2 --key " + shellWord(key) + " --key-id " + shellWord(keyID)
}

// packNext is the step after a signed pack: publishing it.
func packNext(tgz string) string {
	return "publish it into your registry checkout: wopkit publish " + shellWord(tgz) + " --registry " + shellWord(registryPath())
}

package registry

import (
	"crypto"
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// The key statuses a registry's keychain uses (spec v2 NOTES, "keys"; the
// registry's check-published-immutable.mjs and its key rotation steps): a
// new key is active; a rotated key keeps verifying what it signed but signs
// nothing new; a revoked or compromised key is no longer trusted. A
// keychain entry without a status is active, as the registry's
// namespace-authority check reads it. Any other value is not a status the
// registry defines, and a verifier does not guess what it means.
const (
	StatusActive      = "active"
	StatusRotated     = "rotated"
	StatusRevoked     = "revoked"
	StatusCompromised = "compromised"
)

// KeysDir is the folder of a registry root holding its public keys, one
// <keyId>.pub (SPKI PEM) per keychain entry.
const KeysDir = "keys"

// KeyPath is the file, relative to the root, where the public key of
// keychain entry id lives: keys/<id>.pub, the path the registry's
// verify-signatures.mjs and check-pack-tarball-signatures.mjs load. It is
// "" when id cannot name a file in keys/ (empty, a dot name, or holding a
// slash, a backslash or NUL).
func KeyPath(id string) string {
	if !safeSegment(id) {
		return ""
	}
	return path.Join(KeysDir, id+".pub")
}

// Key returns the keychain entry with id (the first one, as the registry's
// scripts find it), its public key loaded from keys/<id>.pub in the root
// through the untrusted layer; publicKeyUrl is not followed. An id the
// keychain does not list fails with key_unknown, an id that cannot name a
// key file with key_id_invalid.
func (r *Root) Key(id string) (*Key, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k, ok := r.loaded[id]; ok {
		return k, nil
	}
	for _, e := range r.Keys {
		if e.KeyID != id {
			continue
		}
		rel := KeyPath(id)
		if rel == "" {
			return nil, werr.New(werr.Invalid, "key_id_invalid", "key id %q in the keychain of registry %s cannot name a key file", id, r.Dir).
				WithHint("a key id is one path segment (no slash, backslash or NUL; not . or ..): its public key is keys/<keyId>.pub")
		}
		pub, err := r.loadKeyFile(rel)
		if err != nil {
			return nil, err
		}
		k := &Key{KeyEntry: e, Public: pub, Path: r.dir.Join(rel)}
		r.loaded[id] = k
		return k, nil
	}
	return nil, werr.New(werr.Invalid, "key_unknown", "key %q is not in the keychain of registry %s", id, r.Dir).
		WithHint("the pack was signed with a key this registry does not publish; check the signing block's key id")
}

// loadKeyFile parses the SPKI PEM public key at rel inside the root, read
// through the untrusted layer (a regular file inside the root, at most
// untrusted.MaxKey bytes).
func (r *Root) loadKeyFile(rel string) (crypto.PublicKey, error) {
	if r.dir == nil {
		return nil, werr.New(werr.Env, "registry_unreadable", "registry %s is not open", r.Dir)
	}
	data, err := r.dir.ReadFile(rel, untrusted.MaxKey)
	if err != nil {
		if werr.CodeOf(err) != "" {
			return nil, err
		}
		return nil, werr.Wrap(werr.Env, "key_unreadable", err, "cannot read key %s", r.dir.Join(rel)).
			WithHint("a registry publishes the public key of keychain entry <keyId> at keys/<keyId>.pub")
	}
	return sign.ParsePublicKeyPEM(data, r.dir.Join(rel))
}

// Permits reports whether the key may sign packs named name.
func (k *Key) Permits(name string) bool {
	for _, g := range k.PermittedNamespaces {
		if NamespaceMatch(g, name) {
			return true
		}
	}
	return false
}

// NamespaceMatch applies a permittedNamespaces glob: "x.*" matches every name
// that starts with "x.", any other glob matches only itself.
func NamespaceMatch(glob, name string) bool {
	if prefix, ok := strings.CutSuffix(glob, "*"); ok {
		return strings.HasSuffix(prefix, ".") && strings.HasPrefix(name, prefix) && len(name) > len(prefix)
	}
	return glob == name
}

// KeyFor returns the keychain entry whose public key is pub, or nil when
// the keychain holds no such key (keys that cannot be loaded are skipped).
func (r *Root) KeyFor(pub crypto.PublicKey) *Key {
	type equaler interface{ Equal(crypto.PublicKey) bool }
	e, ok := pub.(equaler)
	if !ok {
		return nil
	}
	for _, ent := range r.Keys {
		k, err := r.Key(ent.KeyID)
		if err == nil && e.Equal(k.Public) {
			return k
		}
	}
	return nil
}

package verify

import (
	"bytes"
	"context"
	"crypto"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// packMeta is what verification reads from the in-tarball pack.json.
type packMeta struct {
	Name    string            `json:"name"`
	Version string            `json:"version"`
	Signing *registry.Signing `json:"signing"`
}

func parsePackJSON(data []byte, where string) (*packMeta, error) {
	var pm packMeta
	if err := registry.DecodeTop(data, &pm); err != nil {
		return nil, manifestUnreadable(err, where)
	}
	if pm.Name == "" || pm.Version == "" {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "pack.json in %s has no name or version", where)
	}
	return &pm, nil
}

// manifestUnreadable is the error for a pack.json DecodeTop refused: not
// JSON, or JSON that the registry's scripts (JSON.parse) would read
// otherwise, such as a member named twice in any letter case.
func manifestUnreadable(err error, where string) error {
	return werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json in %s cannot be read as the registry reads it", where).
		WithHint("pack.json must be one JSON object naming each member once (in any letter case); repack it with `wopkit pack`")
}

// schemeInfo is the signing scheme a tarball uses and the key it names.
type schemeInfo struct {
	method string
	keyID  string
	sigRef string // in-tarball signature path (manual, v2)
}

// scheme reads the signing block of pack.json; a pack.json without one is a
// legacy "ed25519" pack when the registry's version manifest says so (or,
// without a registry, when a key and a detached signature are given).
func scheme(pm *packMeta, vm *registry.VersionManifest, detached []byte, p Policy, where string) (schemeInfo, error) {
	unsupported := func(what string) (schemeInfo, error) {
		return schemeInfo{}, werr.New(werr.Invalid, "signing_unsupported", "%s: pack.json's signing block has %s", where, what).
			WithHint("wopkit verifies manual, ed25519 (legacy), ed25519-canonical-json (v2) and sigstore")
	}
	var s schemeInfo
	switch b := pm.Signing; {
	case b == nil:
		switch {
		case vm != nil && vm.Signing.Method == sign.MethodLegacy:
			s = schemeInfo{method: sign.MethodLegacy, keyID: vm.Signing.KeyID}
		case vm == nil && p.Key != nil && detached != nil:
			s = schemeInfo{method: sign.MethodLegacy}
		default:
			return s, werr.New(werr.Invalid, "signature_missing", "pack.json in %s has no signing block", where).
				WithHint("sign the pack with `wopkit sign --sign manual|v2 --key KEY --key-id ID`")
		}
	case b.Scheme == sign.SchemeV2:
		s = schemeInfo{method: sign.MethodV2, keyID: b.KeyID, sigRef: sign.SignatureFile}
	case b.Scheme != "":
		return unsupported("scheme " + b.Scheme)
	case b.Method == sign.MethodManual:
		s = schemeInfo{method: sign.MethodManual, keyID: keyIDOf(b.PublicKeyRef), sigRef: b.SignatureRef}
	case b.Method == sign.MethodSigstore:
		s = schemeInfo{method: sign.MethodSigstore, keyID: b.KeyID}
	case b.Method == sign.MethodLegacy:
		s = schemeInfo{method: sign.MethodLegacy, keyID: b.KeyID}
	default:
		return unsupported("method " + b.Method)
	}
	if s.sigRef == "" {
		s.sigRef = sign.SignatureFile
	} else if p, err := packref.Path(s.sigRef); err != nil || p == "" {
		// The one definition of a pack file reference (internal/packref):
		// an unclean or outside signatureRef is refused, not replaced.
		why := "is a URL"
		if err != nil {
			why = err.Error()
		}
		return s, werr.New(werr.Invalid, "pack_ref_invalid", "%s: signing.signatureRef %s", where, why).
			WithHint("the signature file is a clean path inside the tarball, such as keys/pack.json.sig")
	} else {
		s.sigRef = p
	}
	if vm != nil {
		if rec := methodOf(vm.Signing); rec != "" && rec != s.method {
			return s, werr.New(werr.Invalid, "pack_signing_mismatch", "%s is signed %s, the registry's %s records %s", where, s.method, vm.Path, rec).
				WithHint("the tarball is not the one the registry published in its %s tree", vm.Tree)
		}
	}
	if vm != nil && s.method != sign.MethodSigstore {
		want := vm.Signing.KeyID
		if want == "" {
			want = keyIDOf(vm.Signing.PublicKeyRef)
		}
		if want != "" && s.keyID != "" && want != s.keyID {
			return s, werr.New(werr.Invalid, "pack_signing_mismatch", "%s names key %q, the registry's %s names %q", where, s.keyID, vm.Path, want).
				WithHint("the tarball is not the one the registry published")
		}
		if s.keyID == "" {
			s.keyID = want
		}
	}
	return s, nil
}

// keyIDOf accepts publicKeyRef as a key id or as a tarball path to a key
// ("keys/<id>.pub"), as the schema text describes it.
func keyIDOf(ref string) string {
	if !strings.Contains(ref, "/") {
		return ref
	}
	b := path.Base(ref)
	for _, ext := range []string{".pub.pem", ".pub", ".pem"} {
		if s, ok := strings.CutSuffix(b, ext); ok {
			return s
		}
	}
	return b
}

// methodOf names the signing method a registry's signing block records
// (v2's scheme as sign.MethodV2), or "" when it records none.
func methodOf(b registry.Signing) string {
	if b.Scheme == sign.SchemeV2 {
		return sign.MethodV2
	}
	if b.Scheme != "" {
		return b.Scheme
	}
	return b.Method
}

// treesFor is the order in which the registry's trees are searched for the
// version manifest: a v2 signature was published in the v2 tree, anything
// else (manual, legacy, sigstore) in the frozen v1 tree.
func treesFor(pm *packMeta) []string {
	if pm.Signing != nil && pm.Signing.Scheme != "" {
		return []string{registry.TreeV2, registry.TreeV1}
	}
	return []string{registry.TreeV1, registry.TreeV2}
}

// pathAgrees refuses a tarball kept at a registry path
// (.../<name>/-/<version>.tgz) that holds another pack or version: the
// path is a claim of identity like the version manifest's.
func pathAgrees(p string, pm *packMeta) error {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
	n := len(parts)
	if n < 3 || parts[n-2] != "-" || !strings.HasSuffix(parts[n-1], ".tgz") {
		return nil
	}
	name, version := parts[n-3], strings.TrimSuffix(parts[n-1], ".tgz")
	if name == pm.Name && version == pm.Version {
		return nil
	}
	return werr.New(werr.Invalid, "pack_identity_mismatch", "%s sits where %s@%s is published, but its pack.json is %s@%s", p, name, version, pm.Name, pm.Version).
		WithHint("a tarball was put under another release's path: do not trust it")
}

// trustedKey is the public key the policy trusts for the scheme's key id:
// the caller's Key, else the registry keychain's. With a registry, the key
// whose namespaces and status are checked is the key that verifies: a --key
// must be a keychain key, and the very one the signing block names.
func trustedKey(s schemeInfo, name string, p Policy, r *Result) (crypto.PublicKey, error) {
	where := r.Path
	if s.method == sign.MethodSigstore {
		return nil, nil
	}
	if p.Registry == nil {
		if p.Key == nil {
			return nil, werr.New(werr.Usage, "verify_no_trust", "nothing to verify %s against", where).
				WithHint("give --key PUB or --registry DIR")
		}
		return p.Key, nil
	}
	var k *registry.Key
	if p.Key != nil {
		if k = p.Registry.KeyFor(p.Key); k == nil {
			return nil, werr.New(werr.Invalid, "key_unknown", "the --key given is not in the keychain of registry %s", p.Registry.Dir).
				WithHint("with --registry the verifying key must be one the registry publishes (its namespaces are checked); drop --registry to trust --key alone")
		}
		if s.keyID != "" && k.KeyID != s.keyID {
			return nil, werr.New(werr.Invalid, "pack_key_mismatch", "%s names key %q, but --key is the registry's key %q", where, s.keyID, k.KeyID).
				WithHint("the namespace grant checked is the one of the key that verifies: the signing block must name that key")
		}
	} else {
		if s.keyID == "" {
			return nil, werr.New(werr.Invalid, "key_unknown", "%s names no signing key", where).
				WithHint("the signing block needs a key id (publicKeyRef or keyId)")
		}
		var err error
		if k, err = p.Registry.Key(s.keyID); err != nil {
			return nil, keyFileMissing(err, p.Registry.Dir, s.keyID, where)
		}
	}
	if err := keyStatus(k, p.Registry.Dir, r); err != nil {
		return nil, err
	}
	if !k.Permits(name) {
		return nil, werr.New(werr.Invalid, "pack_namespace_unauthorized", "key %q may not sign %s (it is granted %s)", k.KeyID, name, strings.Join(k.PermittedNamespaces, ", ")).
			WithHint("the registry refuses packs signed outside the key's namespaces; sign with the namespace's key")
	}
	return k.Public, nil
}

// keyFileMissing turns the registry's failure to find keys/<id>.pub, for
// a key its keychain lists, into an error that says so: the registry root
// (or the checkout's registry/) lacks the file. Other failures are err.
func keyFileMissing(err error, reg, id, where string) error {
	if !errors.Is(err, fs.ErrNotExist) || werr.CodeOf(err) != "key_unreadable" {
		return err
	}
	rel := registry.KeyPath(id)
	return werr.New(werr.Env, "key_unreadable", "registry %s lacks %s, the public key of keychain entry %q named as the signer of %s", reg, rel, id, where).
		WithHint("the keychain (%s) lists the key but %s/ does not hold its file: update or complete the registry checkout", registry.WellKnown, registry.KeysDir)
}

// keyStatus applies the keychain status of the key that verifies: active
// (or no status, as the registry reads it) passes; rotated passes with a
// note; revoked and compromised are refused with key_revoked; any other
// value, a status the registry does not define ("Revoked", "revoked ",
// "expired"), is refused with key_status_unknown rather than guessed at.
func keyStatus(k *registry.Key, reg string, r *Result) error {
	r.KeyStatus = k.Status
	switch k.Status {
	case "", registry.StatusActive:
		r.KeyStatus = registry.StatusActive
	case registry.StatusRotated:
		r.Notes = append(r.Notes, fmt.Sprintf("key %q is %s in the registry's keychain: it still verifies what it signed, but only an active key may sign a new version", k.KeyID, k.Status))
	case registry.StatusRevoked, registry.StatusCompromised:
		return werr.New(werr.Invalid, "key_revoked", "key %q is %s in the keychain of registry %s", k.KeyID, k.Status, reg).
			WithHint("packs signed with it are no longer trusted: get a version signed with the namespace's current key")
	default:
		return werr.New(werr.Invalid, "key_status_unknown", "key %q has status %q in the keychain of registry %s, which is not a key status the registry defines", k.KeyID, k.Status, reg).
			WithHint("a keychain status is exactly one of %s, %s, %s or %s (lower case, no spaces); wopkit trusts no key whose status it cannot read: ask the registry to fix its keychain",
				registry.StatusActive, registry.StatusRotated, registry.StatusRevoked, registry.StatusCompromised)
	}
	return nil
}

// indexAgrees reads the pack's index in the tree the version was found in:
// its row for the version must agree with the version manifest (integrity,
// signing key); its lifecycle flags add to the manifest's; the pack-level
// deprecation and latest version are reported.
func indexAgrees(reg *registry.Root, vm *registry.VersionManifest, s schemeInfo, r *Result) error {
	idx, err := reg.Listing(vm.Tree, vm.Name, vm.Version)
	if err != nil {
		return err
	}
	if idx == nil {
		// No index at all is said as an index without the version is: the
		// tree's indexes are not built yet, and nothing of them is checked.
		// (An index the discovery document places outside the root is not
		// read, and not reported.)
		if p := reg.Local(vm.Tree, "packMetadata", vm.Name, ""); p != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("the registry has no %s yet (its indexes are rebuilt from the tree): the pack's index row, deprecation and latest version are not checked", p))
		}
		return nil
	}
	r.Latest = idx.Latest
	r.PackDeprecated, r.PackDeprecation = idx.Deprecated.Set, idx.Deprecated.Message
	if r.PackDeprecated {
		why := ""
		if r.PackDeprecation != "" {
			why = ": " + r.PackDeprecation
		}
		r.Notes = append(r.Notes, "the registry deprecates the pack "+vm.Name+" as a whole"+why)
	}
	if r.Latest != "" && r.Latest != vm.Version {
		r.Notes = append(r.Notes, fmt.Sprintf("the registry's latest version of %s is %s", vm.Name, r.Latest))
	}
	row := idx.Row
	if idx.Rows > 1 {
		return werr.New(werr.Invalid, "registry_inconsistent", "the registry's %s lists %s@%s %d times", idx.Path, vm.Name, vm.Version, idx.Rows).
			WithHint("an index lists each version once; the registry's scripts and wopkit could read different rows: rebuild its indexes before trusting it")
	}
	if row == nil {
		r.Notes = append(r.Notes, fmt.Sprintf("the registry's %s does not list %s yet (its indexes are rebuilt from the tree)", idx.Path, vm.Version))
		return nil
	}
	if row.Integrity != "" && row.Integrity != vm.Integrity {
		return werr.New(werr.Invalid, "registry_inconsistent", "the registry's %s lists %s@%s with integrity %s, its %s says %s", idx.Path, vm.Name, vm.Version, row.Integrity, vm.Path, vm.Integrity).
			WithHint("the registry's index and version manifest disagree: rebuild its indexes (wopkit publish, or the registry's build-index) before trusting either")
	}
	if row.SigningKeyID != "" && s.keyID != "" && row.SigningKeyID != s.keyID && s.method != sign.MethodSigstore {
		return werr.New(werr.Invalid, "pack_signing_mismatch", "the registry's %s records key %q for %s@%s, the tarball names %q", idx.Path, row.SigningKeyID, vm.Name, vm.Version, s.keyID).
			WithHint("the tarball is not the one the registry published")
	}
	if row.Yanked {
		r.Yanked = true
	}
	if row.VersionDeprecated || row.Deprecated.Set {
		r.Deprecated = true
	}
	return nil
}

// verifyPackJSON checks a manual or v2 signature over the in-tarball
// pack.json, taking the detached signature when there is one and the
// embedded one otherwise; two different signatures are refused.
func verifyPackJSON(s schemeInfo, key crypto.PublicKey, a *tarball.Archive, pj, detached []byte, r *Result) error {
	if s.method == sign.MethodV2 {
		c, err := jcs.Canonicalize(pj, jcs.Options{Strict: true})
		if err != nil || !bytes.Equal(c, pj) {
			e := werr.New(werr.Invalid, "pack_not_canonical", "pack.json in %s is not in strict canonical (JCS) form", r.Path).
				WithHint("v2 signs the JCS form: repack with `wopkit sign`")
			e.Err = err
			return e
		}
	}
	var embedded []byte
	if f := a.Get(s.sigRef); f != nil {
		embedded = f.Data
	}
	sig := detached
	switch {
	case detached != nil && embedded != nil && !bytes.Equal(detached, embedded):
		return werr.New(werr.Invalid, "signature_conflict", "the detached signature %s differs from %s inside %s", r.Signature, s.sigRef, r.Path).
			WithHint("one of them was replaced: get both from the publisher again")
	case sig == nil:
		sig = embedded
		if sig != nil {
			r.Signature = r.Path + "!" + s.sigRef
		}
	}
	if sig == nil {
		return werr.New(werr.Invalid, "signature_missing", "%s has no %s and no detached .sig", r.Path, s.sigRef).
			WithHint("pass --sig FILE, or verify the tarball as published (with its .sig beside it)")
	}
	return sign.VerifyEd25519(key, pj, sig, r.Path+"!pack.json")
}

func verifySigstore(ctx context.Context, a *tarball.Archive, pj []byte, p Policy, r *Result) error {
	if p.Bundles == nil {
		if p.Key != nil {
			return werr.New(werr.Usage, "sigstore_options_missing", "%s is signed with sigstore, and the --key given is an %s key, which cannot have made a Sigstore bundle", r.Path, sign.AlgorithmOf(p.Key)).
				WithHint("pass the ECDSA P-256 public key that signed it (wopkit keygen --algorithm ecdsa-p256), or --certificate-identity and --certificate-oidc-issuer for a keyless bundle")
		}
		return werr.New(werr.Usage, "sigstore_options_missing", "%s is signed with sigstore and no sigstore verification options were given", r.Path).
			WithHint("pass --trusted-root and --certificate-identity/--certificate-oidc-issuer (or their -regexp forms), or --key for a keyed bundle")
	}
	f := a.Get(sign.SigstoreFile)
	if f == nil {
		return werr.New(werr.Invalid, "signature_missing", "%s is signed with sigstore and has no %s", r.Path, sign.SigstoreFile)
	}
	id, err := p.Bundles.VerifyBundle(ctx, f.Data, pj)
	if err != nil {
		return err
	}
	r.Signer = id
	r.Signature = r.Path + "!" + sign.SigstoreFile
	return nil
}

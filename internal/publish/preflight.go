package publish

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Gate is one publish gate a pack fails before it is a signed release:
// publish's refusal code, the member of pack.json it is about ("" for the
// pack), what is wrong and what to do.
type Gate struct {
	Code    string
	Pointer string
	Message string
	Hint    string
}

// PreflightOptions are the inputs of Preflight.
type PreflightOptions struct {
	Registry string // registry checkout or root
	PackJSON []byte // the pack's pack.json
	// Archive is the pack's tarball, when the pack is one (nil for a
	// folder): the embedded-signature gate reads it. Tgz is its bytes, to
	// tell the same release published again from another one.
	Archive *tarball.Archive
	Tgz     []byte
	Where   string // the pack as named, for messages
}

// Preflight runs the publish gates that do not need the signed release on
// a pack that may not be packed or signed yet (`validate --for-registry
// --registry DIR`), in the tree its spec version goes to (v2; the frozen
// v1 tree for a v1 pack): the version manifest it will make against the
// registry's schema of the tree, the namespace authority and status of the
// key its signing block names (or, unsigned, that some active key may sign
// its namespace), the security advisories, immutability (the version
// already published with other bytes, or not greater than the latest),
// and for a tarball the embedded signature. The dangling allowlist entries
// are OW020 with Catalog's typeIds. Nothing is written.
func Preflight(o PreflightOptions) ([]Gate, error) {
	doc, err := jsondoc.Parse(o.PackJSON)
	if err != nil {
		return nil, nil // validate reports it
	}
	spec := SpecV2
	if sp, _ := kinds.DetectSpec(doc.Root); sp != kinds.V2 {
		spec = SpecV1
	}
	t, err := openTree(o.Registry, spec, true)
	if err != nil {
		return nil, err
	}
	v, err := jsjson.Parse(o.PackJSON, o.Where)
	if err != nil {
		return nil, nil
	}
	pm, ok := v.(*jsjson.Obj)
	if !ok {
		return nil, nil
	}
	name, _ := jsjson.Str(jsjson.Field(pm, "name"))
	version, _ := jsjson.Str(jsjson.Field(pm, "version"))
	if !safeName(name) || version == "" {
		return nil, nil // the schema and OW rules report them
	}
	var gates []Gate
	add := func(err error, ptr string) {
		var we *werr.Error
		if errors.As(err, &we) {
			gates = append(gates, Gate{Code: we.Code, Pointer: ptr, Message: we.Msg, Hint: we.Hint})
		}
	}
	add(checkVersionManifest(preflightManifest(t, pm, name, version), name+"@"+version, spec), "")
	add(checkAdvisories(t, name, version), "/version")
	add(checkImmutable(t, name, version, o.Tgz), "/version")
	add(checkSigner(t, pm, name, spec), "/signing")
	if o.Archive != nil && jsjson.Field(pm, "signing") != nil {
		add(checkEmbeddedSignature(o.Archive, pm, o.Where, spec), "/signing")
	}
	return gates, nil
}

// preflightManifest is the version manifest publish would write for pm,
// with placeholders for what signing and publishing add.
func preflightManifest(t *Tree, pm *jsjson.Obj, name, version string) *jsjson.Obj {
	m := jsjson.Clone(pm).(*jsjson.Obj)
	if jsjson.Field(m, "signing") == nil {
		if t.Spec == SpecV1 {
			m.Set("signing", jsjson.NewObj().Set("method", sign.MethodManual).Set("publicKeyRef", "preflight").Set("signatureRef", sign.SignatureFile))
		} else {
			m.Set("signing", jsjson.NewObj().Set("keyId", "preflight").Set("scheme", sign.SchemeV2))
		}
	}
	m.Delete("integrity")
	if t.Spec == SpecV1 {
		m.Set("publishedAt", "2026-01-01T00:00:00Z")
		m.Set("tarballUrl", t.URL("versionTarball", name, version))
		m.Set("signatureUrl", t.URL("versionSignature", name, version))
	}
	m.Set("integrity", "sha256-"+base64.StdEncoding.EncodeToString(make([]byte, 32)))
	return m
}

// checkImmutable refuses a version the tree holds already (unless tgz is
// the same release) or one not greater than the latest (publish
// --allow-older takes that one).
func checkImmutable(t *Tree, name, version string, tgz []byte) error {
	versions, err := t.versionsOf(name)
	if err != nil {
		return err
	}
	if slices.Contains(versions, version) {
		old, ok, err := t.read(t.VersionFile(name, version, ".tgz"))
		if err == nil && ok && tgz != nil && string(old) == string(tgz) {
			return nil // the same release: publish repairs or does nothing
		}
		return werr.New(werr.Invalid, "version_conflict", "%s@%s is already published in %s: published releases are immutable", name, version, t.abs(t.versionsDir(name))).
			WithHint("bump the version in pack.json")
	}
	if same := samePrecedence(version, versions); same != "" {
		return werr.New(werr.Invalid, "version_conflict", "%s@%s has the same precedence as the published version %s (SemVer ignores build metadata)", name, version, same).
			WithHint("bump the version in pack.json")
	}
	if latest := highest(versions); latest != "" && CompareVersions(version, latest) <= 0 {
		return werr.New(werr.Invalid, "version_not_greater", "%s@%s is not greater than the latest published version %s", name, version, latest).
			WithHint("bump the version, or publish with --allow-older for a maintenance release of an older line")
	}
	return nil
}

// checkSigner checks the key the signing block names as publish will: it
// must be in the keychain, active, and granted the pack's namespace. An
// unsigned pack needs some active key that may sign its namespace.
func checkSigner(t *Tree, pm *jsjson.Obj, name, spec string) error {
	root, err := registry.Open(t.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	signing := jsjson.Field(pm, "signing")
	keyID, _ := jsjson.Str(jsjson.Field(signing, "keyId"))
	if spec == SpecV1 || keyID == "" {
		if ref, _ := jsjson.Str(jsjson.Field(signing, "publicKeyRef")); ref != "" {
			keyID = ref
		}
	}
	if keyID == "" {
		for _, k := range root.Keys {
			if k.Status == "active" && slices.ContainsFunc(k.PermittedNamespaces, func(g string) bool { return registry.NamespaceMatch(g, name) }) {
				return nil
			}
		}
		return werr.New(werr.Invalid, "pack_namespace_unauthorized", "no active key in the keychain of %s may sign %s", t.Root, name).
			WithHint("ask the registry to grant a key of yours this namespace (permittedNamespaces), or choose a name in a namespace you hold")
	}
	k, err := root.Key(keyID)
	if err != nil {
		return unknownKey(err, t.Root, keyID, name, "", nil)
	}
	if k.Status != "active" {
		return werr.New(werr.Invalid, "key_not_active", "key %q is %q in the keychain of %s: only an active key may sign a new publication", keyID, k.Status, t.Root).
			WithHint("sign with the namespace's active key (a rotated key keeps verifying what it signed, but signs nothing new)")
	}
	if !k.Permits(name) {
		return werr.New(werr.Invalid, "pack_namespace_unauthorized", "key %q may not sign %s (it is granted %s)", keyID, name, strings.Join(k.PermittedNamespaces, ", ")).
			WithHint("sign with a key the registry grants this namespace, or ask the registry to extend the key's permittedNamespaces")
	}
	return nil
}

// TreeCatalog is the node typeIds of the packs of a registry tree, which
// OW020 resolves an agent's `openwop:<typeId>` tool against (validate's
// Catalog), read on first use.
func TreeCatalog(dir, spec string) (validate.TypeCatalog, error) {
	t, err := openTree(dir, spec, true)
	if err != nil {
		return nil, err
	}
	return &treeCatalog{t: t}, nil
}

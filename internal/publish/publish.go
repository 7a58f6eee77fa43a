// Package publish stages a signed pack release into a registry tree on disk
// exactly as the registry's own scripts would (auto-register.mjs,
// build-index.mjs, generate-sbom.mjs): the tarball, its detached signature
// and version manifest, the version's CycloneDX SBOM and the aggregate SBOM,
// the per-pack and registry indexes and the schema mirror. It also records
// yanks and deprecations, and uploads a release to a registry's HTTP API.
//
// Every command first plans all the files it would write in an overlay of
// the tree, refuses with a stable code (writing nothing) what the registry
// would refuse, then writes the changed files all together or not at all
// (see Plan.Apply).
package publish

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/verify"
	"github.com/openwop/wopkit/internal/werr"
)

// Options are the inputs of Stage.
type Options struct {
	Tarball    string // the signed .tgz
	SigPath    string // detached signature; "" uses <tgz without .tgz>.sig when present
	Registry   string // registry checkout or root
	Spec       string // SpecV1 or SpecV2 (default)
	AllowOlder bool   // accept a version not greater than the latest published
	Now        time.Time
}

// Release is a verified tarball ready to stage.
type Release struct {
	Name, Version string
	KeyID         string
	Method        string // "manual", "ed25519" or the v2 scheme
	Integrity     string
	Tgz, Sig      []byte
	Manifest      *jsjson.Obj // the version manifest, integrity included
	Notes         []string
	archive       *tarball.Archive
}

// Stage verifies the release and plans every file it adds to or changes in
// the tree. Nothing is written: call Apply on the plan.
func Stage(ctx context.Context, o Options) (*Plan, error) {
	t, err := OpenTree(o.Registry, o.Spec)
	if err != nil {
		return nil, err
	}
	rel, err := loadRelease(ctx, t, o)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Registry: t.Root, Tree: t.Spec, Name: rel.Name, Version: rel.Version, Notes: rel.Notes, Changes: []Change{}}

	if err := checkAdvisories(t, rel.Name, rel.Version); err != nil {
		return nil, err
	}
	versions, err := t.versionsOf(rel.Name)
	if err != nil {
		return nil, err
	}
	tgzRel := t.VersionFile(rel.Name, rel.Version, ".tgz")
	sigRel := t.VersionFile(rel.Name, rel.Version, ".sig")
	if t.exists(t.VersionFile(rel.Name, rel.Version, ".json")) || t.exists(tgzRel) {
		oldTgz, _, err := t.read(tgzRel)
		if err != nil {
			return nil, err
		}
		oldSig, _, err := t.read(sigRel)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(oldTgz, rel.Tgz) && bytes.Equal(oldSig, rel.Sig) {
			plan.NoOp = true
			return plan, nil
		}
		return nil, werr.New(werr.Invalid, "version_conflict", "%s@%s is already published in %s with different bytes (%s)", rel.Name, rel.Version, t.abs(t.versionsDir(rel.Name)), t.abs(tgzRel)).
			WithHint("published releases are immutable: bump the version in pack.json, pack and sign again")
	}
	if latest := highest(versions); latest != "" && CompareVersions(rel.Version, latest) <= 0 && !o.AllowOlder {
		return nil, werr.New(werr.Invalid, "version_not_greater", "%s@%s is not greater than the latest published version %s", rel.Name, rel.Version, latest).
			WithHint("bump the version, or pass --allow-older to publish a maintenance release of an older line")
	}

	now := o.Now
	if now.IsZero() {
		now = Clock()
	}
	if t.Spec == SpecV1 {
		// The v1 tree records the publication time and the served URLs in
		// the version manifest (as its hand-staged releases do; per-pack rows
		// read publishedAt, the SBOM the tarball URL). The live v2 tree's
		// manifests carry only the manifest, its signing block and integrity:
		// v2 records the clock as the registry index's generatedAt.
		rel.Manifest.Delete("integrity")
		rel.Manifest.Set("publishedAt", now.UTC().Format("2006-01-02T15:04:05Z"))
		rel.Manifest.Set("tarballUrl", t.URL("versionTarball", rel.Name, rel.Version))
		rel.Manifest.Set("signatureUrl", t.URL("versionSignature", rel.Name, rel.Version))
		rel.Manifest.Set("integrity", rel.Integrity)
	}
	t.put(tgzRel, rel.Tgz)
	t.put(sigRel, rel.Sig)
	t.put(t.VersionFile(rel.Name, rel.Version, ".json"), jsjson.Stringify(rel.Manifest))
	for _, f := range rel.archive.Files {
		rest, ok := strings.CutPrefix(f.Name, "schemas/")
		if ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".json") && safeName(rest) {
			t.put(t.MirrorFile(rel.Name, rel.Version, rest), []byte(strings.ToValidUTF8(string(f.Data), "\uFFFD")))
		}
	}
	if err := t.planSBOMs(map[string][]string{rel.Name: {rel.Version}}); err != nil {
		return nil, err
	}
	oldPack, oldReg, err := snapshotIndexes(t, rel.Name)
	if err != nil {
		return nil, err
	}
	if err := t.planIndexes([]string{rel.Name}, now); err != nil {
		return nil, err
	}
	if err := plan.collect(t); err != nil {
		return nil, err
	}
	return plan, indexDiff(t, plan, rel.Name, oldPack, oldReg)
}

func highest(versions []string) string {
	best := ""
	for _, v := range versions {
		if best == "" || CompareVersions(v, best) > 0 {
			best = v
		}
	}
	return best
}

var engineRange = regexp.MustCompile(`^>=\d+(\.\d+){0,2} <(\d+)\.0\.0$`)

// loadRelease reads the tarball within the registry's limits and verifies
// it as the registry's publish gate does: the signature, against the key the
// registry publishes for the signing block's key id, which must be active
// and granted the pack's namespace.
func loadRelease(ctx context.Context, t *Tree, o Options) (*Release, error) {
	tgz, err := readBounded(o.Tarball, tarball.RegistryLimits.MaxCompressed)
	if err != nil {
		return nil, err
	}
	a, err := tarball.ReadAll(bytes.NewReader(tgz), tarball.RegistryLimits)
	if err != nil {
		return nil, err
	}
	pj := a.Get(tarball.ManifestName)
	pmv, err := jsjson.Parse(pj.Data, o.Tarball+": pack.json")
	if err != nil {
		return nil, err
	}
	pm, _ := pmv.(*jsjson.Obj)
	name, _ := jsjson.Str(jsjson.Field(pm, "name"))
	version, _ := jsjson.Str(jsjson.Field(pm, "version"))
	if name == "" || version == "" {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "pack.json in %s has no name or version", o.Tarball)
	}
	if !safeName(name) || !safeName(version) {
		return nil, werr.New(werr.Invalid, "pack_name_invalid", "pack name %q or version %q in %s cannot name a registry path", name, version, o.Tarball)
	}
	if strings.HasPrefix(name, "private.") || strings.HasPrefix(name, "local.") {
		return nil, werr.New(werr.Invalid, "pack_namespace_reserved", "%s is in a reserved namespace: private.* and local.* packs are never published to a registry", name).
			WithHint("rename the pack into core.*, vendor.<org>.* or community.<group>.*")
	}
	if _, ok := parseSemver(version); !ok {
		return nil, werr.New(werr.Invalid, "pack_version_invalid", "version %q of %s is not a SemVer version", version, name)
	}

	signing, _ := jsjson.Field(pm, "signing").(*jsjson.Obj)
	if signing == nil {
		return nil, werr.New(werr.Invalid, "signature_missing", "pack.json in %s has no signing block", o.Tarball).
			WithHint("sign the pack first: wopkit sign or wopkit pack --sign")
	}
	scheme, _ := jsjson.Str(jsjson.Field(signing, "scheme"))
	method, _ := jsjson.Str(jsjson.Field(signing, "method"))
	var keyID string
	switch t.Spec {
	case SpecV2:
		if scheme != sign.SchemeV2 {
			return nil, werr.New(werr.Invalid, "publish_tree_mismatch", "%s is not signed with the v2 scheme %s; the v2 tree takes only v2 signatures", o.Tarball, sign.SchemeV2).
				WithHint("sign with --sign v2 (wopkit migrate first for a v1 pack), or pass --spec v1 for the frozen v1 tree")
		}
		keyID, _ = jsjson.Str(jsjson.Field(signing, "keyId"))
		if k, _ := jsjson.Str(jsjson.Field(pm, "kind")); k == "" {
			return nil, werr.New(werr.Invalid, "pack_kind_missing", "pack.json in %s has no kind; every v2 manifest names its kind (RFC 0177 §C.5)", o.Tarball).
				WithHint("add \"kind\": \"node\" (or the pack's kind) to pack.json, then pack and sign again (wopkit migrate does it)")
		}
		rng, _ := jsjson.Str(jsjson.Field(jsjson.Field(pm, "engines"), "openwop"))
		m := engineRange.FindStringSubmatch(rng)
		if ceil, _ := strconv.Atoi(safeIndex(m, 2)); m == nil || ceil <= 2 {
			return nil, werr.New(werr.Invalid, "pack_engine_unsupported", "engines.openwop %q of %s does not admit protocol major 2 with an explicit ceiling (e.g. \">=1.0.0 <3.0.0\")", rng, name).
				WithHint("the v2 tree takes only manifests whose engines range admits major 2 (wopkit migrate)")
		}
	default:
		if method == "" {
			return nil, werr.New(werr.Invalid, "publish_tree_mismatch", "%s carries no v1 signing method; the v1 tree takes v1 signatures", o.Tarball).
				WithHint("publish a v2-signed pack to the v2 tree (drop --spec v1)")
		}
		if method == sign.MethodSigstore {
			return nil, werr.New(werr.Invalid, "publish_method_unsupported", "%s is signed with Sigstore, which wopkit publish does not stage", o.Tarball).
				WithHint("sign with a registered Ed25519 key (--sign manual or v2)")
		}
		keyID, _ = jsjson.Str(jsjson.Or(jsjson.Field(signing, "publicKeyRef"), jsjson.Field(signing, "keyId")))
	}
	if keyID == "" {
		return nil, werr.New(werr.Invalid, "key_unknown", "the signing block in %s names no key", o.Tarball)
	}
	root, err := registry.Open(t.Root)
	if err != nil {
		return nil, err
	}
	k, err := root.Key(keyID)
	if err != nil {
		return nil, err
	}
	if k.Status != "active" { // check-published-immutable.mjs: a new publication needs status "active", spelled out
		return nil, werr.New(werr.Invalid, "key_not_active", "key %q is %q in the keychain of %s: only an active key may sign a new publication", keyID, k.Status, t.Root).
			WithHint("sign with the namespace's active key (a rotated key keeps verifying what it signed, but signs nothing new)")
	}
	if !k.Permits(name) {
		return nil, werr.New(werr.Invalid, "pack_namespace_unauthorized", "key %q may not sign %s (it is granted %s)", keyID, name, strings.Join(k.PermittedNamespaces, ", ")).
			WithHint("sign with a key the registry grants this namespace, or ask the registry to extend the key's permittedNamespaces")
	}

	sigPath := o.SigPath
	if base, ok := strings.CutSuffix(o.Tarball, ".tgz"); sigPath == "" && ok {
		if _, err := os.Stat(base + sign.DetachedSigExt); err == nil {
			sigPath = base + sign.DetachedSigExt
		}
	}
	var sig []byte
	if sigPath != "" {
		if sig, err = readBounded(sigPath, 1<<20); err != nil {
			return nil, err
		}
	} else if f := a.Get("keys/pack.json.sig"); f != nil && method != sign.MethodLegacy {
		sig = f.Data // the registry serves the raw signature beside the tarball
	}
	if sig == nil {
		return nil, werr.New(werr.Invalid, "signature_missing", "no detached signature for %s", o.Tarball).
			WithHint("put <tarball>.sig beside it or pass --sig FILE")
	}
	res := &verify.Result{Path: o.Tarball}
	lim := tarball.RegistryLimits
	if err := verify.Bytes(ctx, tgz, sig, verify.Policy{Key: k.Public, Limits: &lim}, res); err != nil {
		return nil, err
	}

	sum := sha256.Sum256(tgz)
	rel := &Release{Name: name, Version: version, KeyID: keyID, Method: res.Method, Tgz: tgz, Sig: sig, archive: a,
		Integrity: "sha256-" + base64.StdEncoding.EncodeToString(sum[:])}
	base := pm
	if side, note := sidecarManifest(o.Tarball, pj.Data); side != nil {
		base = side
	} else if note != "" {
		rel.Notes = append(rel.Notes, note)
	}
	m := jsjson.Clone(base).(*jsjson.Obj)
	m.Delete("integrity")
	m.Set("integrity", rel.Integrity)
	rel.Manifest = m
	return rel, nil
}

func safeIndex(m []string, i int) string {
	if i < len(m) {
		return m[i]
	}
	return ""
}

// sidecarManifest returns the version manifest `wopkit pack` (and the
// registry's builder) writes beside the tarball, <base>.json, or the version
// manifest beside a tarball taken from a registry, when it says the same as
// the pack.json inside (apart from the members a registry adds): its members
// keep the source order the registry's version manifests have. A sidecar
// that differs is ignored, with a note.
func sidecarManifest(tgzPath string, packJSON []byte) (*jsjson.Obj, string) {
	p, ok := strings.CutSuffix(tgzPath, ".tgz")
	if !ok {
		return nil, ""
	}
	b, err := os.ReadFile(p + ".json")
	if err != nil {
		return nil, ""
	}
	v, err := jsjson.Parse(b, p+".json")
	o, _ := v.(*jsjson.Obj)
	if err != nil || o == nil {
		return nil, fmt.Sprintf("%s.json is not a JSON object: the version manifest keeps the tarball's member order", p)
	}
	c := jsjson.Clone(o).(*jsjson.Obj)
	for _, k := range registryMembers {
		c.Delete(k)
	}
	x, err1 := jcs.Canonicalize(jsjson.Stringify(c), jcs.Options{})
	y, err2 := jcs.Canonicalize(packJSON, jcs.Options{})
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		return nil, fmt.Sprintf("%s.json says other than the pack.json inside the tarball: ignored; the version manifest keeps the tarball's member order", p)
	}
	return c, ""
}

// registryMembers are the members a registry adds to a version manifest
// beyond the signed pack.json: they are recomputed, or set by yank and
// deprecate, never taken from a sidecar.
var registryMembers = []string{"integrity", "publishedAt", "tarballUrl", "signatureUrl", "deprecated", "yanked",
	"yankedReason", "versionDeprecated", "deprecationReason", "supersededBy", "advisoryUrl"}

func readBounded(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", p).WithHint("check the path")
		}
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", p)
	}
	defer f.Close()
	b, err := registry.ReadSized(f, max+1)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", p)
	}
	if int64(len(b)) > max {
		return nil, werr.New(werr.Invalid, "tarball_too_large", "%s is larger than the registry's limit of %d bytes", p, max)
	}
	return b, nil
}

// checkAdvisories refuses a version the registry's security advisories name
// (security/advisories.json, affected[].packName and .versions).
func checkAdvisories(t *Tree, name, version string) error {
	const rel = "security/advisories.json"
	b, ok, err := t.read(rel)
	if err != nil || !ok {
		return err
	}
	doc, err := jsjson.Parse(b, t.abs(rel))
	if err != nil {
		return err
	}
	for _, adv := range jsjson.Array(jsjson.Field(doc, "advisories")) {
		id, _ := jsjson.Str(jsjson.Field(adv, "id"))
		for _, row := range jsjson.Array(jsjson.Field(adv, "affected")) {
			if pn, _ := jsjson.Str(jsjson.Field(row, "packName")); pn != name {
				continue
			}
			rng, _ := jsjson.Str(jsjson.Field(row, "versions"))
			hit, err := satisfies(version, rng)
			if err != nil {
				return werr.Wrap(werr.Invalid, "registry_invalid", err, "advisory %s in %s has an unreadable range %q", id, t.abs(rel), rng)
			}
			if hit {
				e := werr.New(werr.Invalid, "version_advisory", "%s@%s is affected by security advisory %s (%s: %s)", name, version, id, rel, rng)
				if fixed, _ := jsjson.Str(jsjson.Field(row, "fixedIn")); fixed != "" {
					return e.WithHint("publish a version with the fix (the advisory names %s)", fixed)
				}
				return e.WithHint("publish a version outside the affected range")
			}
		}
	}
	return nil
}

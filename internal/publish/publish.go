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
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
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
	// AllowBreaking accepts a version bump smaller than the changes since
	// the version it follows need (refused by default:
	// version_bump_too_small).
	AllowBreaking bool
	// RebuildIndex rebuilds the registry index from the packs the checkout
	// holds even when it lists packs whose folders are missing (a partial
	// checkout): their entries are removed. Without it such a tree is
	// refused (registry_partial).
	RebuildIndex bool
	// DryRun plans without changing anything: an interrupted transaction
	// is neither completed nor undone (the plan is refused instead).
	DryRun bool
	Now    time.Time
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
//
// A release the tree already holds with the same bytes plans what its
// publication implies (SBOMs, indexes, mirror) and changes only what is
// missing or stale, so that a run of an older wopkit cut short is repaired
// by running it again; when nothing is, the plan is a no-op.
func Stage(ctx context.Context, o Options) (*Plan, error) {
	t, err := openTree(o.Registry, o.Spec, o.DryRun)
	if err != nil {
		return nil, err
	}
	if err := t.serves(); err != nil {
		return nil, err
	}
	if err := t.checkComplete(o.RebuildIndex); err != nil {
		return nil, err
	}
	rel, err := loadRelease(ctx, t, o)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Registry: t.Root, Tree: t.Spec, TreeReason: t.why, Name: rel.Name, Version: rel.Version, Notes: append(t.notes, rel.Notes...), Changes: []Change{}}

	if err := checkAdvisories(t, rel.Name, rel.Version); err != nil {
		return nil, err
	}
	if err := checkPackName(t, rel.Name); err != nil {
		return nil, err
	}
	versions, err := t.versionsOf(rel.Name)
	if err != nil {
		return nil, err
	}
	for _, v := range versions {
		if v != rel.Version && strings.EqualFold(v, rel.Version) {
			return nil, werr.New(werr.Invalid, CodeCaseConflict, "%s@%s differs only in letter case from the published version %s: on macOS and Windows checkouts their files are one; nothing was written", rel.Name, rel.Version, v).
				WithHint("publish a version whose name differs from every published one by more than letter case")
		}
	}
	tgzRel := t.VersionFile(rel.Name, rel.Version, ".tgz")
	sigRel := t.VersionFile(rel.Name, rel.Version, ".sig")
	jsonRel := t.VersionFile(rel.Name, rel.Version, ".json")
	hasJSON, err := t.exists(jsonRel)
	if err != nil {
		return nil, err
	}
	oldTgz, hasTgz, err := t.read(tgzRel)
	if err != nil {
		return nil, err
	}
	oldSig, hasSig, err := t.read(sigRel)
	if err != nil {
		return nil, err
	}
	republish := hasJSON || hasTgz
	if republish && (!bytes.Equal(oldTgz, rel.Tgz) || hasSig && !bytes.Equal(oldSig, rel.Sig)) {
		return nil, werr.New(werr.Invalid, "version_conflict", "%s@%s is already published in %s with different bytes (%s)", rel.Name, rel.Version, t.abs(t.versionsDir(rel.Name)), t.abs(tgzRel)).
			WithHint("published releases are immutable: %s", bumpCommand(t))
	}
	if !republish {
		if same := samePrecedence(rel.Version, versions); same != "" {
			return nil, werr.New(werr.Invalid, "version_conflict", "%s@%s has the same precedence as the published version %s (SemVer ignores build metadata)", rel.Name, rel.Version, same).
				WithHint("published releases are immutable: %s", bumpCommand(t))
		}
		if latest := highest(versions); latest != "" && CompareVersions(rel.Version, latest) <= 0 && !o.AllowOlder {
			return nil, werr.New(werr.Invalid, "version_not_greater", "%s@%s is not greater than the latest published version %s", rel.Name, rel.Version, latest).
				WithHint("%s; or pass --allow-older to publish a maintenance release of an older line", bumpCommand(t))
		}
		compat, note, err := checkBump(t, rel, versions, o.AllowBreaking)
		if err != nil {
			return nil, err
		}
		plan.Compat = compat
		if note != "" {
			plan.Notes = append(plan.Notes, note)
		}
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
	if !hasJSON {
		// A published manifest stays as it is (its publishedAt, a yank).
		if err := checkVersionManifest(rel.Manifest, rel.Name+"@"+rel.Version, t.Spec); err != nil {
			return nil, err
		}
		t.put(jsonRel, jsjson.Stringify(rel.Manifest))
	}
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
	if republish && !plan.NoOp {
		plan.Notes = append(plan.Notes, fmt.Sprintf("%s@%s was already in the tree with these bytes, but not all that its publication writes: the missing or stale files are written (an earlier run was cut short)", rel.Name, rel.Version))
	}
	return plan, indexDiff(t, plan, rel.Name, oldPack, oldReg)
}

// samePrecedence returns the published version that v equals in SemVer
// precedence without being the same string (1.0.0+rebuild, or 1.00.0 read by
// its numbers, beside 1.0.0), or "".
func samePrecedence(v string, published []string) string {
	x, ok := parseLoose(v)
	if !ok {
		return ""
	}
	for _, p := range published {
		if y, ok := parseLoose(p); ok && p != v && x.compare(y) == 0 {
			return p
		}
	}
	return ""
}

// checkPackName refuses a pack whose name differs from a pack the tree holds
// only in letter case: on a case-insensitive file system (a clone on macOS
// or Windows) the two would share one folder.
func checkPackName(t *Tree, name string) error {
	packs, err := t.list(t.packsDir(), true)
	if err != nil {
		return err
	}
	for _, p := range packs {
		if p != name && strings.EqualFold(p, name) {
			return werr.New(werr.Invalid, "pack_name_collision", "pack %q differs from the published pack %q only in letter case", name, p).
				WithHint("a registry checkout on a case-insensitive file system cannot hold both: choose another name")
		}
	}
	return nil
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
	man, err := checkManifest(a, o.Tarball, t.Spec, &treeCatalog{t: t})
	if err != nil {
		return nil, err
	}
	pm, name, version, keyID, method := man.doc, man.name, man.version, man.keyID, man.method
	if err := checkEmbeddedSignature(a, pm, o.Tarball, t.Spec); err != nil {
		return nil, err
	}
	root, err := registry.Open(t.Root)
	if err != nil {
		return nil, err
	}
	k, err := root.Key(keyID)
	if err != nil {
		return nil, unknownKey(err, o.Registry, keyID, name, o.Tarball, a)
	}
	if k.Status != "active" { // check-published-immutable.mjs: a new publication needs status "active", spelled out
		return nil, werr.New(werr.Invalid, "key_not_active", "key %q is %q in the keychain of %s: only an active key may sign a new publication", keyID, k.Status, t.Root).
			WithHint("sign with the namespace's active key (a rotated key keeps verifying what it signed, but signs nothing new)")
	}
	if !k.Permits(name) {
		return nil, werr.New(werr.Invalid, "pack_namespace_unauthorized", "key %q may not sign %s (it is granted %s)", keyID, name, strings.Join(k.PermittedNamespaces, ", ")).
			WithHint("sign with a key the registry grants this namespace, or ask the registry to extend the key's permittedNamespaces")
	}

	var sig []byte
	if o.SigPath != "" {
		if sig, err = untrusted.ReadNamed(o.SigPath, untrusted.MaxDocument); err != nil {
			return nil, readErr(o.SigPath, err)
		}
	} else if base, ok := strings.CutSuffix(o.Tarball, ".tgz"); ok {
		// The signature beside the tarball, read inside the tarball's folder.
		sig, err = untrusted.ReadFile(base+sign.DetachedSigExt, untrusted.MaxDocument)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, readErr(base+sign.DetachedSigExt, err)
		}
	}
	if f := a.Get("keys/pack.json.sig"); sig == nil && f != nil && method != sign.MethodLegacy {
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
	side, note, err := sidecarManifest(o.Tarball, pj.Data)
	if err != nil {
		return nil, err
	}
	if side != nil {
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

// sidecarManifest returns the version manifest `wopkit pack` (and the
// registry's builder) writes beside the tarball, <base>.json, or the version
// manifest beside a tarball taken from a registry, when it says the same as
// the pack.json inside (apart from the members a registry adds): its members
// keep the source order the registry's version manifests have. A sidecar
// that differs is ignored, with a note; one that is not a regular file in
// the tarball's folder, or is too large, is refused.
func sidecarManifest(tgzPath string, packJSON []byte) (*jsjson.Obj, string, error) {
	p, ok := strings.CutSuffix(tgzPath, ".tgz")
	if !ok {
		return nil, "", nil
	}
	b, err := untrusted.ReadFile(p+".json", untrusted.MaxDocument)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", readErr(p+".json", err)
	}
	v, err := jsjson.Parse(b, p+".json")
	o, _ := v.(*jsjson.Obj)
	if err != nil || o == nil {
		return nil, fmt.Sprintf("%s.json is not a JSON object: the version manifest keeps the tarball's member order", p), nil
	}
	c := jsjson.Clone(o).(*jsjson.Obj)
	for _, k := range registryMembers {
		c.Delete(k)
	}
	x, err1 := jcs.Canonicalize(jsjson.Stringify(c), jcs.Options{})
	y, err2 := jcs.Canonicalize(packJSON, jcs.Options{})
	if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
		return nil, fmt.Sprintf("%s.json says other than the pack.json inside the tarball: ignored; the version manifest keeps the tarball's member order", p), nil
	}
	return c, "", nil
}

// registryMembers are the members a registry adds to a version manifest
// beyond the signed pack.json: they are recomputed, or set by yank and
// deprecate, never taken from a sidecar.
var registryMembers = []string{"integrity", "publishedAt", "tarballUrl", "signatureUrl", "deprecated", "yanked",
	"yankedReason", "versionDeprecated", "deprecationReason", "supersededBy", "advisoryUrl"}

// readBounded reads the tarball the user named (a link is followed), a
// regular file of at most max bytes.
func readBounded(p string, max int64) ([]byte, error) {
	b, err := untrusted.ReadNamed(p, max)
	if werr.CodeOf(err) == untrusted.CodeTooLarge {
		return nil, werr.Wrap(werr.Invalid, "tarball_too_large", err, "%s is larger than the registry's limit of %d bytes", p, max)
	}
	if err != nil {
		return nil, readErr(p, err)
	}
	return b, nil
}

// readErr keeps the layer's refusals of a file beside the tarball (not
// regular, too large, outside its folder) and wraps other failures as
// file_unreadable.
func readErr(p string, err error) error {
	if werr.CodeOf(err) != "" {
		return err
	}
	e := werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", p)
	if errors.Is(err, fs.ErrNotExist) {
		e = e.WithHint("check the path")
	}
	return e
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

package publish

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// maxShownProblems caps the problems a pack_invalid error lists.
const maxShownProblems = 20

// manifest is what checkManifest read from a tarball's pack.json.
type manifest struct {
	doc           *jsjson.Obj
	name, version string
	keyID         string // the signing block's key
	method        string // the signing block's v1 method ("" for v2)
}

var engineRange = lazyre.New(`^>=\d+(\.\d+){0,2} <(\d+)\.0\.0$`)

// checkManifest reads the tarball's pack.json and refuses, before the
// registry is consulted and anything is planned, a manifest the registry
// would not serve in tree spec: no name or version, a name that cannot be
// one path segment, a reserved namespace, a version SemVer refuses (leading
// zeros), no signing block or one of the other tree, a v2 manifest without
// kind or an engines range without major 2; then whatever `wopkit validate
// --for-registry` reports as an error (see validateManifest).
func checkManifest(a *tarball.Archive, tgz, spec string, cat validate.TypeCatalog) (*manifest, error) {
	pj := a.Get(tarball.ManifestName)
	pmv, err := jsjson.Parse(pj.Data, tgz+": pack.json")
	if err != nil {
		return nil, err
	}
	pm, _ := pmv.(*jsjson.Obj)
	m := &manifest{doc: pm}
	m.name, _ = jsjson.Str(jsjson.Field(pm, "name"))
	m.version, _ = jsjson.Str(jsjson.Field(pm, "version"))
	name, version := m.name, m.version
	if name == "" || version == "" {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "pack.json in %s has no name or version", tgz)
	}
	if !safeName(name) || !safeName(version) {
		return nil, werr.New(werr.Invalid, "pack_name_invalid", "pack name %q or version %q in %s cannot name a registry path", name, version, tgz)
	}
	if strings.HasPrefix(name, "private.") || strings.HasPrefix(name, "local.") {
		return nil, werr.New(werr.Invalid, "pack_namespace_reserved", "%q is in a reserved namespace: private.* and local.* packs are never published to a registry", name).
			WithHint("rename the pack into core.*, vendor.<org>.* or community.<group>.*")
	}
	if _, ok := parseSemver(version); !ok {
		return nil, werr.New(werr.Invalid, "pack_version_invalid", "version %q of %q is not a SemVer 2.0.0 version", version, name).
			WithHint("write MAJOR.MINOR.PATCH with no leading zeros (1.0.0, not 01.0.0 or 1.00.0)")
	}

	signing, _ := jsjson.Field(pm, "signing").(*jsjson.Obj)
	if signing == nil {
		return nil, werr.New(werr.Invalid, "signature_missing", "pack.json in %s has no signing block", tgz).
			WithHint("sign the pack first: wopkit sign or wopkit pack --sign")
	}
	scheme, _ := jsjson.Str(jsjson.Field(signing, "scheme"))
	m.method, _ = jsjson.Str(jsjson.Field(signing, "method"))
	switch spec {
	case SpecV2:
		if scheme != sign.SchemeV2 {
			return nil, werr.New(werr.Invalid, "publish_tree_mismatch", "%s is not signed with the v2 scheme %s; the v2 tree takes only v2 signatures", tgz, sign.SchemeV2).
				WithHint("sign with --sign v2 (wopkit migrate first for a v1 pack), or pass --spec v1 for the frozen v1 tree")
		}
		m.keyID, _ = jsjson.Str(jsjson.Field(signing, "keyId"))
		if k, _ := jsjson.Str(jsjson.Field(pm, "kind")); k == "" {
			return nil, werr.New(werr.Invalid, "pack_kind_missing", "pack.json in %s has no kind; every v2 manifest names its kind (RFC 0177 §C.5)", tgz).
				WithHint("add \"kind\": \"node\" (or the pack's kind) to pack.json, then pack and sign again (wopkit migrate does it)")
		}
		rng, _ := jsjson.Str(jsjson.Field(jsjson.Field(pm, "engines"), "openwop"))
		r := engineRange.FindStringSubmatch(rng)
		if r == nil || ceiling(r[2]) <= 2 {
			return nil, werr.New(werr.Invalid, "pack_engine_unsupported", "engines.openwop %q of %q does not admit protocol major 2 with an explicit ceiling (e.g. \">=1.0.0 <3.0.0\")", rng, name).
				WithHint("the v2 tree takes only manifests whose engines range admits major 2 (wopkit migrate)")
		}
	default:
		if m.method == "" {
			return nil, werr.New(werr.Invalid, "publish_tree_mismatch", "%s carries no v1 signing method; the v1 tree takes v1 signatures", tgz).
				WithHint("publish a v2-signed pack to the v2 tree (drop --spec v1)")
		}
		if m.method == sign.MethodSigstore {
			return nil, werr.New(werr.Invalid, "publish_method_unsupported", "%s is signed with Sigstore, which wopkit publish does not stage", tgz).
				WithHint("sign with a registered Ed25519 key (--sign manual or v2)")
		}
		m.keyID, _ = jsjson.Str(jsjson.Or(jsjson.Field(signing, "publicKeyRef"), jsjson.Field(signing, "keyId")))
	}
	if m.keyID == "" {
		return nil, werr.New(werr.Invalid, "key_unknown", "the signing block in %s names no key", tgz)
	}
	if err := validatePack(a, pj.Data, tgz, spec, cat); err != nil {
		return nil, err
	}
	return m, nil
}

func ceiling(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// validatePack is validateManifest. The oracle tests that restage every
// release of the fixture registry replace it, to check the indexes and SBOMs
// of the two releases the spec's v1 schemas refuse too.
var validatePack = validateManifest

// validateManifest validates the pack inside the tarball as `wopkit
// validate --for-registry` does (an agent's `openwop:<typeId>` tool resolved
// against cat, the typeIds of the registry tree it is published into) (its pack.json against the schema of its
// kind and spec version, then the lint rules, with the pack's files), and
// refuses it with code pack_invalid when there is any error. Into the
// frozen v1 tree (spec SpecV1) a v1 pack's engines range may stop at major
// 1, as every release there does (validate.Options.FrozenV1). Warnings do not
// refuse. The problems are listed with every unsafe character escaped.
func validateManifest(a *tarball.Archive, data []byte, tgz, spec string, cat validate.TypeCatalog) error {
	fsys := fstest.MapFS{}
	files := map[string][]byte{}
	for _, f := range a.Files {
		fsys[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
		files[f.Name] = f.Data
	}
	frs, err := withReleaseValidator(spec, cat, func(v *validate.Validator) []validate.FileReport {
		return v.PackFiles(filepath.Base(tgz)+"!/pack.json", fsys, data)
	})
	if err != nil {
		return err
	}
	var problems []string
	for _, fr := range validate.UnparsedJSON(filepath.Base(tgz)+"!/", files, frs) {
		for _, p := range fr.Errors {
			problems = append(problems, termsafe.String(p.File+": "+p.Message+" (at "+orRoot(p.Pointer)+") ["+p.Rule+"]"))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	n := len(problems)
	if n > maxShownProblems {
		problems = append(problems[:maxShownProblems], fmt.Sprintf("… and %d more", n-maxShownProblems))
	}
	return werr.New(werr.Invalid, "pack_invalid", "%s does not validate (%d error(s)); the registry would refuse it:\n  %s", termsafe.String(tgz), n, strings.Join(problems, "\n  ")).
		WithHint("run wopkit validate --for-registry on the pack, fix it, then pack and sign again")
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "/"
	}
	return ptr
}

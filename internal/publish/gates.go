package publish

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// The registry's gates that read the tarball and the version manifest
// themselves, re-run here so that what publish stages passes them whatever
// the tarball went through before (packed with --no-validate, its files
// edited, signed by another tool).

// checkEmbeddedSignature refuses a tarball the registry's
// check-pack-tarball-signatures.mjs would fail: it verifies the signature
// embedded at keys/pack.json.sig over the in-tarball pack.json (A, D), and in
// the v1 tree reads the signer from signing.publicKeyRef (B: the keyId alias
// reads as unsigned). The v2 tarballs the registry serves embed it too
// (spec-v2 NOTES §2, "where the signature lives": both still). That the
// embedded signature verifies is checked with the detached one (verify
// refuses two different signatures: signature_conflict).
func checkEmbeddedSignature(a *tarball.Archive, pm *jsjson.Obj, tgz, spec string) error {
	if a.Get(sign.SignatureFile) == nil {
		return werr.New(werr.Invalid, "signature_not_embedded", "%s has no %s: the registry verifies the signature embedded in the tarball (check-pack-tarball-signatures), not only the detached .sig", termsafe.String(tgz), sign.SignatureFile).
			WithHint("pack and sign with wopkit (pack --sign, or sign), which embeds it")
	}
	if spec == SpecV1 {
		if ref, _ := jsjson.Str(jsjson.Field(jsjson.Field(pm, "signing"), "publicKeyRef")); ref == "" {
			return werr.New(werr.Invalid, "signing_key_ref_missing", "pack.json in %s has no signing.publicKeyRef: the registry's v1 gate reads the signer from it and takes a manifest without it as unsigned", termsafe.String(tgz)).
				WithHint("sign with --sign manual, which writes {method, publicKeyRef, signatureRef}")
		}
	}
	return nil
}

// checkVersionManifest validates the version manifest publish writes
// against the registry's version-manifest schema of the tree (embedded:
// schemas/registry-v1 and schemas/v2 registry-version-manifest.schema.json,
// the registry's own files), which the registry's CI runs over every
// served manifest. Its additionalProperties refuses members the pack
// schemas let through (v1: connector, peerDependenciesMeta; v2: deprecated).
// It refuses with the schema's words.
func checkVersionManifest(m *jsjson.Obj, what, spec string) error {
	v, err := versionManifestValidator()
	if err != nil {
		return err
	}
	sp := kinds.V2
	if spec == SpecV1 {
		sp = kinds.V1
	}
	var problems []string
	for _, p := range v.CheckValueFor(sp, kinds.VersionManifest, "", json.RawMessage(jsjson.Stringify(m))) {
		if p.Severity == validate.Error {
			problems = append(problems, termsafe.String(p.Message+" (at "+orRoot(p.Pointer)+") ["+p.Rule+"]"))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	n := len(problems)
	if n > maxShownProblems {
		problems = append(problems[:maxShownProblems], fmt.Sprintf("… and %d more", n-maxShownProblems))
	}
	return werr.New(werr.Invalid, "version_manifest_invalid", "the version manifest of %s does not match the registry's %s version-manifest schema (%d error(s)); the registry would refuse it:\n  %s",
		termsafe.String(what), spec, n, strings.Join(problems, "\n  ")).
		WithHint("fix or remove those members of pack.json (a version manifest takes only the members the registry's schema lists), then pack and sign again")
}

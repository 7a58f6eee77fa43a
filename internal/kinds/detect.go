package kinds

import (
	"fmt"
	"path"
	"strings"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// Detect tells the kind of a decoded document from its content and file
// name (docs/FORMATS.md §1). It returns Unknown when nothing matches.
func Detect(name string, root *jsondoc.Node) Kind {
	if root == nil || root.Kind != jsondoc.Object {
		if path.Base(name) == "pack.json" {
			return NodePack
		}
		return Unknown
	}
	// A registry version manifest is a pack manifest plus the registry's
	// integrity (and lifecycle) fields.
	if root.Get("integrity") != nil && (root.Get("name") != nil || root.Get("engines") != nil) && path.Base(name) != "pack.json" {
		return VersionManifest
	}
	if k := root.Get("kind"); k != nil && (path.Base(name) == "pack.json" || root.Get("engines") != nil || root.Get("name") != nil) {
		if k.Kind == jsondoc.String {
			return DocOf(k.Str)
		}
		return NodePack
	}
	switch {
	case path.Base(name) == "pack.json":
		return NodePack
	case root.Get("manifest_version") != nil:
		return ToolManifest
	case root.Get("engines") != nil && root.Get("runtime") != nil:
		return NodePack
	case root.Get("suiteId") != nil && root.Get("tasks") != nil:
		return EvalSuite
	case root.Get("agentId") != nil && root.Get("persona") != nil && root.Get("modelClass") != nil:
		return Agent
	case root.Get("suiteId") != nil && strings.Contains(root.Get("suiteId").Text(), ".evals."):
		return EvalSuite
	}
	return Unknown
}

// ceilingAdmits2 is the registry's test for an engines range that admits
// protocol major 2 (REG scripts/lib/registry-tree.mjs admitsV2).
var ceilingAdmits2 = lazyre.New(`<\s*v?([3-9]|\d{2,})\.0\.0`)

// DetectSpec tells which spec version a document follows, and why. In
// order: a `$schema` naming a /spec/v1/ or /spec/v2/ schema; the signing
// block's shape ({method, publicKeyRef, …} is v1, else {keyId, scheme} is v2); a
// version manifest's tarballUrl (/v2/… or /v1/…); an engines.openwop range
// with an explicit ceiling that admits major 2 (what the registry calls
// "admits v2"). Anything else is v1, the contract of documents that do not
// say: `kind` alone decides nothing, since v1 packs may carry it too and a
// v2 pack that forgot it must hear that v2 requires it.
func DetectSpec(root *jsondoc.Node) (Spec, string) {
	if root == nil || root.Kind != jsondoc.Object {
		return V1, "default"
	}
	if s := root.Get("$schema").Text(); s != "" {
		switch {
		case strings.Contains(s, "/spec/v2/"):
			return V2, "$schema"
		case strings.Contains(s, "/spec/v1/"):
			return V1, "$schema"
		}
	}
	if sg := root.Get("signing"); sg != nil && sg.Kind == jsondoc.Object {
		// v1 blocks may carry a keyId beside method (the legacy
		// method "ed25519"); method and the *Ref members exist only in v1.
		switch {
		case sg.Get("method") != nil || sg.Get("publicKeyRef") != nil || sg.Get("signatureRef") != nil:
			return V1, "signing"
		case sg.Get("keyId") != nil || sg.Get("scheme") != nil:
			return V2, "signing"
		}
	}
	if u := root.Get("tarballUrl").Text(); u != "" {
		switch {
		case strings.HasPrefix(u, "/v2/"):
			return V2, "tarballUrl"
		case strings.HasPrefix(u, "/v1/"):
			return V1, "tarballUrl"
		}
	}
	if r := root.Get("engines"); r != nil {
		s := r.Get("openwop").Text()
		if s != "" && AdmitsMajor2(s) {
			return V2, "engines"
		}
		// A range with no ceiling (">=1.0.0", a typo that lost "<3.0.0")
		// or none at all cannot decide: the marks only v2 has do.
		if !hasCeiling(s) {
			if m := v2Marks(root); len(m) > 0 {
				return V2, MarksReason + strings.Join(m, ", ")
			}
		}
	}
	return V1, "default"
}

// MarksReason starts the reason DetectSpec gives when a pack's engines
// range could not decide and its v2 marks did.
const MarksReason = "marks: "

// hasCeiling reports whether an engines.openwop range has an upper bound
// (an unreadable range has none).
func hasCeiling(r string) bool {
	c, err := semver.NewConstraint(r)
	return err == nil && !c.Check(semver.MustParse("1000.0.0"))
}

// v2Marks lists what only a v2 pack has: a node's or an agent's role (with
// the pack's kind beside it, which alone decides nothing).
func v2Marks(root *jsondoc.Node) []string {
	var m []string
	for _, list := range []string{"nodes", "agents"} {
		l := root.Get(list)
		if l == nil || l.Kind != jsondoc.Array {
			continue
		}
		for i, it := range l.Items {
			if it != nil && it.Kind == jsondoc.Object && it.Get("role") != nil {
				m = append(m, fmt.Sprintf("%s[%d].role", list, i))
				break
			}
		}
	}
	if len(m) > 0 && root.Get("kind") != nil {
		m = append([]string{"kind"}, m...)
	}
	return m
}

// AdmitsMajor2 reports whether an engines.openwop range has an explicit
// ceiling that admits protocol major 2 (a range without a ceiling is read
// by hosts as "<2.0.0").
func AdmitsMajor2(r string) bool {
	if ceilingAdmits2.MatchString(r) {
		return true
	}
	c, err := semver.NewConstraint(r)
	if err != nil {
		return false
	}
	return c.Check(semver.MustParse("2.0.0")) && !c.Check(semver.MustParse("1000.0.0"))
}

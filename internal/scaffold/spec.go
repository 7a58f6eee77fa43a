package scaffold

import "strings"

// The spec versions a pack can be scaffolded for, and their engines ranges.
const (
	SpecV1 = "v1"
	SpecV2 = "v2"
	// EnginesV1 is the range wopkit wrote before v2: hosts of major 1 only.
	EnginesV1 = ">=1.0.0 <2.0.0"
	// EnginesV2 admits majors 1 and 2 with the explicit ceiling RFC 0177
	// §A.1 asks for (`^>=\d+(\.\d+){0,2} <\d+\.0\.0$`); the registry
	// publishes to its v2 tree only a ceiling of 3.0.0 or higher. It is the
	// range the spec's PACK-AUTHOR-QUICKSTART writes: the pack keeps loading
	// on v1 hosts, and a ceiling above the newest major that exists would
	// promise compatibility with a spec nobody has read.
	EnginesV2 = ">=1.0.0 <3.0.0"
	// AgentRoleV2 is the role a v2 scaffold gives its agents: RFC 0131 says
	// the role is explicit, never inferred; "assistant" puts no further
	// constraint on the manifest ("skill" requires a handoff and a
	// scratchpad-only memory).
	AgentRoleV2 = "assistant"
)

// AgentPeersV2 are the peer dependencies a v2 pack with agents declares:
// the v2 declaration families of what its agents need from a host (an AI
// provider and the agent runtime), with the value the registry's published
// v2 packs use. v1 scaffolds declared none and stay as they were.
var AgentPeersV2 = map[string]string{"aiProviders": "supported", "agentRuntime": "supported"}

// Specs lists the spec versions `new --spec` accepts, the default first.
var Specs = []string{SpecV2, SpecV1}

// resolveSpec normalizes the spec answer and picks the engines range that
// goes with it when the range was left empty or at the other spec's default.
// Answers without a spec (built before v2 existed) that ask for the v1
// range are v1.
func (a *PackAnswers) resolveSpec() error {
	s := strings.ToLower(strings.TrimSpace(a.Spec))
	if s == "" && a.Engines == EnginesV1 {
		s = SpecV1
	}
	switch s {
	case "", "v2", "2":
		a.Spec = SpecV2
		if a.Engines == "" {
			a.Engines = EnginesV2
		}
	case "v1", "1":
		a.Spec = SpecV1
		if a.Engines == "" || a.Engines == EnginesV2 {
			a.Engines = EnginesV1
		}
	default:
		fe := fieldErrorf("spec", "unknown spec %q", a.Spec)
		fe.Hint = "use --spec v2 (the default) or --spec v1"
		return FieldErrors{fe}
	}
	return nil
}

// kind is the pack.json kind: written for v2 only (v1 reads its absence as
// node, v2 requires it).
func (a *PackAnswers) kind() string {
	if a.Spec == SpecV2 {
		return "node"
	}
	return ""
}

// KeySignMethod is the Ed25519 signing method a pack of spec is signed
// with: "manual" (the v1 signing block) for a v1 pack, "v2"
// (ed25519-canonical-json) otherwise. Signing a pack with the other spec's
// method is refused (sign_spec_mismatch), so the wizard offers this one.
func KeySignMethod(spec string) string {
	if s := strings.ToLower(strings.TrimSpace(spec)); s == SpecV1 || s == "1" {
		return "manual"
	}
	return "v2"
}

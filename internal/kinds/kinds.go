// Package kinds is the one home of what wopkit knows about each kind of
// document it reads and writes: the kind names `validate --json` reports,
// the spec versions, the schema each (spec, kind) is checked against, and
// one row per pack kind (Packs) with everything the readers of packs need
// (its pack.json "kind" value, content member and id key, nouns, the
// registry index's count member, its rules' prefix and docs section).
// Detection (Detect, DetectSpec) lives here too, so that signing,
// verifying and inspecting need no validator.
//
// It sits at the bottom: it imports jsondoc and semver only. A package
// other than this one that spells a pack kind's name as a string is a
// second home for a fact (TestKindNamesLiveInTheTable fails).
package kinds

import "sync"

// Kind is the kind of a document, as named in `validate --json`. The names
// are stable: new kinds get new names, existing ones never change.
type Kind string

// The document kinds that are not packs (the pack kinds, NodePack, … are
// in packs.go, beside their rows).
const (
	Agent        Kind = "agent"
	AgentRef     Kind = "agent-ref"
	EvalSuite    Kind = "eval-suite"
	ToolManifest Kind = "tool-manifest"
	Tarball      Kind = "tarball"
	OtherPack    Kind = "other-pack" // a pack kind no schema covers
	Prompt       Kind = "prompt"     // a system prompt file referenced by an agent
	JSONSchema   Kind = "json-schema"
	Unknown      Kind = "unknown"
	// The registry's version manifest (the x.json served beside x.tgz).
	VersionManifest Kind = "version-manifest"
	PromptRef       Kind = "prompt-ref"
)

// Spec is the OpenWOP spec version a document is checked against.
type Spec string

// The spec versions. SpecAuto detects it from the document (DetectSpec).
const (
	SpecAuto Spec = ""
	V1       Spec = "v1"
	V2       Spec = "v2"
)

// ParseSpec accepts a spec version as given to `--spec` ("" is auto).
func ParseSpec(s string) (Spec, bool) {
	switch sp := Spec(s); sp {
	case SpecAuto, V1, V2:
		return sp, true
	}
	return "", false
}

// schemaRow is one row of the schema table: documents of Kind under Spec
// are checked against the schema with $id ID. Detection, validation, field
// help and `--schemas DIR` overrides (which replace a schema by $id) all go
// through this table. A (spec, kind) without a row is recognised but not
// schema-checked. Spec "" matches any spec (tool manifests are not OpenWOP
// documents). A pack kind's rows come from its row in packs (V1Schema,
// V2Schema).
type schemaRow struct {
	Spec Spec
	Kind Kind
	ID   string
}

const (
	v1Seed = "https://openwop.dev/spec/v1/" // the seed contract (and the registry's v1 kind schemas)
	v2Spec = "https://openwop.dev/spec/v2/"
)

// schemaTable is, for each spec, the node pack's row, the documents that
// are not packs, the other pack kinds in table order, then the version
// manifest; the tool manifest last (All lists the kinds in this order).
// Built on first use, so that start-up pays nothing for it.
var schemaTable = sync.OnceValue(func() []schemaRow {
	var out []schemaRow
	for _, spec := range []struct {
		spec Spec
		base string
	}{{V1, v1Seed}, {V2, v2Spec}} {
		row := func(k Kind, file string) {
			if file != "" {
				out = append(out, schemaRow{spec.spec, k, spec.base + file})
			}
		}
		for i, p := range packs {
			if i == 1 { // after the node pack, the documents it holds
				for _, d := range []struct {
					kind Kind
					file string
				}{{Agent, "agent-manifest.schema.json"}, {AgentRef, "agent-ref.schema.json"},
					{EvalSuite, "agent-eval-suite.schema.json"}, {PromptRef, "prompt-ref.schema.json"}} {
					row(d.kind, d.file)
				}
			}
			row(p.Doc, map[Spec]string{V1: p.V1Schema, V2: p.V2Schema}[spec.spec])
		}
		row(VersionManifest, "registry-version-manifest.schema.json")
	}
	return append(out, schemaRow{SpecAuto, ToolManifest, "https://toolspace.yepgent.com/schemas/install-manifest-v0.4.json"})
})

// SchemaIDFor returns the $id of the schema that checks kind k under spec
// (SpecAuto means v1, the contract of documents that do not say), or "".
func SchemaIDFor(spec Spec, k Kind) string {
	if spec == SpecAuto {
		spec = V1
	}
	for _, r := range schemaTable() {
		if r.Kind == k && (r.Spec == spec || r.Spec == SpecAuto) {
			return r.ID
		}
	}
	return ""
}

// All returns every kind `--kind` accepts, in table order.
func All() []Kind {
	var out []Kind
	seen := map[Kind]bool{}
	for _, r := range schemaTable() {
		if !seen[r.Kind] {
			seen[r.Kind] = true
			out = append(out, r.Kind)
		}
	}
	return out
}

// Parse accepts a kind name as given to `--kind`.
func Parse(s string) (Kind, bool) {
	for _, k := range All() {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

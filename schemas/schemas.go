// Package schemas embeds the JSON Schemas wopkit validates against. They are
// the contract and are never read from ../shared at run time:
//
//   - *.json: the OpenWOP v1 seed schemas (node pack, agent, agent ref, prompt
//     ref, eval suite) and the toolspace install-manifest schema. They stay the
//     contract for v1 documents of those kinds.
//   - registry-v1/: the registry's own v1 schemas for the kinds the seeds do
//     not cover (workflow-chain, prompt, card, form-content, artifact-type,
//     the registry version manifest, ...), from openwop/openwop-registry.
//   - v2/: the OpenWOP v2 schema set (RFC 0177, $id https://openwop.dev/spec/v2/…)
//     as gathered from the OpenWOP spec and the registry's v2 tree (each
//     file's $id says which). Where the spec's copy and the registry's
//     differ, wopkit decided:
//   - prompt-pack-manifest: the published schema still declares the v1
//     signing block, which the registry's own published prompt pack
//     (vendor.openwop.prompt-sample@1.0.1, signed {keyId, scheme}) fails;
//     wopkit follows what the registry accepts and replaces properties.signing
//     with the v2 {keyId, scheme} block (recorded in the file's $comment).
//   - ids and workflow-chain-pack-manifest (issue 18): RFC 0177 §E.1 has a
//     chain reference carry the exact pin <typeId>@<major>.<minor>.<patch>
//     and the host refuse an unpinned or ranged one at register; the chain
//     schema's own FragmentNode.typeId description says so, yet it $refs
//     ids' typeId, whose pattern admits no @, so every pinned chain the
//     registry publishes (core.openwop.workflows.*) failed it with a
//     misleading hint. wopkit adds $defs/chainTypeRef to ids.schema.json
//     (typeId with an optional exact pin; no range, no prerelease) and the
//     chain schema's FragmentNode.typeId and compensation.nodeTypeId $ref it
//     (recorded in each $comment). Node packs' own typeIds keep the unpinned
//     grammar. Unpinned stays valid, as the schema says; lint rule WC010
//     warns on it, WC007 refuses a range.
//   - node-pack-manifest: the spec's copy (@11ad780, with RFC 0203
//     runtime.mcpServer) is embedded unchanged; the registry's vendored copy
//     (@c725049) has no mcpServer, which lint rule PK005 reports.
//
// They are read only through internal/validate, which registers them by $id
// (Index) and decodes and compiles each on first use.
package schemas

import "embed"

// FS holds every schema file of this directory and its v2/ and registry-v1/
// subdirectories.
//
//go:embed *.json v2/*.json registry-v1/*.json
var FS embed.FS

// Index maps each embedded schema's $id to its file in FS, so a schema is
// decoded only when a document needs it. TestIndex checks it against the files.
var Index = map[string]string{
	"https://openwop.dev/spec/v1/agent-eval-suite.schema.json":             "agent-eval-suite.schema.json",
	"https://openwop.dev/spec/v1/agent-manifest.schema.json":               "agent-manifest.schema.json",
	"https://openwop.dev/spec/v1/agent-ref.schema.json":                    "agent-ref.schema.json",
	"https://toolspace.yepgent.com/schemas/install-manifest-v0.4.json":     "install-manifest-v0.4.json",
	"https://openwop.dev/spec/v1/node-pack-manifest.schema.json":           "node-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/prompt-ref.schema.json":                   "prompt-ref.schema.json",
	"https://openwop.dev/spec/v2/agent-eval-suite.schema.json":             "v2/agent-eval-suite.schema.json",
	"https://openwop.dev/spec/v2/agent-manifest.schema.json":               "v2/agent-manifest.schema.json",
	"https://openwop.dev/spec/v2/agent-ref.schema.json":                    "v2/agent-ref.schema.json",
	"https://openwop.dev/spec/v2/artifact-type-pack-manifest.schema.json":  "v2/artifact-type-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/chat-card-pack-manifest.schema.json":      "v2/chat-card-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/connection-pack-manifest.schema.json":     "v2/connection-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/form-content-pack-manifest.schema.json":   "v2/form-content-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/frontend-plugin-manifest.schema.json":     "v2/frontend-plugin-manifest.schema.json",
	"https://openwop.dev/spec/v2/ids.schema.json":                          "v2/ids.schema.json",
	"https://openwop.dev/spec/v2/node-pack-manifest.schema.json":           "v2/node-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/pack-lockfile.schema.json":                "v2/pack-lockfile.schema.json",
	"https://openwop.dev/spec/v2/prompt-kind.schema.json":                  "v2/prompt-kind.schema.json",
	"https://openwop.dev/spec/v2/prompt-pack-manifest.schema.json":         "v2/prompt-pack-manifest.schema.json",
	"https://openwop.dev/spec/v2/prompt-ref.schema.json":                   "v2/prompt-ref.schema.json",
	"https://openwop.dev/spec/v2/prompt-template.schema.json":              "v2/prompt-template.schema.json",
	"https://openwop.dev/spec/v2/registry-version-manifest.schema.json":    "v2/registry-version-manifest.schema.json",
	"https://openwop.dev/spec/v2/security-advisory.schema.json":            "v2/security-advisory.schema.json",
	"https://openwop.dev/spec/v2/workflow-chain-pack-manifest.schema.json": "v2/workflow-chain-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/artifact-type-pack-manifest.schema.json":  "registry-v1/artifact-type-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/chat-card-pack-manifest.schema.json":      "registry-v1/chat-card-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/form-content-pack-manifest.schema.json":   "registry-v1/form-content-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/pack-lockfile.schema.json":                "registry-v1/pack-lockfile.schema.json",
	"https://openwop.dev/spec/v1/prompt-kind.schema.json":                  "registry-v1/prompt-kind.schema.json",
	"https://openwop.dev/spec/v1/prompt-pack-manifest.schema.json":         "registry-v1/prompt-pack-manifest.schema.json",
	"https://openwop.dev/spec/v1/prompt-template.schema.json":              "registry-v1/prompt-template.schema.json",
	"https://openwop.dev/spec/v1/registry-version-manifest.schema.json":    "registry-v1/registry-version-manifest.schema.json",
	"https://openwop.dev/spec/v1/security-advisory.schema.json":            "registry-v1/security-advisory.schema.json",
	"https://openwop.dev/spec/v1/workflow-chain-pack-manifest.schema.json": "registry-v1/workflow-chain-pack-manifest.schema.json",
}

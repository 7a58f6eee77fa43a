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

import (
	"embed"
	"path"
)

// FS holds every schema file of this directory and its v2/ and registry-v1/
// subdirectories.
//
//go:embed *.json v2/*.json registry-v1/*.json
var FS embed.FS

// Index maps each embedded schema's $id to its file in FS, so a schema is
// decoded only when a document needs it. A file's $id is its folder's base
// and its name (v2/x.json is https://openwop.dev/spec/v2/x.json; x.json and
// registry-v1/x.json are …/spec/v1/x.json), the tool manifest's aside, so
// that a schema added to a folder needs no line here; TestIndex checks
// every file's $id against it.
var Index = func() map[string]string {
	const v1, v2 = "https://openwop.dev/spec/v1/", "https://openwop.dev/spec/v2/"
	outside := map[string]string{ // files whose $id is not their folder's
		"install-manifest-v0.4.json": "https://toolspace.yepgent.com/schemas/install-manifest-v0.4.json",
	}
	out := map[string]string{}
	for _, d := range []struct{ dir, base string }{{".", v1}, {"v2", v2}, {"registry-v1", v1}} {
		entries, err := FS.ReadDir(d.dir)
		if err != nil {
			panic(err) // the folders are embedded: a build defect
		}
		for _, e := range entries {
			file := path.Join(d.dir, e.Name())
			if e.IsDir() || path.Ext(file) != ".json" {
				continue
			}
			id := d.base + e.Name()
			if o, ok := outside[file]; ok {
				id = o
			}
			out[id] = file
		}
	}
	return out
}()

package scaffold

import (
	"slices"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/werr"
)

// UpgradableToolVersions are the manifest versions UpgradeTool moves to
// ToolManifestVersion (v0.4 is additive over them: only the version changes).
var UpgradableToolVersions = []string{"0.3", "0.3.1"}

// UpgradeTool returns a tool manifest's bytes with manifest_version set to
// ToolManifestVersion and every other byte unchanged. already reports a
// manifest that is at that version (src is returned as it is). where names
// the file in errors.
func UpgradeTool(src []byte, where string) (out []byte, already bool, err error) {
	doc, perr := jsondoc.Parse(src)
	if perr != nil {
		return nil, false, werr.Wrap(werr.Invalid, "tool_manifest_invalid", perr, "%s is not valid JSON", where).
			WithHint("fix the JSON first (`wopkit validate %s` shows where)", where)
	}
	mv := doc.Lookup("/manifest_version")
	if mv == nil || mv.Kind != jsondoc.String {
		return nil, false, werr.New(werr.Invalid, "tool_manifest_invalid", "%s has no string \"manifest_version\": it is not a tool install manifest", where).
			WithHint("pass a tool install manifest (v0.3 or v0.3.1)")
	}
	if mv.Str == ToolManifestVersion {
		return src, true, nil
	}
	if slices.Index(UpgradableToolVersions, mv.Str) < 0 {
		l, c := doc.Position(mv.Start)
		return nil, false, werr.New(werr.Invalid, "tool_version_unsupported", "%s:%d:%d: manifest_version %q cannot be upgraded", where, l, c, mv.Str).
			WithHint("wopkit upgrades 0.3 and 0.3.1 manifests to %s", ToolManifestVersion)
	}
	out, err = jsonedit.Set(src, "/manifest_version", ToolManifestVersion)
	return out, false, err
}

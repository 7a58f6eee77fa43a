package registry

import (
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// DecodeTop decodes a registry document or a pack.json, which must be a
// JSON object, into v (a pointer to a struct with json tags) the way the
// registry's Node scripts read it: untrusted.DecodeJSON, so a member fills
// a field only under its exact name ("PublicKeyUrl" is not publicKeyUrl),
// a member named twice in one object in any letter case is refused
// (json_duplicate_member), and size, depth and values are bounded. Only
// the members v names are decoded; the rest are checked and skipped.
func DecodeTop(data []byte, v any) error {
	i := 0
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	if i >= len(data) || data[i] != '{' {
		return werr.New(werr.Invalid, untrusted.CodeJSONInvalid, "not a JSON object").
			WithHint("a registry document and a pack.json are each one JSON object")
	}
	return untrusted.DecodeJSON(data, v)
}

// Package schemas embeds the JSON Schemas wopkit validates against (the seed
// contract from the OpenWOP spec and the toolspace install-manifest spec).
// They are read only through internal/validate, which registers them by $id.
package schemas

import "embed"

// FS holds every *.json schema file of this directory.
//
//go:embed *.json
var FS embed.FS

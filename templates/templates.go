// Package templates embeds the text/template files `wopkit new` renders
// (see README.md in this directory for how to add a runtime). They are read
// only through internal/scaffold.
package templates

import "embed"

// FS holds every template, license text and runtime description.
//
//go:embed README.md pack agent licenses runtimes
var FS embed.FS

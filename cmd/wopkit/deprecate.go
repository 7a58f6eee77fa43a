package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/publish"
)

// newDeprecateCmd builds `wopkit deprecate NAME@VERSION` (newLifecycleCmd,
// yank.go, builds both lifecycle verbs).
func newDeprecateCmd() *cobra.Command {
	return newLifecycleCmd(&cobra.Command{
		Use:   "deprecate NAME@VERSION",
		Short: "Record in a registry checkout that a published version is deprecated",
		Long: "deprecate sets versionDeprecated (v1 tree: deprecated), deprecationReason and, with --superseded-by,\n" +
			"supersededBy in the version manifest and rebuilds the per-pack and registry indexes, as the\n" +
			"registry records deprecations. A version that supersedes must be published and not yanked. The\n" +
			"files are written as one transaction inside the registry root, as publish writes them.",
		Example: "  wopkit deprecate vendor.acme.hello@1.0.1 --registry ../openwop-registry --reason \"use 1.1\" --superseded-by 1.1.0",
	}, publish.Deprecate, true)
}

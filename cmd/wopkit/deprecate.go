package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/publish"
)

// newDeprecateCmd builds `wopkit deprecate NAME@VERSION`.
func newDeprecateCmd() *cobra.Command {
	o := &lifecycleOptions{}
	cmd := &cobra.Command{
		Use:   "deprecate NAME@VERSION",
		Short: "Record in a registry checkout that a published version is deprecated",
		Long: "deprecate sets versionDeprecated (v1 tree: deprecated), deprecationReason and, with --superseded-by,\n" +
			"supersededBy in the version manifest and rebuilds the per-pack and registry indexes, as the\n" +
			"registry records deprecations. A version that supersedes must be published and not yanked. The\n" +
			"files are written as one transaction inside the registry root, as publish writes them.",
		Example: "  wopkit deprecate vendor.acme.hello@1.0.1 --registry ../openwop-registry --reason \"use 1.1\" --superseded-by 1.1.0",
		Args:    usageArgs(cobra.ExactArgs(1)),
		PreRunE: func(*cobra.Command, []string) error { return o.check() },
		RunE: func(cmd *cobra.Command, args []string) error {
			name, version, err := nameAtVersion(args[0])
			if err != nil {
				return err
			}
			unlock, err := publish.LockRegistry(o.Tree.Registry)
			if err != nil {
				return err
			}
			defer unlock()
			plan, err := publish.Deprecate(publish.LifecycleOptions{Registry: o.Tree.Registry, Spec: o.Tree.Spec,
				Name: name, Version: version, Reason: o.Reason, DryRun: o.DryRun, SupersededBy: o.SupersededBy})
			if err != nil {
				return err
			}
			return finishPlan(cmd, plan, o.DryRun, o.Output.JSON)
		},
	}
	o.addFlags(cmd, true)
	return cmd
}

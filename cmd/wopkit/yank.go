package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/publish"
)

// newYankCmd builds `wopkit yank NAME@VERSION`.
func newYankCmd() *cobra.Command {
	return newLifecycleCmd(&cobra.Command{
		Use:   "yank NAME@VERSION",
		Short: "Record in a registry checkout that a published version was published in error",
		Long: "yank sets yanked and yankedReason in the version manifest and rebuilds the per-pack and registry\n" +
			"indexes, as the registry's lifecycle runbook does. The tarball, signature and SBOM stay (a yanked\n" +
			"version stays served); in the v2 tree latest moves to the highest version not yanked. The files are\n" +
			"written as one transaction inside the registry root, as publish writes them.",
		Example: "  wopkit yank vendor.acme.hello@1.0.1 --registry ../openwop-registry --reason \"OPENWOP-2026-0007: leaks tokens\"",
	}, publish.Yank, false)
}

// newLifecycleCmd completes cmd (its words given) as a lifecycle verb of
// a published version, yank or deprecate: NAME@VERSION, the registry
// locked, the change planned by change and written (or listed with
// --dry-run) as publish writes; superseded adds --superseded-by.
func newLifecycleCmd(cmd *cobra.Command, change func(publish.LifecycleOptions) (*publish.Plan, error), superseded bool) *cobra.Command {
	o := &lifecycleOptions{}
	cmd.Args = usageArgs(cobra.ExactArgs(1))
	cmd.PreRunE = func(*cobra.Command, []string) error { return o.check() }
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		name, version, err := nameAtVersion(args[0])
		if err != nil {
			return err
		}
		unlock, err := publish.LockRegistry(o.Tree.Registry)
		if err != nil {
			return err
		}
		defer unlock()
		plan, err := change(publish.LifecycleOptions{Registry: o.Tree.Registry, Spec: o.Tree.Spec,
			Name: name, Version: version, Reason: o.Reason, DryRun: o.DryRun, SupersededBy: o.SupersededBy})
		if err != nil {
			return err
		}
		return finishPlan(cmd, plan, o.DryRun, o.Output.JSON)
	}
	o.addFlags(cmd, superseded)
	return cmd
}

func (o *lifecycleOptions) addFlags(cmd *cobra.Command, superseded bool) {
	o.Tree.AddFlags(cmd)
	f := cmd.Flags()
	f.StringVar(&o.Reason, "reason", "", "one-line rationale clients show (required; at most 512 characters)")
	if superseded {
		f.StringVar(&o.SupersededBy, "superseded-by", "", "the version (or NAME@VERSION) that replaces this one")
	}
	f.BoolVar(&o.DryRun, "dry-run", false, "list the files that would change, and the index entries' diff; write nothing")
	o.Output.AddFlags(cmd)
}

func (o *lifecycleOptions) check() error {
	if o.Tree.Registry == "" {
		return usageErr("--registry DIR is required", "point it at a checkout of the registry repository")
	}
	if strings.TrimSpace(o.Reason) == "" {
		return usageErr("--reason is required", "say why, in one line: clients show it to users")
	}
	return o.Tree.Validate()
}

// nameAtVersion splits NAME@VERSION.
func nameAtVersion(s string) (string, string, error) {
	i := strings.LastIndex(s, "@")
	if i <= 0 || i == len(s)-1 {
		return "", "", usageErr("expected NAME@VERSION, got "+s, "e.g. vendor.acme.hello@1.0.1")
	}
	return s[:i], s[i+1:], nil
}

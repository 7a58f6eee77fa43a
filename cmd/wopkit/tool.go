package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// newToolCmd groups the commands on agent tool install manifests.
func newToolCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tool",
		Short: "Work on agent tool install manifests",
		Long: "Tool groups the commands on agent tool install manifests. Create one with `wopkit new tool`,\n" +
			"check one with `wopkit validate FILE`.",
		Example: "  wopkit tool upgrade gmail.json\n  wopkit new tool --yes --set tool.id=acme-search",
		Args:    usageArgs(cobra.NoArgs),
	}
	cmd.AddCommand(newToolUpgradeCmd())
	return cmd
}

// toolUpgradeOptions are the flags of `wopkit tool upgrade`.
type toolUpgradeOptions struct {
	Output string
}

// AddFlags registers the flags of `wopkit tool upgrade`.
func (o *toolUpgradeOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "write the upgraded manifest here instead of replacing FILE")
}

// newToolUpgradeCmd moves a v0.3 / v0.3.1 tool manifest to v0.4.
func newToolUpgradeCmd() *cobra.Command {
	o := &toolUpgradeOptions{}
	cmd := &cobra.Command{
		Use:   "upgrade FILE",
		Short: "Upgrade a tool install manifest from 0.3 / 0.3.1 to 0.4",
		Long: "Upgrade sets manifest_version to \"0.4\" (v0.4 is additive over v0.3 and v0.3.1: nothing else\n" +
			"changes, every other byte of the file is kept), validates the result, and writes it atomically,\n" +
			"in place or to -o. An invalid result is not written: its problems are printed instead.",
		Example: "  wopkit tool upgrade gmail.json\n  wopkit tool upgrade gmail.v0.3.json -o gmail.v0.4.json",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runToolUpgrade(cmd, args[0], o)
		},
	}
	o.AddFlags(cmd)
	return cmd
}

func runToolUpgrade(cmd *cobra.Command, file string, o *toolUpgradeOptions) error {
	src, err := untrusted.ReadNamed(file, validate.MaxFileSize)
	if werr.CodeOf(err) != "" {
		return err
	}
	if err != nil {
		return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", file).WithHint("check the path")
	}
	out, already, err := scaffold.UpgradeTool(src, file)
	if err != nil {
		return err
	}
	target := file
	if o.Output != "" {
		target = o.Output
	}
	v, err := validate.New(validate.Options{})
	if err != nil {
		return err
	}
	rep := v.Bytes(target, out, kinds.ToolManifest)
	if !rep.Valid {
		if err := printReport(cmd.ErrOrStderr(), rep); err != nil {
			return err
		}
		return werr.New(werr.Invalid, "tool_upgrade_invalid", "%s is not a valid %s manifest once upgraded; nothing was written", file, scaffold.ToolManifestVersion).
			WithHint("fix the problems above in %s, then upgrade again", file)
	}
	if already && target == file {
		safeLine(cmd.OutOrStdout(), "%s is already a %s manifest", file, scaffold.ToolManifestVersion)
		return nil
	}
	if err := atomicfile.Replace(target, out, 0o644); err != nil {
		return err
	}
	safeLine(summaryOut(cmd, target), "upgraded %s to manifest_version %s: %s", file, scaffold.ToolManifestVersion, target)
	return nil
}

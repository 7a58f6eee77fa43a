package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/verify"
)

// newInspectCmd builds `wopkit inspect TGZ`: entries, sizes, the manifest
// summary, the signing block and the integrity, without verifying anything.
func newInspectCmd() *cobra.Command {
	var out OutputOptions
	cmd := &cobra.Command{
		Use:   "inspect TGZ",
		Short: "Show a tarball's entries, sizes, manifest summary, signing block and integrity",
		Long: "inspect reads the tarball through the safe reader (hostile archives are refused) and describes\n" +
			"it. It trusts nothing and verifies nothing: use `wopkit verify` for that.",
		Example: "  wopkit inspect core.openwop.a2a-1.1.0.tgz\n  wopkit inspect hello-1.0.0.tgz --json | jq .signing",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			info, err := verify.Inspect(args[0], nil)
			if err != nil {
				return err
			}
			return printInspect(cmd.OutOrStdout(), info, out.JSON)
		},
	}
	out.AddFlags(cmd)
	return cmd
}

func printInspect(w io.Writer, info *verify.Info, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(info)
	}
	m := info.Manifest
	fmt.Fprintf(w, "%s: %d bytes, integrity %s\n", info.Path, info.Size, info.Integrity)
	kind := m.Kind
	if kind == "" {
		kind = "node"
	}
	fmt.Fprintf(w, "pack:      %s %s (%s pack: %d nodes, %d agents; runtime %s %s)\n", m.Name, m.Version, kind, m.Nodes, m.Agents, m.Runtime, m.Entry)
	if m.Description != "" {
		fmt.Fprintf(w, "           %s\n", m.Description)
	}
	signing := "none in pack.json (unsigned, or a legacy ed25519 pack signed over the whole .tgz by its detached .sig)"
	if len(info.Signing) > 0 {
		signing = string(info.Signing)
	}
	fmt.Fprintf(w, "signing:   %s\n", signing)
	canon := "no: pack.json is not in canonical (JCS) form"
	if info.Canonical {
		canon = "yes: pack.json is its own canonical (JCS) form"
	}
	fmt.Fprintf(w, "canonical: %s\n", canon)
	fmt.Fprintf(w, "entries:   %d files, %d bytes unpacked\n", len(info.Entries), info.Unpacked)
	for _, e := range info.Entries {
		fmt.Fprintf(w, "  %s %10d  %s\n", fs.FileMode(e.Mode).Perm(), e.Size, e.Name)
	}
	return nil
}

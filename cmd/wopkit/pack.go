package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newPackCmd is a placeholder until the pack verb lands.
func newPackCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "pack",
		Short: "(pack: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "pack is not implemented yet")
		},
	}
}

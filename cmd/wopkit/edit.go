package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newEditCmd is a placeholder until the edit verb lands.
func newEditCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "edit",
		Short: "(edit: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "edit is not implemented yet")
		},
	}
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newNewCmd is a placeholder until the new verb lands.
func newNewCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "new",
		Short: "(new: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "new is not implemented yet")
		},
	}
}

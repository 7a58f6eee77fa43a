package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newToolCmd is a placeholder until the tool verb lands.
func newToolCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tool",
		Short: "(tool: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "tool is not implemented yet")
		},
	}
}

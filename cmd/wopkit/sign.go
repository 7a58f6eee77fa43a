package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newSignCmd is a placeholder until the sign verb lands.
func newSignCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "sign",
		Short: "(sign: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "sign is not implemented yet")
		},
	}
}

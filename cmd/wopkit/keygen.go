package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newKeygenCmd is a placeholder until the keygen verb lands.
func newKeygenCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "keygen",
		Short: "(keygen: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "keygen is not implemented yet")
		},
	}
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/werr"
)

// newVerifyCmd is a placeholder until the verify verb lands.
func newVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "(verify: not yet implemented)",
		RunE: func(*cobra.Command, []string) error {
			return werr.New(werr.Env, "not_implemented", "verify is not implemented yet")
		},
	}
}

package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newVersionCmd prints the wopkit version.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the wopkit version",
		Example: "  wopkit version",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "wopkit "+version)
			return err
		},
	}
}

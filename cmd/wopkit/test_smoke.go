package main

import (
	"github.com/spf13/cobra"
)

// runSmoke is `wopkit test --smoke` (the registry's pre-PR smoke test):
// not in this build yet.
func runSmoke(cmd *cobra.Command, dir string, names []string, o *TestOptions, asJSON bool) error {
	return usageErr("wopkit test --smoke is not yet available", "run `wopkit test` (the stored cases) or `wopkit validate --run-entry`")
}

// Command wopkit authors, validates, packs, signs and verifies OpenWOP packs
// and agent tool install manifests. This file only builds the root command,
// runs it through fang and maps the returned error to an exit code; it is the
// only caller of os.Exit.
package main

import (
	// First: tunes the collector before the heavy package inits run.
	_ "github.com/openwop/wopkit/internal/gctune"

	"context"
	"os"
	"strings"

	"charm.land/fang/v2"

	"github.com/openwop/wopkit/internal/werr"
)

func main() {
	root := newRootCmd()
	err := fang.Execute(context.Background(), root,
		fang.WithVersion(version),
		fang.WithNotifySignal(os.Interrupt),
		fang.WithErrorHandler(printError),
	)
	os.Exit(exitCode(err))
}

// exitCode applies the exit-code table of werr, treating cobra's own flag and
// argument complaints as usage errors.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if isCobraUsageError(err) {
		return int(werr.Usage)
	}
	return werr.ExitCode(err)
}

func isCobraUsageError(err error) bool {
	s := err.Error()
	for _, p := range []string{"flag needs an argument", "unknown flag", "unknown shorthand flag",
		"unknown command", "invalid argument", "accepts ", "requires at least", "requires at most",
		"if any flags in the group", "none of the others can be", "required flag"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

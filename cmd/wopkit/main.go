// Command wopkit authors, validates, packs, signs and verifies OpenWOP packs
// and agent tool install manifests. This file only builds the root command,
// runs it through fang and maps the returned error to an exit code; it is the
// only caller of os.Exit.
package main

import (
	// First: tunes the collector before the heavy package inits run.
	_ "github.com/openwop/wopkit/internal/gctune"

	"context"
	"errors"
	"os"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
)

func main() {
	root := newRootCmd()
	if helpAsked(os.Args[1:]) {
		// Help is laid out in columns padded to the terminal's width: the
		// padding is not written (no trailing blanks in a pipe or a log).
		root.SetOut(termsafe.NewTrimFile(os.Stdout))
	}
	err := fang.Execute(context.Background(), root,
		// The build info is read here, not in an init: no command pays for
		// it while the program starts.
		fang.WithVersion(readBuildInfo().Version),
		fang.WithNotifySignal(os.Interrupt),
		fang.WithErrorHandler(printError),
	)
	os.Exit(exitCode(err))
}

// helpAsked reports whether the command line asks for help: -h or --help
// before a "--", "help" as the first word, or no words at all.
func helpAsked(args []string) bool {
	if len(args) == 0 || args[0] == "help" {
		return true
	}
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// exitCode applies the exit-code table of werr. An error that carries no
// class and did not come from a command's own code (see markRun) is one of
// cobra's flag, argument or command-name complaints: a usage error. Nothing
// here reads the error's text.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if c, ok := werr.ClassOf(err); ok {
		return int(c)
	}
	var r *runError
	if errors.As(err, &r) {
		return int(werr.Env)
	}
	return int(werr.Usage)
}

// runError marks an error returned by a command's own code (its RunE or
// pre/post hooks) rather than by cobra's parsing and checks.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// markRun wraps the hooks of cmd and of every command below it so that their
// errors are marked as runError.
func markRun(cmd *cobra.Command) {
	for _, h := range []*func(*cobra.Command, []string) error{&cmd.PersistentPreRunE, &cmd.PreRunE, &cmd.RunE, &cmd.PostRunE, &cmd.PersistentPostRunE} {
		if orig := *h; orig != nil {
			*h = func(c *cobra.Command, args []string) error {
				if err := orig(c, args); err != nil {
					return &runError{err}
				}
				return nil
			}
		}
	}
	for _, sub := range cmd.Commands() {
		markRun(sub)
	}
}

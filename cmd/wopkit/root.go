package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// version is the wopkit version: set at link time (-ldflags "-X
// main.version=...") or, when not, the module version of the build info
// (see version.go; `go install .../cmd/wopkit@v1.2.3` records v1.2.3).
var version string

// newRootCmd builds the wopkit command tree. Every verb is registered here,
// in one list; each verb lives in its own file.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "wopkit",
		Short: "Author, validate, pack, sign and verify OpenWOP packs and tool manifests",
		Long: "wopkit authors OpenWOP packs (nodes, agents, eval suites) and agent tool install manifests,\n" +
			"checks them against the JSON Schemas and the rules the schemas cannot express, and packs\n" +
			"and signs them in the exact format the public OpenWOP registry publishes.",
		Example:       "  wopkit new\n  wopkit validate ./my-pack\n  wopkit pack ./my-pack --sign manual --key me.key --key-id me-1\n  wopkit verify my-pack-1.0.0.tgz --registry ./registry",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		hint := "run the command with --help to see its flags"
		if near := nearFlag(c, err); near != "" { // cobra suggests commands only
			hint = "did you mean --" + near + "? " + hint
		}
		return werr.Wrap(werr.Usage, "usage", err, "bad flag").WithHint("%s", hint)
	})
	root.AddCommand(
		newNewCmd(),
		newEditCmd(),
		newValidateCmd(),
		newPackCmd(),
		newSignCmd(),
		newVerifyCmd(),
		newInspectCmd(),
		newDiffCmd(),
		newBumpCmd(),
		newPublishCmd(),
		newYankCmd(),
		newDeprecateCmd(),
		newKeygenCmd(),
		newKeychainCmd(),
		newToolCmd(),
		newMigrateCmd(),
		newLspCmd(),
		newRunCmd(),
		newTestCmd(),
		newChainCmd(),
		newEvalCmd(),
		newVersionCmd(),
	)
	markRun(root)
	return root
}

// nearFlag is the flag of c nearest to the unknown long flag err names
// ("unknown flag: --strikt"), "" when none is near (issue 35, item 8).
func nearFlag(c *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	name, _, _ = strings.Cut(name, "=")
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return words.Nearest(name, names)
}

// printError is fang's error handler: one line on stderr, the message already
// saying what is wrong, where, and what to do.
func printError(w io.Writer, _ fang.Styles, err error) {
	if errors.Is(err, errSilent) {
		return
	}
	fmt.Fprintln(w, "wopkit: "+termsafe.Lines(err.Error()))
}

// errSilent is returned by commands that already reported their failure (for
// example validate, whose problems are the output) and only need the exit code.
var errSilent = &werr.Error{Class: werr.Invalid, Code: "reported", Msg: "problems reported above"}

// usageArgs wraps a cobra positional-argument check so that its failure is a
// usage error (exit 2).
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return werr.Wrap(werr.Usage, "usage", err, "wrong arguments").WithHint("see `%s --help`", cmd.CommandPath())
		}
		return nil
	}
}

// writeJSON prints one value as one line of JSON, without HTML escaping (so
// "<", ">" and "&" in messages stay as they are): every --json output.
func writeJSON(w io.Writer, v any) error {
	return termsafe.WriteJSON(w, v, "")
}

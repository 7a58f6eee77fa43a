package proc

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// starters are the calls and types that start a process.
var starters = map[string][]string{
	"os":                       {"StartProcess"},
	"os/exec":                  {"Command", "CommandContext", "Cmd"},
	"syscall":                  {"Exec", "ForkExec", "StartProcess"},
	"golang.org/x/sys/unix":    {"Exec", "ForkExec"},
	"golang.org/x/sys/execabs": {"Command", "CommandContext", "Cmd"},
}

// startsListed are the process starts outside this package, by file and
// enclosing function, with why each may. A new one fails the test until it
// goes through proc or is listed here with a reason a reviewer accepts; an
// entry whose start is gone fails too.
var startsListed = map[string]string{
	"internal/sandbox/run_linux.go:start":     "the OW017 sandbox re-executes wopkit itself (/proc/self/exe) with only the environment its caller built (node's: NODE_OPTIONS= and NO_COLOR=1), in its own process group",
	"internal/sandbox/child_linux.go:child":   "the sandbox's child replaces itself with the program once the seccomp filter and limits are in place",
	"internal/fixtures/ajv.go:npmInstall":     "test support (never in wopkit): npm installs ajv into a test folder",
	"internal/fixtures/ajv.go:AjvSchemas":     "test support (never in wopkit): node runs ajv as an independent schema check",
	"internal/fixtures/wopkit.go:BuildWopkit": "test support (never in wopkit): the go command builds the binary the terminal, editor and kill tests drive",
}

// TestProgramsStartOnlyThroughProc is the process door's guard: it fails
// when code outside internal/proc starts a program another way.
func TestProgramsStartOnlyThroughProc(t *testing.T) {
	t.Parallel()
	found := guard.Find(t, filepath.Join("..", ".."), []string{"internal/proc"}, starters)
	guard.Check(t, found, startsListed, func(k, where string) string {
		return fmt.Sprintf("%s starts a program outside internal/proc (%s): build the command with proc.Command (clean environment, a working folder of wopkit's choosing), proc.Editor or proc.Git; if it cannot, add %q to startsListed with the reason", k, where, k)
	})
}

// Package proc is wopkit's one door for starting programs. A program wopkit
// starts never reads configuration from the folder wopkit was run in (which
// may be a stranger's download or checkout): it gets a clean environment
// and a working folder of wopkit's choosing, and git gets its repository
// configuration, hooks and fsmonitor turned off.
//
// Code outside this package does not start processes (os/exec,
// os.StartProcess, syscall.Exec, syscall.ForkExec): guard_test.go fails on a
// new one unless it is listed with its reason. The OW017 sandbox
// (internal/sandbox) is listed: it re-executes wopkit itself with only the
// environment its caller built, then replaces itself with node under
// seccomp and limits.
package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LookPath finds a program on PATH (it starts nothing).
func LookPath(name string) (string, error) { return exec.LookPath(name) }

// Command returns the command that runs the program at path with args, in
// dir, with exactly env (nothing inherited: not PATH, not HOME, not a
// variable that redirects the program's configuration). dir must not be a
// folder wopkit was pointed at: use os.TempDir() when the program needs
// none.
func Command(path string, args []string, dir string, env []string) *exec.Cmd {
	c := exec.Command(path, args...)
	c.Dir = dir
	c.Env = append([]string{}, env...)
	if c.Env == nil {
		c.Env = []string{}
	}
	return c
}

// Editor returns the command that opens file in the author's own editor
// (argv: $VISUAL or $EDITOR split into words). The editor is the author's
// program and gets the author's environment, less the variables that would
// point a git it runs at another repository; it starts in file's folder
// (the system's temporary folder), not in the current folder, so that an
// editor that reads project settings from its working folder (.exrc,
// .editorconfig, .vscode) reads none from a stranger's tree.
func Editor(argv []string, file string) *exec.Cmd {
	c := exec.Command(argv[0], append(argv[1:], file)...)
	c.Dir = filepath.Dir(file)
	c.Env = withoutGit(os.Environ())
	return c
}

// Git returns the command that runs git in dir with no configuration but
// the built-in defaults: no system or global file, the repository's own
// core.fsmonitor and core.hooksPath overridden, no search for a repository
// above dir, no GIT_DIR or GIT_WORK_TREE from the environment. wopkit
// itself runs no git (whether a path is ignored is decided in-process,
// internal/ignore); tests compare with git through it.
func Git(gitPath, dir string, args ...string) *exec.Cmd {
	full := append([]string{
		"-c", "core.fsmonitor=",
		"-c", "core.hooksPath=/dev/null",
		"-c", "core.sshCommand=",
		"-c", "core.pager=cat",
		"-c", "protocol.ext.allow=never",
	}, args...)
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.TempDir(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir),
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
	}
	return Command(gitPath, full, dir, env)
}

// withoutGit drops the variables that point git at another repository or
// configuration.
func withoutGit(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

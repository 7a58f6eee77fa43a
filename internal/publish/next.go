package publish

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/untrusted"
)

// Checkout is the repository a registry root belongs to: the root's
// parent when the root is its registry/ folder (a clone of
// openwop/openwop-registry), else the root itself.
func Checkout(root string) string {
	if filepath.Base(filepath.Clean(root)) == "registry" {
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Clean(root)), ".github")); err == nil {
			return filepath.Dir(filepath.Clean(root))
		}
	}
	return root
}

// workflowRun matches a check a workflow runs: a node script of the
// registry ("node registry/scripts/build-index.mjs --check").
var workflowRun = lazyre.New(`^(?:-\s*)?(?:run:\s*)?(node (?:registry/)?scripts/[A-Za-z0-9._/-]+\.mjs(?: --[a-z-]+)*)\s*$`)

// PRChecks are the checks the registry's pull-request workflows run,
// named from the checkout's .github/workflows (the node scripts of the
// workflows that run on pull requests and write nothing back), in the
// order of the files and their steps, to be
// run from the checkout's folder. None when the checkout holds no
// workflow (a bare registry root).
func PRChecks(checkout string) []string {
	files, _ := filepath.Glob(filepath.Join(checkout, ".github", "workflows", "*.yml"))
	slices.Sort(files)
	var out []string
	for _, f := range files {
		data, err := untrusted.ReadNamed(f, untrusted.MaxDocument)
		// A workflow that commits or pushes is a bot's (auto-register
		// writes the index into the pull request), not a check.
		if err != nil || !strings.Contains(string(data), "pull_request") || strings.Contains(string(data), "git push") || strings.Contains(string(data), "git commit") {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			m := workflowRun.Compiled().FindStringSubmatch(strings.TrimSpace(line))
			if m == nil || slices.Contains(out, m[1]) {
				continue
			}
			out = append(out, m[1])
		}
	}
	return out
}

// PRSteps are the commands that turn a plan written into a checkout into a
// pull request: a branch, the commit, and the checks the pull request
// will run, runnable from the current folder as printed.
func (p *Plan) PRSteps() []string {
	return prSteps(p.Registry, "publish/"+p.Name+"-"+p.Version, "publish "+p.Name+"@"+p.Version)
}

// PRSteps are the commands of the key's onboarding pull request (Plan's).
func (k *KeyPlan) PRSteps() []string {
	return prSteps(k.Registry, "keychain/"+k.KeyID, "keychain: add key "+k.KeyID)
}

func prSteps(root, branch, msg string) []string {
	co := Checkout(root)
	steps := []string{
		"git -C " + shellQuote(co) + " checkout -b " + shellQuote(branch),
		"git -C " + shellQuote(co) + " add -A",
		"git -C " + shellQuote(co) + " commit -m " + shellQuote(msg),
	}
	for _, c := range PRChecks(co) {
		steps = append(steps, "(cd "+shellQuote(co)+" && "+c+")")
	}
	return steps
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

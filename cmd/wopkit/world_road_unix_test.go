//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// road is the author's folder and the registry checkout beside it, as the
// README lays them out (the checkout at ../openwop-registry).
type road struct {
	t          *testing.T
	work, reg  string
	checkout   bool // a work tree of the registry (its scripts and workflows)
	ran        []string
	checksSeen bool
}

// printedRE finds the commands a line prints: after "next: …: ", a
// command between backticks, or an indented command line.
var printedRE = regexp.MustCompile("`((?:wopkit|git) [^`]+)`")

// printed are the commands out prints, in order.
func printed(out string) []string {
	var cmds []string
	for _, line := range strings.Split(out, "\n") {
		for _, m := range printedRE.FindAllStringSubmatch(line, -1) {
			cmds = append(cmds, m[1])
		}
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "next: "):
			for _, start := range []string{": wopkit ", ": cd ", ": git "} {
				if i := strings.LastIndex(line, start); i >= 0 {
					cmds = append(cmds, line[i+2:])
					break
				}
			}
		case strings.HasPrefix(line, "  git ") || strings.HasPrefix(line, "  (cd "):
			cmds = append(cmds, trim)
		}
	}
	return cmds
}

// find is the one printed command that starts with prefix.
func (r *road) find(out, prefix string) string {
	r.t.Helper()
	for _, c := range printed(out) {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	r.t.Fatalf("no printed command starting %q in:\n%s", prefix, out)
	return ""
}

// run runs a printed command exactly as printed, in dir: wopkit's in this
// process, the others with the shell; it returns the output and the exit
// status. A command naming a placeholder fails the test.
func (r *road) run(dir, line string, want int) string {
	r.t.Helper()
	for _, ph := range []string{" DIR", " KEY", " ID", "REGISTRY", "PREFIX"} {
		if strings.Contains(line, ph+" ") || strings.HasSuffix(line, ph) {
			r.t.Fatalf("printed command with a placeholder (%s): %s", ph, line)
		}
	}
	r.ran = append(r.ran, line)
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		r.t.Fatal(err)
	}
	defer os.Chdir(old)
	if rest, ok := strings.CutPrefix(line, "wopkit "); ok {
		out, errOut, code := runCmd(r.t, shellWords(rest)...)
		if code != want {
			r.t.Fatalf("%s (in %s): exit %d, want %d\n%s%s", line, dir, code, want, out, errOut)
		}
		return out + errOut
	}
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	if code != want {
		r.t.Fatalf("%s (in %s): exit %d, want %d\n%s", line, dir, code, want, b)
	}
	return string(b)
}

// prSteps runs the branch and commit commands a step printed, and the
// registry's checks it names when the registry's scripts can run here.
func (r *road) prSteps(out string) {
	r.t.Helper()
	n := 0
	for _, c := range printed(out) {
		switch {
		case strings.HasPrefix(c, "git "):
			r.run(r.work, c, 0)
			n++
		case strings.HasPrefix(c, "(cd "):
			r.checksSeen = true
			if strings.Contains(c, "check-vendored-sync") {
				r.t.Logf("not run (it fetches the upstream spec from GitHub): %s", c)
				continue
			}
			if _, err := exec.LookPath("node"); err != nil {
				r.t.Logf("node not found: not run: %s", c)
				continue
			}
			r.run(r.work, c, 0)
		}
	}
	if n != 3 {
		r.t.Fatalf("%d git steps printed, want 3 (branch, add, commit):\n%s", n, out)
	}
}

// newRoad lays out the author's folder and a registry checkout holding
// doc as its discovery document, a git repository: a work tree of the
// registry (WOPKIT_REGISTRY_CHECKOUT) when given, else a bare registry
// root.
func newRoad(t *testing.T, doc []byte) *road {
	base := t.TempDir()
	r := &road{t: t, work: filepath.Join(base, "work"), reg: filepath.Join(base, "openwop-registry")}
	os.MkdirAll(r.work, 0o755)
	os.MkdirAll(r.reg, 0o755)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found: the road's pull request steps need it")
	}
	wk := filepath.Join(r.reg, ".well-known", "openwop-registry.json")
	if co := os.Getenv(fixtures.RegistryCheckoutEnv); co != "" {
		r.checkout = true
		if out, err := exec.Command("sh", "-c", "git -C \"$1\" archive HEAD | tar -x -C \"$2\"", "sh", co, r.reg).CombinedOutput(); err != nil {
			t.Fatalf("copy of the registry checkout: %v %s", err, out)
		}
		wk = filepath.Join(r.reg, "registry", ".well-known", "openwop-registry.json")
	} else {
		t.Logf("%s is unset: the registry's own checks are not run (a bare registry root instead of its work tree)", fixtures.RegistryCheckoutEnv)
	}
	os.MkdirAll(filepath.Dir(wk), 0o755)
	if err := os.WriteFile(wk, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"git init -q", "git add -A", "git commit -qm checkout"} {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = r.reg
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", c, err, out)
		}
	}
	return r
}

// roadEnv is the environment of the road: no registry named by
// WOPKIT_REGISTRY (the next steps name ../openwop-registry), git's
// identity, no user git configuration.
func roadEnv(t *testing.T) {
	t.Setenv(registryEnv, "")
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(k, "Road Test")
	}
	for _, k := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(k, "road@example.com")
	}
}

// firstRelease walks new → keygen → keychain add (its pull request) →
// pack --sign, each step the command the previous one printed, and
// returns the pack command and the publish command pack printed.
func (r *road) firstRelease() (packCmd, publishCmd string) {
	out := r.run(r.work, "wopkit new pack --yes --set name=vendor.acme.hello --dir hello", 0)
	// A real description: the scaffold's is a placeholder (PH001).
	pj := filepath.Join(r.work, "hello", "pack.json")
	b, _ := os.ReadFile(pj)
	os.WriteFile(pj, []byte(strings.Replace(string(b), `"description": "A new OpenWOP pack."`, `"description": "Says hello, upper-cased."`, 1)), 0o644)
	keygen := r.find(out, "wopkit keygen ")
	out = r.run(r.work, keygen, 0)
	add := r.find(out, "wopkit keychain add ")
	out = r.run(r.work, add, 0)
	if !strings.Contains(out, "publicKeyUrl /keys/acme-1.pub") {
		r.t.Errorf("keychain add does not show the key URL:\n%s", out)
	}
	r.prSteps(out)
	packCmd = r.find(out, "wopkit pack ")
	out = r.run(r.work, packCmd, 0)
	return packCmd, r.find(out, "wopkit publish ")
}

// Issue 44, "Done means": the road from `wopkit new` to a pull request the
// registry merges, and an honest second and third release, every step the
// command the one before printed, run as printed; on a checkout whose
// discovery document advertises v2 (the real v2 registry's, from
// ../shared/spec-v2/registry). With WOPKIT_REGISTRY_CHECKOUT, the checkout
// is a copy of the registry's work tree and the checks its pull-request
// workflows run (as publish prints them) pass over the result.
// Not parallel: it changes the working folder and the environment.
func TestRoadFromNewToPullRequest(t *testing.T) {
	roadEnv(t)
	doc, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := newRoad(t, doc)
	packCmd, publishCmd := r.firstRelease()
	hello := filepath.Join(r.work, "hello")

	// First publish: the tree and why, then the pull request.
	out := r.run(r.work, publishCmd, 0)
	if !strings.Contains(out, "tree v2: .well-known/openwop-registry.json advertises a v2 tree (endpoints.v2)") {
		t.Errorf("publish does not say which tree and why:\n%s", out)
	}
	r.prSteps(out)

	// A compatible change: bump auto (as the README's "Next version"
	// says), pack with the command printed before, publish.
	edit(t, filepath.Join(hello, "pack.json"), `"description": "Says hello, upper-cased."`, `"description": "Says hello, in capitals."`)
	out = r.run(r.work, "wopkit bump auto hello --registry ../openwop-registry", 0)
	if !strings.Contains(out, "0.1.0 → 0.1.1") || !strings.Contains(out, "README.md:8: the version line of the README: 0.1.0 → 0.1.1") {
		t.Errorf("bump auto:\n%s", out)
	}
	// bump's next steps, as printed: pack and sign, then publish.
	if c := r.find(out, "wopkit pack "); c != packCmd {
		t.Errorf("bump prints %q, want the pack command printed before: %q", c, packCmd)
	}
	publishBumped := r.find(out, "wopkit publish ")
	r.run(r.work, packCmd, 0)
	out = r.run(r.work, publishBumped, 0)
	r.prSteps(out)

	// A breaking change, the version raised by hand too little: publish
	// refuses, naming the bump; the bump it names, run as printed in the
	// pack's folder, makes the release publishable.
	var in map[string]any
	ip := filepath.Join(hello, "schemas", "hello.input.json")
	b, _ := os.ReadFile(ip)
	json.Unmarshal(b, &in)
	in["properties"].(map[string]any)["text"].(map[string]any)["maxLength"] = 10
	b, _ = json.MarshalIndent(in, "", "  ")
	os.WriteFile(ip, append(b, '\n'), 0o644)
	edit(t, filepath.Join(hello, "pack.json"), `"version": "0.1.1",`, `"version": "0.1.2",`)
	out = r.run(r.work, packCmd, 1) // the $ids still name 0.1.1
	r.run(r.work, r.find(out, "wopkit validate --fix "), 0)
	out = r.run(r.work, packCmd, 0)
	out = r.run(r.work, r.find(out, "wopkit publish "), 1)
	if !strings.Contains(out, "needs a minor bump") && !strings.Contains(out, "need a minor bump") {
		t.Errorf("publish of a breaking patch:\n%s", out)
	}
	bump := r.find(out, "wopkit bump auto ")
	out = r.run(hello, bump, 0)
	if !strings.Contains(out, "→ 0.2.0") {
		t.Errorf("%s:\n%s", bump, out)
	}
	r.run(r.work, "wopkit validate --strict --for-registry hello", 0)
	r.run(hello, r.find(out, "wopkit pack "), 0) // bump's next steps, run where bump ran
	out = r.run(hello, r.find(out, "wopkit publish "), 0)
	r.prSteps(out)
	if r.checkout && !r.checksSeen {
		t.Error("publish into the registry's work tree printed none of its pull-request checks")
	}
	for _, v := range []string{"0.1.0", "0.1.1", "0.2.0"} {
		if _, err := os.Stat(filepath.Join(r.reg, map[bool]string{true: "registry", false: "."}[r.checkout], "v2", "packs", "vendor.acme.hello", "-", v+".tgz")); err != nil {
			t.Errorf("%s not published: %v", v, err)
		}
	}
	t.Logf("ran, as printed:\n  %s", strings.Join(r.ran, "\n  "))
}

// The same road on a checkout whose discovery document names only /v1/
// endpoints (the real registry's today): the v2 publish is refused,
// registry_tree_unsupported, and nothing is written in the checkout.
func TestRoadOnAV1OnlyCheckoutRefused(t *testing.T) {
	roadEnv(t)
	doc, err := os.ReadFile(filepath.Join(fixtures.Registry(t), ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := newRoad(t, doc)
	_, publishCmd := r.firstRelease()
	out := r.run(r.work, publishCmd, 1)
	if !strings.Contains(out, "advertises only v1") || !strings.Contains(out, "--spec v1") {
		t.Errorf("publish into a v1-only checkout:\n%s", out)
	}
	st := exec.Command("git", "status", "--porcelain")
	st.Dir = r.reg
	if b, err := st.Output(); err != nil || len(b) != 0 {
		t.Errorf("the checkout changed: %v %s", err, b)
	}
}

func edit(t *testing.T, path, from, to string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), from) {
		t.Fatalf("%s lacks %q: %v", path, from, err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), from, to, 1)), 0o644)
}

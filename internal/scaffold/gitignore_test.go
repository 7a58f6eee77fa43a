package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/proc"
)

// TestKeyCheckoutRunsNothingInAStrangersCheckout (issue 24, item 2): deciding
// where a new key goes starts no git in the checkout, so its core.fsmonitor
// never runs. Before, `git check-ignore` ran it.
func TestKeyCheckoutRunsNothingInAStrangersCheckout(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	repo := t.TempDir()
	marker := fixtures.StrangerCheckout(t, repo)
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("*.key\n"), 0o644)
	t.Chdir(repo)
	if got := KeyCheckout("acme"); got != "" {
		t.Errorf("KeyCheckout = %q, want \"\" (the checkout ignores *.key)", got)
	}
	DefaultKey("community.acme.weather")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the checkout's core.fsmonitor program ran")
	}
}

// TestGitIgnoresAgreesWithGit compares the in-process decision with
// `git check-ignore`, run through proc.Git (no configuration, no
// fsmonitor), on the rules gitignore(5) describes. Where they differ the
// in-process answer may only be "not ignored" (the key then goes outside
// the checkout).
func TestGitIgnoresAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the comparison with git check-ignore needs it")
	}
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("HOME", t.TempDir())
	cases := []struct {
		name  string
		files map[string]string // ignore files, relative to the repo (xdg: the global one)
		paths []string
	}{
		{"basename", map[string]string{".gitignore": "*.key\n"}, []string{"a.key", "d/a.key", "a.pub", "a.keys"}},
		{"negation", map[string]string{".gitignore": "*.key\n!keep.key\n"}, []string{"a.key", "keep.key", "d/keep.key"}},
		{"anchored", map[string]string{".gitignore": "/a.key\nd/b.key\n"}, []string{"a.key", "d/a.key", "d/b.key", "e/d/b.key"}},
		{"folder only", map[string]string{".gitignore": "secrets/\n"}, []string{"secrets/a.key", "x/secrets/a.key", "secrets"}},
		{"excluded folder", map[string]string{".gitignore": "keys/\n!keys/a.key\n"}, []string{"keys/a.key", "keys/b.key"}},
		{"double star", map[string]string{".gitignore": "**/private/*.key\nout/**\na/**/b.key\n"}, []string{"private/a.key", "x/y/private/a.key", "out/z/a.key", "a/b.key", "a/x/y/b.key", "ab.key"}},
		{"classes and escapes", map[string]string{".gitignore": "[a-c].key\n[!x]y.key\n\\#h.key\nsp\\ .key\n?.pem\n"}, []string{"a.key", "d.key", "zy.key", "xy.key", "#h.key", "sp .key", "k.pem", "kk.pem"}},
		{"comments and spaces", map[string]string{".gitignore": "# *.key\n\n*.pem   \n"}, []string{"a.key", "a.pem"}},
		{"deeper wins", map[string]string{".gitignore": "*.key\n", "sub/.gitignore": "!*.key\n"}, []string{"a.key", "sub/a.key", "sub/x/a.key"}},
		{"info exclude", map[string]string{".git/info/exclude": "*.key\n", ".gitignore": "!b.key\n"}, []string{"a.key", "b.key"}},
		{"global excludes", map[string]string{"xdg:git/ignore": "*.key\n", ".gitignore": "!b.key\n"}, []string{"a.key", "b.key"}},
		{"stars", map[string]string{".gitignore": "a*b*c*.key\n*/*.key\n"}, []string{"axbxc.key", "abc1.key", "d/e.key", "d/e/f.key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			repo := t.TempDir()
			if out, err := proc.Git(git, repo, "init", "-q").CombinedOutput(); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			os.RemoveAll(filepath.Join(xdg, "git"))
			for name, body := range c.files {
				p := filepath.Join(repo, filepath.FromSlash(name))
				if rest, ok := strings.CutPrefix(name, "xdg:"); ok {
					p = filepath.Join(xdg, filepath.FromSlash(rest))
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, rel := range c.paths {
				cmd := proc.Git(git, repo, "check-ignore", "-q", "--no-index", "--", rel)
				cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+xdg)
				err := cmd.Run()
				want := err == nil
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
					t.Fatalf("git check-ignore %s: %v", rel, err)
				}
				if got := gitIgnores(repo, filepath.Join(repo, filepath.FromSlash(rel))); got != want {
					t.Errorf("%s with %q: in-process %v, git %v", rel, c.files, got, want)
				}
			}
		})
	}
}

package lsp

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/validate"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildOut  []byte
)

// wopkitBinary builds cmd/wopkit once for the editor tests.
func wopkitBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wopkit-lsp-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "wopkit")
		buildOut, buildErr = fixtures.BuildWopkit(".", builtBin)
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return builtBin
}

// Neovim's own LSP client, headless, attached to `wopkit lsp`: it opens a
// pack scaffolded by `wopkit new --yes` whose agent prompt is missing, sees
// the OW005 diagnostic, applies the "create the missing file" code action,
// saves, and sees it clear; the saved pack then validates.
func TestNeovimHeadless(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: skipping the Neovim session")
	}
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (Debian package neovim; .ci/run installs it): skipping the Neovim end-to-end test")
	}
	bin := wopkitBinary(t)
	dir := filepath.Join(t.TempDir(), "hello")
	if out, err := exec.Command(bin, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--set", "agent.id=writer", "--dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("wopkit new: %v\n%s", err, out)
	}
	prompt := filepath.Join(dir, "prompts", "writer.md")
	if err := os.Remove(prompt); err != nil {
		t.Fatalf("the scaffold wrote no prompts/writer.md: %v", err)
	}
	out := filepath.Join(t.TempDir(), "nvim.out")
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "testdata", "nvim_session.lua")
	cmd := exec.Command(nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "WOPKIT_BIN="+bin, "PACK_DIR="+dir, "LSP_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	lines := readLines(t, out)
	t.Logf("nvim saw:\n%s", strings.Join(lines, "\n"))
	has := func(prefix string) bool {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return true
			}
		}
		return false
	}
	for _, want := range []string{"attached true", "applied Create prompts/writer.md", "cleared true"} {
		if !has(want) {
			t.Errorf("nvim did not report %q", want)
		}
	}
	foundOW005 := false
	for _, l := range lines {
		foundOW005 = foundOW005 || strings.HasPrefix(l, "diag ") && strings.HasSuffix(l, " OW005 wopkit")
	}
	if !foundOW005 {
		t.Errorf("no OW005 diagnostic with source wopkit in %q", lines)
	}
	if b, err := os.ReadFile(prompt); err != nil || len(b) == 0 {
		t.Fatalf("the saved prompt: %v %q", err, b)
	}
	// The saved pack validates: the CLI and the validate package agree.
	if b, err := exec.Command(bin, "validate", dir).CombinedOutput(); err != nil {
		t.Errorf("wopkit validate after the fix: %v\n%s", err, b)
	}
	v, _ := validate.New(validate.Options{})
	rep, err := v.Path(dir)
	if err != nil || !rep.Valid {
		t.Errorf("validate.Path after the fix: %v %v", err, rep)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no output from nvim: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

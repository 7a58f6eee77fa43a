package pack

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/leaks"
	"github.com/openwop/wopkit/internal/werr"
)

// craftedKeywords is issue 34's hostile file: n bytes of lines that each
// hold every keyword of gitleaks' rules (and leaks' own). 2 MiB of it cost
// the scan about 30 s before the budget.
func craftedKeywords(t testing.TB, n int) []byte {
	s, err := leaks.Default()
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(s.Keywords(), " ") + "\n"
	return []byte(strings.Repeat(line, n/len(line)+1)[:n])
}

// TestScanBudgetRefusesCraftedFile: a file made of the rules' keywords is
// refused (pack_scan_budget, naming it, pointing at .openwopignore), by
// pack and by its dry run, and packs once ignored; the scan stops at its
// budget, so the work done is bounded whatever the file's size.
//
// Since issue 45 the budget is ten times what real code costs, which a
// file of keywords (1,200 a byte) does not reach: the test lowers it (not
// parallel: it changes the package's budget) to see a file that reaches it
// refused.
func TestScanBudgetRefusesCraftedFile(t *testing.T) {
	base, perByte := scanBudgetBase, scanBudgetPerByte
	scanBudgetBase, scanBudgetPerByte = 1<<20, 64
	defer func() { scanBudgetBase, scanBudgetPerByte = base, perByte }()
	dir := fixtures.CopyDir(t, "testdata/basic")
	os.MkdirAll(filepath.Join(dir, "prompts"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "prompts", "words.txt"), craftedKeywords(t, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o.tgz")
	_, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate})
	var we *werr.Error
	if !errors.As(err, &we) || we.Code != CodeScanBudget || !strings.Contains(we.Msg, "prompts/words.txt") || !strings.Contains(we.Hint, IgnoreFile) {
		t.Fatalf("pack: %v (want %s naming prompts/words.txt, hinting %s)", err, CodeScanBudget, IgnoreFile)
	}
	refusals, err := Check(Options{Dir: dir})
	if err != nil || len(refusals) != 1 || refusals[0].File != "prompts/words.txt" || refusals[0].Err.Code != CodeScanBudget {
		t.Fatalf("check: %v %+v", err, refusals)
	}
	os.WriteFile(filepath.Join(dir, IgnoreFile), []byte("prompts/words.txt\n"), 0o644)
	if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate}); err != nil {
		t.Fatalf("ignored: %v", err)
	}

	b := newScanBudget()
	data := craftedKeywords(t, 5<<20) // the registry's largest file
	if _, err := scanSecrets(strings.NewReader(string(data)), "x.txt", b); !errors.Is(err, ErrScanBudget) {
		t.Fatalf("5 MiB: %v, want ErrScanBudget", err)
	}
	if limit := scanBudgetBase + 5<<20*scanBudgetPerByte; b.sc.Work > limit+limit/4 {
		t.Errorf("work %d, budget %d", b.sc.Work, limit)
	}
}

// TestScanMultiLineRules: gitleaks' rules whose matches span lines find
// their secret (the scan's window used to end at the keyword's line), as
// gitleaks' own expression on the whole text does.
func TestScanMultiLineRules(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ src, rule, path string }{
		"curl -H on the next line": {"curl -X POST https://api.example.com/v1/runs \\\n  -H \"Content-Type: application/json\" \\\n  -H \"Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0\"\n", "curl-auth-header", "README.md"},
		"curl -u on the next line": {"curl -s https://api.example.com/x \\\n  -u 'deploy:d2LkV78zLx!t'\n", "curl-auth-user", "README.md"},
		"a Kubernetes Secret":      {"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: c3VwZXJzZWNyZXRwYXNzd29yZA==\n", "kubernetes-secret-yaml", "deploy/secret.yaml"},
	} {
		what, err := scanSecrets(strings.NewReader(tc.src), tc.path, newScanBudget())
		if err != nil || what != "a credential (gitleaks rule "+tc.rule+")" {
			t.Errorf("%s: %q %v, want rule %s", name, what, err, tc.rule)
		}
	}
}

// TestScanDecodesAsGitleaks: a token behind the encodings gitleaks decodes
// (base64, hex, percent, unicode escapes, nested up to five times) is
// found, as gitleaks' command line finds it.
func TestScanDecodesAsGitleaks(t *testing.T) {
	t.Parallel()
	token := fake("gh"+"p_", 36, alnums)
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for name, src := range map[string]string{
		"base64":         "const blob = \"" + b64("token="+token) + "\";\n",
		"base64 twice":   "x: " + b64(b64("GITHUB_TOKEN="+token)) + "\n",
		"hex":            "k = " + hex.EncodeToString([]byte("auth: "+token)) + "\n",
		"percent":        "https://example.com/?q=" + strings.ReplaceAll(url.QueryEscape("t="+token), "_", "%5F") + "\n",
		"unicode escape": "s = '" + strings.Join(escapes(token), "") + "'\n",
	} {
		what, err := scanSecrets(strings.NewReader(src), "src/config.txt", newScanBudget())
		if err != nil || !strings.Contains(what, "gitleaks rule github-pat") {
			t.Errorf("%s: %q %v in %q", name, what, err, src)
		}
	}
}

func escapes(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, fmt.Sprintf(`\u%04x`, r))
	}
	return out
}

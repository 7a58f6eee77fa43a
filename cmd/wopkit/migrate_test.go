package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// v1PackDir copies testdata/new-v1/python-agent (what `new --spec v1`
// writes) into a temporary directory.
func v1PackDir(t *testing.T) string {
	t.Helper()
	from := filepath.Join("testdata", "new-v1", "python-agent")
	to := t.TempDir()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	t.Run("dry run prints the diff alone on stdout and writes nothing", func(t *testing.T) {
		dir := v1PackDir(t)
		before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
		out, errOut, code := runCmd(t, "migrate", dir, "--dry-run")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.HasPrefix(out, "--- ") || !strings.Contains(out, "\n+  \"kind\": \"node\",\n") || strings.Contains(out, "would migrate") {
			t.Errorf("stdout:\n%s", out)
		}
		if !strings.Contains(errOut, "would migrate") || !strings.Contains(errOut, `kind: absent → "node"`) {
			t.Errorf("stderr:\n%s", errOut)
		}
		after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
		if !bytes.Equal(before, after) {
			t.Error("--dry-run wrote pack.json")
		}
	})
	t.Run("migrate, then validate --spec v2, then a no-op", func(t *testing.T) {
		dir := v1PackDir(t)
		out, errOut, code := runCmd(t, "migrate", dir)
		if code != 0 || !strings.Contains(out, "migrated ") || !strings.Contains(out, "engines.openwop") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if out, _, code := runCmd(t, "validate", dir, "--spec", "v2", "--run-entry=false"); code != 0 {
			t.Errorf("validate --spec v2 of the migrated pack: exit %d\n%s", code, out)
		}
		out, _, code = runCmd(t, "migrate", filepath.Join(dir, "pack.json"))
		if code != 0 || !strings.Contains(out, "already a v2 pack manifest") {
			t.Errorf("second run: exit %d %s", code, out)
		}
	})
	t.Run("json", func(t *testing.T) {
		dir := v1PackDir(t)
		out, _, code := runCmd(t, "migrate", dir, "--json", "--dry-run")
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		for _, k := range []string{"path", "already", "written", "changes", "notes", "problems", "diff"} {
			if _, ok := r[k]; !ok {
				t.Errorf("missing %q in %s", k, out)
			}
		}
	})
	t.Run("refusal exits 1 with the reason", func(t *testing.T) {
		dir := v1PackDir(t)
		pj := filepath.Join(dir, "pack.json")
		b, _ := os.ReadFile(pj)
		b = bytes.Replace(b, []byte(`"openwop": ">=1.0.0 <2.0.0"`), []byte(`"openwop": "~1.2.0"`), 1)
		os.WriteFile(pj, b, 0o644)
		_, errOut, code := runCmd(t, "migrate", dir)
		if code != 1 || !strings.Contains(errOut, "[migrate/engines_unexpressible]") || !strings.Contains(errOut, "nothing was written") {
			t.Errorf("exit %d: %s", code, errOut)
		}
		out, _, code := runCmd(t, "migrate", dir, "--json")
		var r struct {
			Problems []struct{ Rule, File string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || len(r.Problems) != 1 || r.Problems[0].File == "" {
			t.Errorf("--json refusal: exit %d %v %s", code, err, out)
		}
		after, _ := os.ReadFile(pj)
		if !bytes.Equal(after, b) {
			t.Error("a refused migration wrote pack.json")
		}
	})
	t.Run("usage and I/O errors", func(t *testing.T) {
		if _, _, code := runCmd(t, "migrate", "a", "b"); code != 2 {
			t.Errorf("two paths: exit %d, want 2", code)
		}
		if _, _, code := runCmd(t, "migrate", "--bogus"); code != 2 {
			t.Errorf("unknown flag: exit %d, want 2", code)
		}
		if _, _, code := runCmd(t, "migrate", filepath.Join(t.TempDir(), "missing")); code != 3 {
			t.Errorf("missing path: exit %d, want 3", code)
		}
	})
	t.Run("golden dry run", func(t *testing.T) {
		dir := v1PackDir(t)
		out, errOut, code := runCmd(t, "migrate", dir, "--dry-run")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		golden(t, "migrate-dry-run.txt", strings.ReplaceAll(out+"--- stderr\n"+errOut, dir, "DIR"))
	})
	t.Run("help has examples", func(t *testing.T) {
		out, _, code := runCmd(t, "migrate", "--help")
		if code != 0 || !strings.Contains(out, "wopkit migrate ./my-pack --dry-run") || !strings.Contains(out, "RFC 0131") {
			t.Errorf("exit %d: %s", code, out)
		}
	})
}

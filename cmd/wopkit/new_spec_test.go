package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewSpecV1 requires `new --spec v1` to write, byte for byte, what wopkit
// wrote before v2 became the default (testdata/new-v1, recorded with the
// wopkit of commit af62fe6), and the default to differ from it (v2).
func TestNewSpecV1(t *testing.T) {
	t.Parallel()
	want := filepath.Join("testdata", "new-v1", "python-agent")
	args := []string{"new", "pack", "--yes", "--set", "name=vendor.acme.one", "--set", "runtime.language=python", "--set", "agents.0.id=writer"}
	v1 := filepath.Join(t.TempDir(), "python-agent")
	if _, errOut, code := runCmd(t, append(args, "--spec", "v1", "--dir", v1)...); code != 0 {
		t.Fatalf("new --spec v1: exit %d %s", code, errOut)
	}
	if diff := compareTrees(t, want, v1); diff != "" {
		t.Errorf("--spec v1 differs from the pre-v2 output: %s", diff)
	}
	v2 := filepath.Join(t.TempDir(), "python-agent")
	if _, errOut, code := runCmd(t, append(args, "--dir", v2)...); code != 0 {
		t.Fatalf("new: exit %d %s", code, errOut)
	}
	if compareTrees(t, want, v2) == "" {
		t.Error("the default wrote the v1 pack")
	}
	if _, errOut, code := runCmd(t, append(args, "--spec", "v3", "--dir", filepath.Join(t.TempDir(), "x"))...); code != 2 {
		t.Errorf("--spec v3: exit %d, want 2 (usage) %s", code, errOut)
	}
}

// compareTrees returns "" when the two directories hold the same files with
// the same bytes, or the first difference.
func compareTrees(t *testing.T, a, b string) string {
	t.Helper()
	read := func(root string) map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			m[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ma, mb := read(a), read(b)
	for name, data := range ma {
		if other, ok := mb[name]; !ok {
			return name + " missing"
		} else if other != data {
			return name + " differs"
		}
	}
	for name := range mb {
		if _, ok := ma[name]; !ok {
			return name + " extra"
		}
	}
	return ""
}

// TestNewSpecV1ForRegistry: the v1 scaffold's schemas have no $id (the
// byte-for-byte promise above; docs/RULES.md says why), and validate
// --for-registry says what the registry would refuse before anything is
// published: PK001 on the v1 pack's engines range, then, once `wopkit
// migrate` made it v2, OW013 on each schemas/*.json without $id.
func TestNewSpecV1ForRegistry(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "one")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.one", "--spec", "v1", "--dir", dir); code != 0 {
		t.Fatalf("new --spec v1: exit %d %s", code, errOut)
	}
	schemas, _ := filepath.Glob(filepath.Join(dir, "schemas", "*.json"))
	for _, s := range schemas {
		if data, _ := os.ReadFile(s); strings.Contains(string(data), `"$id"`) {
			t.Errorf("%s has a $id", s)
		}
	}
	errors := func() map[string]int {
		out, _, code := runCmd(t, "validate", dir, "--for-registry", "--json")
		var rep struct {
			Files []struct {
				Path   string
				Errors []struct{ Rule, Message string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 {
			t.Fatalf("exit %d: %v %s", code, err, out)
		}
		n := map[string]int{}
		for _, f := range rep.Files {
			for _, e := range f.Errors {
				if e.Rule != "OW013" || strings.Contains(e.Message, "no $id") {
					n[e.Rule]++
				}
			}
		}
		return n
	}
	if got := errors(); got["PK001"] != 1 {
		t.Errorf("v1: errors %v, want PK001", got)
	}
	if _, errOut, code := runCmd(t, "migrate", dir); code != 0 {
		t.Fatalf("migrate: exit %d %s", code, errOut)
	}
	if got := errors(); got["OW013"] != len(schemas) || len(schemas) == 0 || got["PK001"] != 0 {
		t.Errorf("migrated: errors %v, want OW013 (no $id) on each of the %d schemas", got, len(schemas))
	}
}

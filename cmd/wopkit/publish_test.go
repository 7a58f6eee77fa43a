package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// emptyRegistryRoot copies the fixture registry's discovery document and
// keys into a temporary registry root holding no pack.
func emptyRegistryRoot(t *testing.T) string {
	t.Helper()
	reg := fixtures.Registry(t)
	root := t.TempDir()
	for _, rel := range []string{".well-known/openwop-registry.json", "keys/openwop-team-1.pub"} {
		b, err := os.ReadFile(filepath.Join(reg, rel))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(rel, ".json") {
			b = advertiseV2(t, b)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// v2Tree is the v2 tree of the real registry's discovery document at spec
// v2 (../shared/spec-v2/registry/.well-known/openwop-registry.json).
var v2Tree = map[string]any{"registryIndex": "/v2/index.json", "packMetadata": "/v2/packs/{name}/index.json",
	"versionManifest": "/v2/packs/{name}/-/{version}.json", "versionTarball": "/v2/packs/{name}/-/{version}.tgz",
	"versionSignature": "/v2/packs/{name}/-/{version}.sig"}

// advertiseV2 adds the v2 tree to a discovery document's endpoints, as a
// registry that serves v2 has it: publish writes registry/v2/ only then.
func advertiseV2(t *testing.T, doc []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	eps, _ := m["endpoints"].(map[string]any)
	if eps == nil {
		eps = map[string]any{}
	}
	eps["v2"] = v2Tree
	m["endpoints"] = eps
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestPublishYankDeprecateCommands(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	a2a := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	root := emptyRegistryRoot(t)
	before := listFiles(t, root)

	out, errOut, code := runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1", "--dry-run", "--json")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, errOut)
	}
	var plan struct {
		DryRun    bool `json:"dryRun"`
		Changes   []struct{ Path, Action string }
		IndexDiff []string `json:"indexDiff"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]bool{
		"v1/packs/core.openwop.a2a/-/1.1.0.tgz": true, "v1/packs/core.openwop.a2a/-/1.1.0.sig": true,
		"v1/packs/core.openwop.a2a/-/1.1.0.json": true, "v1/packs/core.openwop.a2a/-/1.1.0.sbom.json": true,
		"v1/packs/core.openwop.a2a/index.json": true, "v1/index.json": true, "v1/sbom.json": true,
	}
	for _, c := range plan.Changes {
		delete(want, c.Path)
		if c.Action != "create" {
			t.Errorf("%s: %s", c.Path, c.Action)
		}
	}
	if len(want) != 0 || !plan.DryRun || len(plan.IndexDiff) == 0 {
		t.Errorf("dry run misses %v (diff %d lines): %s", want, len(plan.IndexDiff), out)
	}
	out, _, code = runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1", "--dry-run")
	for _, w := range []string{"file(s) for core.openwop.a2a@1.1.0", "create core.openwop.a2a/1.1.0/", "create v1/packs/core.openwop.a2a/-/1.1.0.tgz",
		"index entries:", "+++ v1/packs/core.openwop.a2a/index.json", `+   "latest": "1.1.0",`, `+   "latestVersion": "1.1.0",`} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("dry run text lacks %q: %s", w, out)
		}
	}
	if got := listFiles(t, root); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Fatalf("the dry run wrote: %v", got)
	}

	if _, errOut, code = runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1"); code != 0 {
		t.Fatalf("publish: exit %d: %s", code, errOut)
	}
	// wopkit's own verifier accepts what was staged, integrity included.
	out, errOut, code = runCmd(t, "verify", filepath.Join(root, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz"), "--registry", root, "--json")
	if code != 0 || !strings.Contains(out, `"integrityChecked":true`) {
		t.Fatalf("verify of the staged release: exit %d: %s %s", code, out, errOut)
	}
	out, _, code = runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1")
	if code != 0 || !strings.Contains(out, "nothing to do") {
		t.Errorf("second publish: exit %d: %s", code, out)
	}

	if _, errOut, code = runCmd(t, "deprecate", "core.openwop.a2a@1.1.0", "--registry", root, "--spec", "v1", "--reason", "use 1.2"); code != 0 {
		t.Fatalf("deprecate: exit %d: %s", code, errOut)
	}
	if _, errOut, code = runCmd(t, "yank", "core.openwop.a2a@1.1.0", "--registry", root, "--spec", "v1", "--reason", "broken"); code != 0 {
		t.Fatalf("yank: exit %d: %s", code, errOut)
	}
	var vm map[string]any
	b, _ := os.ReadFile(filepath.Join(root, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.json"))
	if err := json.Unmarshal(b, &vm); err != nil || vm["yanked"] != true || vm["yankedReason"] != "broken" || vm["deprecated"] != true || vm["deprecationReason"] != "use 1.2" {
		t.Errorf("version manifest after yank and deprecate: %v %s", err, b)
	}
	var idx struct {
		Versions []map[string]any
	}
	b, _ = os.ReadFile(filepath.Join(root, "v1", "packs", "core.openwop.a2a", "index.json"))
	if err := json.Unmarshal(b, &idx); err != nil || len(idx.Versions) != 1 || idx.Versions[0]["yanked"] != true || idx.Versions[0]["deprecated"] != true {
		t.Errorf("per-pack index: %v %s", err, b)
	}

	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"publish", a2a}, 2, "exactly one of --registry"},
		{[]string{"publish", a2a, "--registry", root, "--spec", "v3"}, 2, "unknown --spec"},
		{[]string{"yank", "core.openwop.a2a@1.1.0", "--registry", root}, 2, "--reason is required"},
		{[]string{"yank", "core.openwop.a2a", "--registry", root, "--reason", "x"}, 2, "NAME@VERSION"},
		{[]string{"yank", "core.openwop.a2a@9.9.9", "--registry", root, "--spec", "v1", "--reason", "x"}, 1, "not published"},
		{[]string{"publish", a2a, "--registry", root}, 1, "v2 scheme"},
		{[]string{"publish", a2a, "--url", "http://127.0.0.1:1", "--token-env", "WOPKIT_TEST_UNSET_TOKEN"}, 2, "no API key"},
	} {
		_, errOut, code := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", c.args, code, c.code, c.want, errOut)
		}
	}
}

// A checkout whose registry index lists packs whose folders are missing is
// refused (exit 1, registry_partial) and left as it was; --rebuild-index
// rebuilds the index from the packs it holds and says which entries it
// removes.
func TestPublishPartialCheckout(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	a2a := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(reg)); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1"); code != 0 {
		t.Fatalf("publish into the full copy: exit %d: %s", code, errOut)
	}
	packs, err := os.ReadDir(filepath.Join(root, "v1", "packs"))
	if err != nil || len(packs) < 3 {
		t.Fatalf("fixture packs: %v", err)
	}
	var gone []string
	for _, p := range packs {
		if p.Name() != "core.openwop.a2a" && len(gone) < 2 {
			gone = append(gone, p.Name())
			os.RemoveAll(filepath.Join(root, "v1", "packs", p.Name()))
		}
	}
	before := listFiles(t, root)
	_, errOut, code := runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1")
	if code != 1 || !strings.Contains(errOut, "lists 2 pack(s) whose folders are not in") || !strings.Contains(errOut, gone[0]) || !strings.Contains(errOut, "--rebuild-index") {
		t.Errorf("partial checkout: exit %d: %s", code, errOut)
	}
	if got := listFiles(t, root); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Fatalf("the refused publish wrote: %v", got)
	}
	out, errOut, code := runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1", "--rebuild-index", "--dry-run", "--json")
	var plan struct {
		Removed   []string `json:"removed"`
		IndexDiff []string `json:"indexDiff"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &plan) != nil || strings.Join(plan.Removed, ",") != strings.Join(gone, ",") {
		t.Fatalf("--rebuild-index: exit %d: %s %s", code, out, errOut)
	}
	out, _, _ = runCmd(t, "publish", a2a, "--registry", root, "--spec", "v1", "--rebuild-index", "--dry-run")
	if !strings.Contains(out, "removed from v1/index.json: the packs[] entries of 2 pack(s)") || strings.Contains(out, "change ("+gone[0]) {
		t.Errorf("text plan: %s", out)
	}
	if _, errOut, code := runCmd(t, "publish", a2a, "--url", "http://127.0.0.1:1", "--rebuild-index"); code != 2 || !strings.Contains(errOut, "--rebuild-index apply to --registry") {
		t.Errorf("--rebuild-index with --url: exit %d: %s", code, errOut)
	}
}

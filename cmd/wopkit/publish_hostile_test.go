//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/testwait"
)

// acmeRegistry is a registry root whose keychain grants the key it returns
// (acme-1, active) vendor.acme.*.
func acmeRegistry(t *testing.T) (root, key string) {
	t.Helper()
	root, key = t.TempDir(), filepath.Join(t.TempDir(), "acme")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	disc, _ := json.Marshal(map[string]any{"registryVersion": "1.0.0", "endpoints": map[string]any{"v2": v2Tree}, "signingKeys": []map[string]any{{
		"keyId": "acme-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/acme-1.pub",
		"permittedNamespaces": []string{"vendor.acme.*"}, "operator": "acme", "status": "active"}}})
	pub, _ := os.ReadFile(key + ".pub")
	for rel, data := range map[string][]byte{".well-known/openwop-registry.json": disc, "keys/acme-1.pub": pub} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, key + ".key"
}

// acmePack scaffolds vendor.acme.hello, names it name@version (whatever the
// scaffolder accepts), packs and signs it (v2) into out, and returns out.
func acmePack(t *testing.T, key, name, version, out string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pack")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--dir", dir); code != 0 {
		t.Fatalf("new: exit %d %s", code, errOut)
	}
	pj := filepath.Join(dir, "pack.json")
	var m map[string]any
	b, _ := os.ReadFile(pj)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["name"], m["version"] = name, version
	b, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(pj, b, 0o644)
	// The schemas' $ids name the pack's URL (check-pack-schema-ids).
	files, _ := filepath.Glob(filepath.Join(dir, "schemas", "*.json"))
	for _, f := range files {
		sb, _ := os.ReadFile(f)
		os.WriteFile(f, []byte(strings.ReplaceAll(string(sb), "/vendor.acme.hello/0.1.0/", "/"+name+"/"+version+"/")), 0o644)
	}
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "v2", "--key", key, "--key-id", "acme-1", "-o", out); code != 0 {
		t.Fatalf("pack: exit %d %s", code, errOut)
	}
	return out
}

// Issue item 6: one --dry-run printed 13 escape sequences raw, from names
// the schemas refuse. Each such name is refused now (pack_invalid), before
// anything is planned, and what is printed holds no control or
// bidirectional character raw.
func TestPublishRefusesHostileNamesInert(t *testing.T) {
	t.Parallel()
	root, key := acmeRegistry(t)
	before := listFiles(t, root)
	for _, name := range []string{
		"vendor.acme.hel\nOK  lo", "vendor.acme.hel\u202elo", "vendor.acme.h\u0435llo", "vendor.Acme.hello",
		"vendor.acme.hel:lo", "vendor.acme.hello ", "vendor.acme.hel\x1b[2K\rlo\x1b]0;pwned\x07", "vendor.acme.he\u009b31mllo",
	} {
		tgz := acmePack(t, key, name, "1.0.0", filepath.Join(t.TempDir(), "hello-1.0.0.tgz"))
		for _, args := range [][]string{{"--dry-run"}, {}, {"--dry-run", "--json"}} {
			out, errOut, code := runCmd(t, append([]string{"publish", tgz, "--registry", root}, args...)...)
			what := termsafe.String(name) + " " + strings.Join(args, " ")
			if code != 1 || !strings.Contains(errOut, "does not validate") {
				t.Errorf("%s: exit %d, want 1 (pack_invalid): %s%s", what, code, out, termsafe.Lines(errOut))
			}
			for _, r := range out + errOut {
				if r != '\n' && termsafe.Unsafe(r) {
					t.Errorf("%s prints %U raw:\n%q", what, r, out+errOut)
					break
				}
			}
		}
	}
	if got := listFiles(t, root); strings.Join(got, ",") != strings.Join(before, ",") {
		t.Errorf("a refused publication wrote: %v", got)
	}
}

// What publish prints of the tarball's path and the notes (here: a sidecar
// version manifest that says other than the tarball) is escaped too.
func TestPublishDryRunTextInert(t *testing.T) {
	t.Parallel()
	root, key := acmeRegistry(t)
	dir := t.TempDir()
	tgz := acmePack(t, key, "vendor.acme.hello", "1.0.0", filepath.Join(dir, hostileText+"-1.0.0.tgz"))
	side := strings.TrimSuffix(tgz, ".tgz") + ".json"
	b, _ := os.ReadFile(side)
	os.WriteFile(side, []byte(strings.Replace(string(b), "{", `{"x-note": "differs",`, 1)), 0o644)
	out, errOut, code := runCmd(t, "publish", tgz, "--registry", root, "--dry-run")
	if code != 0 || !strings.Contains(out, "note: ") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	assertInert(t, "publish --dry-run", out)
}

// Issue item 7: a FIFO at the registry index hung publish and yank. Both
// refuse it promptly, naming it.
func TestPublishAndYankFIFOsNeverBlock(t *testing.T) {
	t.Parallel()
	root, key := acmeRegistry(t)
	tgz := acmePack(t, key, "vendor.acme.hello", "1.0.0", filepath.Join(t.TempDir(), "hello-1.0.0.tgz"))
	if _, errOut, code := runCmd(t, "publish", tgz, "--registry", root); code != 0 {
		t.Fatalf("publish: exit %d %s", code, errOut)
	}
	next := acmePack(t, key, "vendor.acme.hello", "1.0.1", filepath.Join(t.TempDir(), "hello-1.0.1.tgz"))
	for _, rel := range []string{"v2/index.json", "v2/packs/vendor.acme.hello/index.json", "security/advisories.json"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		old, _ := os.ReadFile(p)
		os.Remove(p)
		mkfifo(t, p)
		for _, args := range [][]string{
			{"publish", next, "--registry", root},
			{"yank", "vendor.acme.hello@1.0.0", "--registry", root, "--reason", "x"},
		} {
			if rel == "security/advisories.json" && args[0] == "yank" {
				continue // yank does not read the advisories
			}
			_, errOut, code := runWithin(t, testwait.Ceiling, args...)
			if code != 1 || !strings.Contains(errOut, "named pipe") {
				t.Errorf("%s with a FIFO at %s: exit %d: %s", args[0], rel, code, errOut)
			}
		}
		os.Remove(p)
		if old != nil {
			os.WriteFile(p, old, 0o644)
		}
	}
}

// Issue 44 item 2: publish into a checkout whose discovery document names
// only /v1/ endpoints (the fixture slice of the real registry) refuses the
// v2 tree, naming the document and the way out; the dry run into one that
// advertises v2 says which tree and why.
func TestPublishFollowsTheDiscoveryDocument(t *testing.T) {
	t.Parallel()
	root, key := acmeRegistry(t)
	tgz := acmePack(t, key, "vendor.acme.hello", "1.0.0", filepath.Join(t.TempDir(), "hello-1.0.0.tgz"))
	out, errOut, code := runCmd(t, "publish", tgz, "--registry", root, "--dry-run")
	if code != 0 || !strings.Contains(out, "tree v2: .well-known/openwop-registry.json advertises a v2 tree (endpoints.v2)") {
		t.Fatalf("dry run: exit %d: %s%s", code, out, errOut)
	}
	v1only, err := os.ReadFile(filepath.Join(fixtures.Registry(t), ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(v1only, &m)
	cur, _ := os.ReadFile(filepath.Join(root, ".well-known", "openwop-registry.json"))
	var c map[string]any
	json.Unmarshal(cur, &c)
	c["endpoints"] = m["endpoints"]
	b, _ := json.Marshal(c)
	os.WriteFile(filepath.Join(root, ".well-known", "openwop-registry.json"), b, 0o644)
	_, errOut, code = runCmd(t, "publish", tgz, "--registry", root)
	if code != 1 || !strings.Contains(errOut, "openwop-registry.json advertises only v1") || !strings.Contains(errOut, "--spec v1") {
		t.Errorf("v1-only checkout: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, "v2")); err == nil {
		t.Error("a v2 tree was made")
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// v2Registry makes a checkout of a registry repository (registry/ inside
// it) whose discovery document is the live registry's v2 one (endpoints.v1,
// endpoints.v2, flat aliases), with two test keys added: vendor-acme-1
// granted vendor.acme.*, vendor-rel-1 granted only vendor.rel.*.
func v2Registry(t *testing.T, acmePub, relPub string) (checkout, root string) {
	t.Helper()
	checkout = t.TempDir()
	root = filepath.Join(checkout, "registry")
	wk, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(wk, &meta); err != nil {
		t.Fatal(err)
	}
	meta["signingKeys"] = append(meta["signingKeys"].([]any),
		map[string]any{"keyId": "vendor-acme-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/vendor-acme-1.pub", "permittedNamespaces": []any{"vendor.acme.*"}, "status": "active"},
		map[string]any{"keyId": "vendor-rel-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/vendor-rel-1.pub", "permittedNamespaces": []any{"vendor.rel.*"}, "status": "active"})
	writeRegistryMeta(t, root, meta)
	for id, pub := range map[string]string{"vendor-acme-1": acmePub, "vendor-rel-1": relPub} {
		b, err := os.ReadFile(pub)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "keys", id+".pub"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return checkout, root
}

func writeRegistryMeta(t *testing.T, root string, meta map[string]any) {
	t.Helper()
	b, _ := json.MarshalIndent(meta, "", "  ")
	os.MkdirAll(filepath.Join(root, ".well-known"), 0o755)
	os.MkdirAll(filepath.Join(root, "keys"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ".well-known", "openwop-registry.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func setKeyStatus(t *testing.T, root, id, status string) {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(root, ".well-known", "openwop-registry.json"))
	var meta map[string]any
	json.Unmarshal(b, &meta)
	for _, k := range meta["signingKeys"].([]any) {
		if k := k.(map[string]any); k["keyId"] == id {
			k["status"] = status
		}
	}
	writeRegistryMeta(t, root, meta)
}

// editJSON rewrites one member path of a JSON file (for tampering).
func editJSON(t *testing.T, p string, edit func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A v2 release that wopkit scaffolds, signs and publishes into a registry
// checkout verifies with `verify --registry` from the v2 tree (found through
// the discovery document's endpoints), with the key status and lifecycle
// record reported; the identities the registry and the tarball state must
// agree, and the key that verifies is the key whose namespaces are checked.
func TestVerifyV2Registry(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	acme, rel, stray := filepath.Join(keys, "acme"), filepath.Join(keys, "rel"), filepath.Join(keys, "stray")
	for _, k := range []string{acme, rel, stray} {
		if _, errOut, code := runCmd(t, "keygen", "--out", k); code != 0 {
			t.Fatalf("keygen: %s", errOut)
		}
	}
	checkout, root := v2Registry(t, acme+".pub", rel+".pub")
	src := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", src, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new: %s", errOut)
	}
	packed := func(version, key, keyID string) string {
		t.Helper()
		pj := filepath.Join(src, "pack.json")
		b, _ := os.ReadFile(pj)
		b = []byte(strings.Replace(string(b), `"version": "0.1.0"`, `"version": "`+version+`"`, 1))
		os.WriteFile(pj, b, 0o644)
		// A version change renames every schema's $id (check-pack-schema-ids).
		schemaIDs := func(from, to string) {
			files, _ := filepath.Glob(filepath.Join(src, "schemas", "*.json"))
			for _, f := range files {
				sb, _ := os.ReadFile(f)
				os.WriteFile(f, []byte(strings.ReplaceAll(string(sb), "/vendor.acme.hello/"+from+"/", "/vendor.acme.hello/"+to+"/")), 0o644)
			}
		}
		schemaIDs("0.1.0", version)
		out := filepath.Join(t.TempDir(), "vendor.acme.hello-"+version+".tgz")
		if _, errOut, code := runCmd(t, "pack", src, "--sign", "v2", "--key", key+".key", "--key-id", keyID, "-o", out); code != 0 {
			t.Fatalf("pack %s: %s", version, errOut)
		}
		b = []byte(strings.Replace(string(b), `"version": "`+version+`"`, `"version": "0.1.0"`, 1))
		os.WriteFile(pj, b, 0o644)
		schemaIDs(version, "0.1.0")
		return out
	}
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if out, errOut, code := runCmd(t, "publish", packed(v, acme, "vendor-acme-1"), "--registry", checkout); code != 0 {
			t.Fatalf("publish %s: exit %d %s %s", v, code, out, errOut)
		}
	}
	v2 := func(v string) string { return filepath.Join(root, "v2", "packs", "vendor.acme.hello", "-", v+".tgz") }

	m, code := verifyJSON(t, v2("1.0.0"), "--registry", checkout, "--json")
	if code != 0 || m["verified"] != true || m["tree"] != "v2" || m["method"] != "v2" || m["keyId"] != "vendor-acme-1" ||
		m["keyStatus"] != "active" || m["integrityChecked"] != true || m["latest"] != "1.1.0" {
		t.Fatalf("v2 release from the v2 tree: exit %d %v", code, m)
	}
	out, _, code := runCmd(t, "verify", v2("1.1.0"), "--registry", root)
	if code != 0 || !strings.Contains(out, "OK    ") || !strings.Contains(out, "integrity matches the registry (v2 tree)") {
		t.Fatalf("text: exit %d %s", code, out)
	}

	// Lifecycle: deprecate 1.0.0 in favour of 1.1.0, then yank 1.1.0.
	if _, errOut, code := runCmd(t, "deprecate", "vendor.acme.hello@1.0.0", "--registry", checkout, "--reason", "use 1.1", "--superseded-by", "1.1.0"); code != 0 {
		t.Fatalf("deprecate: %s", errOut)
	}
	m, code = verifyJSON(t, v2("1.0.0"), "--registry", checkout, "--json")
	if code != 0 || m["deprecated"] != true || m["deprecationReason"] != "use 1.1" || m["supersededBy"] != "1.1.0" {
		t.Fatalf("deprecated version: exit %d %v", code, m)
	}
	out, _, _ = runCmd(t, "verify", v2("1.0.0"), "--registry", checkout)
	if !strings.Contains(out, "deprecated: use 1.1 (superseded by 1.1.0)") {
		t.Errorf("deprecation not in the text: %s", out)
	}
	if _, errOut, code := runCmd(t, "yank", "vendor.acme.hello@1.1.0", "--registry", checkout, "--reason", "OPENWOP-2026-0042"); code != 0 {
		t.Fatalf("yank: %s", errOut)
	}
	if m, code = verifyJSON(t, v2("1.1.0"), "--registry", checkout, "--json"); code != 1 || errCode(m) != "pack_yanked" {
		t.Errorf("yanked v2 version: exit %d %v", code, m)
	}
	if m, code = verifyJSON(t, v2("1.1.0"), "--registry", checkout, "--allow-yanked", "--json"); code != 0 || m["yanked"] != true || m["yankedReason"] != "OPENWOP-2026-0042" {
		t.Errorf("--allow-yanked: exit %d %v", code, m)
	}

	// A rotated key keeps verifying what it signed, with a note.
	setKeyStatus(t, root, "vendor-acme-1", "rotated")
	m, code = verifyJSON(t, v2("1.0.0"), "--registry", checkout, "--json")
	if code != 0 || m["keyStatus"] != "rotated" || !strings.Contains(mustJSON(t, m["notes"]), "only an active key may sign a new version") {
		t.Errorf("rotated key: exit %d %v", code, m)
	}
	setKeyStatus(t, root, "vendor-acme-1", "active")

	// Identities must agree.
	for _, c := range []struct {
		name  string
		setup func(t *testing.T) string // returns the tarball to verify
		args  []string
		code  string
	}{
		{"key granted another namespace, claiming the namespace's key", func(t *testing.T) string {
			// Signed with vendor-rel-1's key but naming vendor-acme-1.
			tgz := packed("1.0.0", rel, "vendor-acme-1")
			return tgz
		}, []string{"--key", rel + ".pub"}, "pack_key_mismatch"},
		{"the same, trusting the registry's key", func(t *testing.T) string {
			return packed("1.0.0", rel, "vendor-acme-1")
		}, nil, "pack_signature_invalid"},
		{"--key not in the keychain", func(t *testing.T) string {
			return packed("1.0.0", stray, "vendor-acme-1")
		}, []string{"--key", stray + ".pub"}, "key_unknown"},
		{"--key is the very key", func(t *testing.T) string { return v2("1.0.0") }, []string{"--key", acme + ".pub"}, ""},
		{"tarball under another release's path", func(t *testing.T) string {
			dst := filepath.Join(root, "v2", "packs", "vendor.acme.hello", "-", "1.2.0.tgz")
			b, _ := os.ReadFile(v2("1.0.0"))
			os.WriteFile(dst, b, 0o644)
			t.Cleanup(func() { os.Remove(dst) })
			return dst
		}, nil, "pack_identity_mismatch"},
		{"version manifest names another pack", func(t *testing.T) string {
			p := filepath.Join(root, "v2", "packs", "vendor.acme.hello", "-", "1.0.0.json")
			orig, _ := os.ReadFile(p)
			t.Cleanup(func() { os.WriteFile(p, orig, 0o644) })
			editJSON(t, p, func(m map[string]any) { m["name"] = "vendor.acme.other" })
			return v2("1.0.0")
		}, nil, "pack_identity_mismatch"},
		{"per-pack index disagrees with the version manifest", func(t *testing.T) string {
			p := filepath.Join(root, "v2", "packs", "vendor.acme.hello", "index.json")
			orig, _ := os.ReadFile(p)
			t.Cleanup(func() { os.WriteFile(p, orig, 0o644) })
			editJSON(t, p, func(m map[string]any) {
				for _, r := range m["versions"].([]any) {
					if r := r.(map[string]any); r["version"] == "1.0.0" {
						r["integrity"] = "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
					}
				}
			})
			return v2("1.0.0")
		}, nil, "registry_inconsistent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tgz := c.setup(t)
			args := append([]string{tgz, "--registry", checkout, "--json"}, c.args...)
			m, code := verifyJSON(t, args...)
			if got := errCode(m); got != c.code || (c.code == "") != (code == 0) {
				t.Errorf("exit %d code %q, want %q: %v", code, got, c.code, m)
			}
		})
	}
}

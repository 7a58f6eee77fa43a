package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kcRegistry is a registry checkout with one vendor key, in the registry's
// layout.
func kcRegistry(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	wk := filepath.Join(dir, "registry", ".well-known", "openwop-registry.json")
	if err := os.MkdirAll(filepath.Dir(wk), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "registry", "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "{\n  \"signingKeys\": [\n    {\n      \"keyId\": \"other-1\",\n      \"algorithm\": \"ed25519\",\n" +
		"      \"publicKeyUrl\": \"/keys/other-1.pub\",\n      \"permittedNamespaces\": [\"vendor.other.*\"],\n" +
		"      \"status\": \"active\"\n    }\n  ],\n  \"namespaceAssignments\": []\n}\n"
	if err := os.WriteFile(wk, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestKeychainAddAndList(t *testing.T) {
	t.Parallel()
	dir := kcRegistry(t)
	prefix := filepath.Join(t.TempDir(), "acme")
	if _, errOut, code := runCmd(t, "keygen", "--out", prefix, "--no-passphrase"); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	wk := filepath.Join(dir, "registry", ".well-known", "openwop-registry.json")
	before, _ := os.ReadFile(wk)
	args := []string{"keychain", "add", "--registry", dir, "--key-id", "acme-1", "--public-key", prefix + ".pub", "--namespace", "vendor.acme.*", "--owner", "Acme"}

	out, errOut, code := runCmd(t, append(args, "--dry-run")...)
	if code != 0 {
		t.Fatalf("dry run: exit %d %s", code, errOut)
	}
	for _, s := range []string{"+++ b/keys/acme-1.pub", `+      "keyId": "acme-1",`, `+      "permittedNamespaces": ["vendor.acme.*"],`, "would add key acme-1", "publicKeyUrl /keys/acme-1.pub (on the registry's own origin)"} {
		if !strings.Contains(out, s) {
			t.Errorf("dry run output lacks %q:\n%s", s, out)
		}
	}
	if after, _ := os.ReadFile(wk); string(after) != string(before) {
		t.Error("--dry-run wrote the discovery document")
	}
	if _, err := os.Stat(filepath.Join(dir, "registry", "keys", "acme-1.pub")); err == nil {
		t.Error("--dry-run wrote the key")
	}

	out, errOut, code = runCmd(t, append(args, "--json")...)
	var res struct {
		KeyID   string `json:"keyId"`
		DryRun  bool   `json:"dryRun"`
		Changes []struct{ Path, Action string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.KeyID != "acme-1" || res.DryRun || len(res.Changes) != 2 {
		t.Fatalf("add --json: exit %d %s %s", code, out, errOut)
	}
	if _, errOut, code := runCmd(t, args...); code != 1 || !strings.Contains(errOut, "already in the keychain") {
		t.Errorf("adding again: exit %d %s", code, errOut)
	}

	out, errOut, code = runCmd(t, "keychain", "list", "--registry", dir)
	if code != 0 || !strings.Contains(out, "acme-1  active  vendor.acme.*  (Acme)") || !strings.Contains(out, "assigned: vendor.acme.*") {
		t.Errorf("list: exit %d\n%s%s", code, out, errOut)
	}
	out, _, code = runCmd(t, "keychain", "list", "--registry", dir, "--json")
	var kc struct {
		Keys []struct {
			KeyID, Status, KeyFileState string
			PermittedNamespaces         []string
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &kc) != nil || len(kc.Keys) != 2 || kc.Keys[1].KeyID != "acme-1" ||
		kc.Keys[1].KeyFileState != "ok" || kc.Keys[0].KeyFileState != "missing" {
		t.Errorf("list --json: exit %d %s", code, out)
	}
}

func TestKeychainUsage(t *testing.T) {
	t.Parallel()
	dir := kcRegistry(t)
	for _, args := range [][]string{
		{"keychain", "add", "--key-id", "a-1", "--public-key", "a.pub", "--namespace", "vendor.a.*"},
		{"keychain", "add", "--registry", dir, "--public-key", "a.pub", "--namespace", "vendor.a.*"},
		{"keychain", "add", "--registry", dir, "--key-id", "a-1", "--namespace", "vendor.a.*"},
		{"keychain", "add", "--registry", dir, "--key-id", "a-1", "--public-key", "a.pub"},
		{"keychain", "list"},
		{"keychain", "list", "--registry", dir, "extra"},
	} {
		if _, _, code := runCmd(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

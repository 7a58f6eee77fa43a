package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
)

// writePack writes a small node pack into a temporary directory.
func writePack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pack.json": `{
  "name": "vendor.acme.hello",
  "version": "1.0.0",
  "description": "Hello <world> & co",
  "license": "MIT",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "nodes": [{"typeId": "vendor.acme.hello.greet", "version": "1.0.0", "category": "transform", "label": "Greet"}],
  "runtime": {"language": "javascript", "format": "esm", "entry": "./index.mjs"}
}
`,
		"index.mjs":    "export default {}\n",
		"README.md":    "# hello\n",
		"LICENSE":      "MIT\n",
		"src/extra.js": "not packed\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fastKDF lowers the PBKDF2 iteration count for the test (the real count
// is exercised by internal/sign's openssl test).
func fastKDF(t *testing.T) {
	old := sign.KDFIterations
	sign.KDFIterations = 10_000
	t.Cleanup(func() { sign.KDFIterations = old })
}

func TestKeygenPackSignVerify(t *testing.T) {
	fastKDF(t)
	dir := writePack(t)
	out := t.TempDir()
	prefix := filepath.Join(out, "acme")
	t.Setenv("WOPKIT_KEY_PASSPHRASE", "s3cret")

	if _, errOut, code := runCmd(t, "keygen", "--out", prefix, "--passphrase"); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	if st, _ := os.Stat(prefix + ".key"); st == nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode: %v", st)
	}
	if data, _ := os.ReadFile(prefix + ".key"); !strings.Contains(string(data), "ENCRYPTED PRIVATE KEY") {
		t.Error("--passphrase did not encrypt the key")
	}
	if _, _, code := runCmd(t, "keygen", "--out", prefix); code != 1 {
		t.Errorf("keygen over an existing key: exit %d, want 1", code)
	}
	t.Setenv("WOPKIT_KEY_PASSPHRASE", "")
	if _, _, code := runCmd(t, "keygen", "--out", filepath.Join(out, "empty"), "--passphrase"); code != 1 {
		t.Errorf("keygen with an empty passphrase: exit %d, want 1", code)
	}
	t.Setenv("WOPKIT_KEY_PASSPHRASE", "s3cret")

	tgz := filepath.Join(out, "hello.tgz")
	stdout, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "manual", "--key", prefix+".key", "--key-id", "acme-1", "-o", tgz, "--json")
	if code != 0 {
		t.Fatalf("pack: exit %d %s", code, errOut)
	}
	var res struct {
		Output    string  `json:"output"`
		Integrity string  `json:"integrity"`
		Signature *string `json:"signature"`
		Files     []struct {
			Path string `json:"path"`
			Size int64  `json:"size"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err, stdout)
	}
	if res.Output != tgz || res.Signature == nil || *res.Signature != filepath.Join(out, "hello.sig") ||
		!strings.HasPrefix(res.Integrity, "sha256-") || len(res.Files) != 5 {
		t.Errorf("pack --json: %s", stdout)
	}
	for _, f := range []string{"hello.tgz", "hello.sig", "hello.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing output %s", f)
		}
	}
	if _, _, code := runCmd(t, "verify", tgz, "--key", prefix+".pub"); code != 0 {
		t.Errorf("verify manual: exit %d", code)
	}

	// Re-sign the tarball with v2 to another file; the old signature is dropped.
	v2 := filepath.Join(out, "hello-v2.tgz")
	if _, errOut, code := runCmd(t, "sign", tgz, "--sign", "v2", "--key", prefix+".key", "--key-id", "acme-1", "-o", v2); code != 0 {
		t.Fatalf("sign TGZ: exit %d %s", code, errOut)
	}
	stdout, _, code = runCmd(t, "verify", v2, "--key", prefix+".pub", "--json")
	var vr map[string]any
	json.Unmarshal([]byte(stdout), &vr)
	if code != 0 || vr["method"] != "v2" || vr["keyId"] != "acme-1" {
		t.Errorf("verify v2: exit %d %s", code, stdout)
	}
	// Another key does not verify.
	other := filepath.Join(out, "other")
	runCmd(t, "keygen", "--out", other)
	if _, _, code := runCmd(t, "verify", v2, "--key", other+".pub"); code != 1 {
		t.Errorf("verify with another key: exit %d, want 1", code)
	}
	// Wrong passphrase: refused, exit 1, nothing written.
	t.Setenv("WOPKIT_KEY_PASSPHRASE", "wrong")
	bad := filepath.Join(out, "bad.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "manual", "--key", prefix+".key", "--key-id", "acme-1", "-o", bad); code != 1 || !strings.Contains(errOut, "wrong passphrase") {
		t.Errorf("wrong passphrase: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed pack wrote its tarball")
	}
}

func TestPackDryRunJSON(t *testing.T) {
	dir := writePack(t)
	cwd, _ := os.Getwd()
	t.Chdir(t.TempDir())
	defer os.Chdir(cwd)
	stdout, errOut, code := runCmd(t, "pack", dir, "--dry-run", "--json", "--no-validate")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res["output"] != "vendor.acme.hello-1.0.0.tgz" || res["signature"] != nil || res["integrity"] == "" {
		t.Errorf("%s", stdout)
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("dry run wrote %d files", len(ents))
	}
}

func TestPackUsage(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"manual without key", []string{"pack", dir, "--sign", "manual"}, 2},
		{"unknown method", []string{"pack", dir, "--sign", "rsa"}, 2},
		{"key without signing", []string{"pack", dir, "--key", "k.key"}, 2},
		{"two dirs", []string{"pack", dir, dir}, 2},
		{"bad level", []string{"pack", dir, "--level", "12"}, 2},
		{"sign without a method", []string{"sign", dir, "--sign", "none"}, 2},
		{"keygen without --out", []string{"keygen"}, 2},
		{"keygen bad algorithm", []string{"keygen", "--out", filepath.Join(t.TempDir(), "k"), "--algorithm", "rsa"}, 2},
		{"missing key file", []string{"pack", dir, "--dry-run", "--no-validate", "--sign", "manual", "--key", filepath.Join(dir, "nope.key"), "--key-id", "x"}, 3},
		{"no pack.json", []string{"pack", t.TempDir(), "--dry-run"}, 1},
		{"invalid pack refused (node without role)", []string{"pack", dir, "--dry-run"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, errOut, code := runCmd(t, tc.args...); code != tc.code {
				t.Errorf("exit %d, want %d (%s)", code, tc.code, errOut)
			}
		})
	}
}

// A keyed Sigstore bundle (ECDSA P-256, offline: no Fulcio, no Rekor) made
// by pack verifies with the public key.
func TestSigstoreKeyed(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	out := t.TempDir()
	prefix := filepath.Join(out, "ec")
	if _, errOut, code := runCmd(t, "keygen", "--out", prefix, "--algorithm", "ecdsa-p256"); code != 0 {
		t.Fatalf("keygen: %d %s", code, errOut)
	}
	tgz := filepath.Join(out, "hello.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "sigstore", "--key", prefix+".key", "-o", tgz); code != 0 {
		t.Fatalf("pack: %d %s", code, errOut)
	}
	stdout, errOut, code := runCmd(t, "verify", tgz, "--key", prefix+".pub", "--json")
	var r map[string]any
	json.Unmarshal([]byte(stdout), &r)
	if code != 0 || r["method"] != "sigstore" || r["verified"] != true {
		t.Errorf("verify: exit %d %s %s", code, stdout, errOut)
	}
	// Without any sigstore option or key the verifier says what is missing.
	reg := t.TempDir()
	os.MkdirAll(filepath.Join(reg, ".well-known"), 0o755)
	os.WriteFile(filepath.Join(reg, ".well-known", "openwop-registry.json"), []byte(`{"signingKeys":[]}`), 0o644)
	vdir := filepath.Join(reg, "v1", "packs", "vendor.acme.hello", "-")
	os.MkdirAll(vdir, 0o755)
	vm, _ := os.ReadFile(filepath.Join(out, "hello.json"))
	os.WriteFile(filepath.Join(vdir, "1.0.0.json"), vm, 0o644)
	stdout, _, code = runCmd(t, "verify", tgz, "--registry", reg, "--json")
	if code == 0 || !strings.Contains(stdout, "sigstore_options_missing") {
		t.Errorf("no sigstore options: exit %d %s", code, stdout)
	}
}

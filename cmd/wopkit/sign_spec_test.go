package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestSignDefaultFollowsSpec: `wopkit sign` without --sign signs a v2 pack
// with the v2 block {keyId, scheme} and a v1 pack with the v1 manual block;
// the v2 signature is checked with openssl over the in-tarball pack.json.
func TestSignDefaultFollowsSpec(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	cases := map[string]struct {
		spec, block string
	}{
		"v2": {"v2", `"signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"}`},
		"v1": {"v1", `"signing":{"method":"manual","publicKeyRef":"me-1","signatureRef":"keys/pack.json.sig"}`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hello")
			if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", c.spec, "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			tgz := filepath.Join(t.TempDir(), "hello.tgz")
			if out, errOut, code := runCmd(t, "sign", dir, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
				t.Fatalf("sign: exit %d\n%s%s", code, out, errOut)
			}
			pj := string(fixtures.File(t, tgz, "pack.json"))
			if !strings.Contains(pj, c.block) {
				t.Fatalf("pack.json in the tarball has not the %s block %s:\n%s", name, c.block, pj)
			}
			if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
			}
			// Re-signing the tarball without --sign keeps its spec.
			if out, errOut, code := runCmd(t, "sign", tgz, "--key", key+".key", "--key-id", "me-1"); code != 0 {
				t.Fatalf("re-sign: exit %d\n%s%s", code, out, errOut)
			}
			if pj := string(fixtures.File(t, tgz, "pack.json")); !strings.Contains(pj, c.block) {
				t.Fatalf("re-signed pack.json lost the %s block:\n%s", name, pj)
			}
			if c.spec != "v2" {
				return
			}
			if _, err := exec.LookPath("openssl"); err != nil {
				t.Skip("openssl not installed: skipping the independent signature check")
			}
			x := t.TempDir()
			pjPath, sigPath := filepath.Join(x, "pack.json"), filepath.Join(x, "sig")
			if err := os.WriteFile(pjPath, fixtures.File(t, tgz, "pack.json"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(sigPath, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key+".pub", "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput()
			if err != nil {
				t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
			}
		})
	}
}

// A v1 pack signed v2 would be a v2 document the v2 checks refuse (no kind,
// an engines ceiling below 3): pack and sign check the manifest as it will
// be signed, refuse it with the v2 problems, point at migrate, and write
// nothing; signing it v1 (manual) still works.
func TestSignV2RefusesAV1Pack(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: %s", errOut)
	}
	dir := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", "v1", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new: %s", errOut)
	}
	for _, verb := range []string{"pack", "sign"} {
		out := t.TempDir()
		tgz := filepath.Join(out, "hello.tgz")
		_, errOut, code := runCmd(t, verb, dir, "--sign", "v2", "--key", key+".key", "--key-id", "me-1", "-o", tgz)
		for _, want := range []string{"does not validate as the v2 pack", "missing required property `kind`", "[PK001]", "wopkit migrate"} {
			if code != 1 || !strings.Contains(errOut, want) {
				t.Errorf("%s --sign v2 of a v1 pack: exit %d, want 1 with %q:\n%s", verb, code, want, errOut)
			}
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%s wrote %d file(s) though it refused", verb, len(ents))
		}
		if _, errOut, code := runCmd(t, verb, dir, "--sign", "manual", "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
			t.Errorf("%s --sign manual of the v1 pack: exit %d %s", verb, code, errOut)
		}
	}
}

// TestSignManualRefusesAV2Pack mirrors TestSignV2RefusesAV1Pack: a v2 pack
// signed --sign manual would carry the v1 block and become a v1 document
// (which fails validate as v1 and publish --spec v1 would stage): pack and
// sign refuse it, tarball or directory, --no-validate or not, and write
// nothing. A v1 pack holding an integer beyond ±(2^53-1) is refused too,
// naming its pointer, rather than signed as the nearest double.
func TestSignManualRefusesAV2Pack(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: %s", errOut)
	}
	dir := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new: %s", errOut)
	}
	v2tgz := filepath.Join(t.TempDir(), "v2.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key+".key", "--key-id", "me-1", "-o", v2tgz); code != 0 {
		t.Fatalf("pack --sign v2: %s", errOut)
	}
	for _, args := range [][]string{
		{"pack", dir}, {"sign", dir}, {"pack", dir, "--no-validate"}, {"sign", v2tgz},
	} {
		out := t.TempDir()
		tgz := filepath.Join(out, "hello.tgz")
		_, errOut, code := runCmd(t, append(args, "--sign", "manual", "--key", key+".key", "--key-id", "me-1", "-o", tgz)...)
		if code != 1 || !strings.Contains(errOut, "is a v2 pack (by its engines)") || !strings.Contains(errOut, "--sign v2") {
			t.Errorf("%v --sign manual of a v2 pack: exit %d, want 1 naming the v2 pack and --sign v2:\n%s", args, code, errOut)
		}
		if ents, _ := os.ReadDir(out); len(ents) != 0 {
			t.Errorf("%v wrote %d file(s) though it refused", args, len(ents))
		}
	}

	v1 := filepath.Join(t.TempDir(), "v1")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", "v1", "--dir", v1, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new --spec v1: %s", errOut)
	}
	pj, err := os.ReadFile(filepath.Join(v1, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Replace(string(pj), `"name":`, `"x-limits": {"max": [1, 9007199254740993]}, "name":`, 1)
	if big == string(pj) {
		t.Fatalf("no name member in\n%s", pj)
	}
	if err := os.WriteFile(filepath.Join(v1, "pack.json"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, errOut, code := runCmd(t, "pack", v1, "--no-validate", "--sign", "manual", "--key", key+".key", "--key-id", "me-1", "-o", filepath.Join(out, "v1.tgz"))
	if code != 1 || !strings.Contains(errOut, "9007199254740993 at /x-limits/max/1") || !strings.Contains(errOut, "9007199254740992") {
		t.Errorf("pack --sign manual of a v1 pack with 2^53+1: exit %d, want 1 naming the pointer:\n%s", code, errOut)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("pack wrote %d file(s) though it refused", len(ents))
	}
}

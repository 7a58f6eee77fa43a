package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The review's finding: after a kill between a release's renames, the new
// .tgz sits beside the old .sig and .json; when only a file other than
// pack.json changed, the old signature still verifies the new pack.json,
// and `verify --key` said OK. verify now reads the version manifest beside
// the tarball (the layout pack writes: NAME.tgz, NAME.sig, NAME.json),
// checks the tarball's integrity against it and says so; the half release
// is refused with release_integrity_mismatch, a .json that is no version
// manifest with release_manifest_invalid.
func TestVerifyReadsTheReleaseBesideIt(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	key := filepath.Join(t.TempDir(), "k")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: %s", errOut)
	}
	pack := func(out string) {
		t.Helper()
		if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "manual", "--key", key+".key", "--key-id", "acme-1", "-o", out); code != 0 {
			t.Fatalf("pack: exit %d: %s", code, errOut)
		}
	}
	rel := filepath.Join(t.TempDir(), "vendor.acme.hello-1.0.0.tgz")
	pack(rel)
	base := strings.TrimSuffix(rel, ".tgz")
	for _, ext := range []string{".sig", ".json"} {
		if _, err := os.Stat(base + ext); err != nil {
			t.Fatalf("pack wrote no %s beside the tarball: %v", ext, err)
		}
	}

	out, errOut, code := runCmd(t, "verify", rel, "--key", key+".pub")
	if code != 0 || !strings.Contains(out, "integrity matches vendor.acme.hello-1.0.0.json beside it") {
		t.Errorf("a whole release: exit %d\n%s%s", code, out, errOut)
	}
	r, code := verifyJSON(t, rel, "--key", key+".pub")
	if code != 0 || r["releaseIntegrityChecked"] != true || r["releaseManifest"] != base+".json" || r["integrityChecked"] != false {
		t.Errorf("a whole release, --json: exit %d: %v", code, r)
	}

	// The next release of the same version, with another README, packed
	// elsewhere: its .tgz alone is renamed over the first one's.
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# hello, changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(t.TempDir(), "vendor.acme.hello-1.0.0.tgz")
	pack(next)
	sigA, _ := os.ReadFile(base + ".sig")
	sigB, _ := os.ReadFile(strings.TrimSuffix(next, ".tgz") + ".sig")
	if string(sigA) != string(sigB) {
		t.Fatal("the two releases' signatures differ: the half release below would fail on its signature, proving nothing")
	}
	data, err := os.ReadFile(next)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rel, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCmd(t, "verify", rel, "--key", key+".pub")
	if code != 1 || !strings.Contains(out, "FAIL") || !strings.Contains(out, "release_integrity_mismatch") {
		t.Errorf("a half release: exit %d\n%s", code, out)
	}
	if r, code := verifyJSON(t, rel, "--key", key+".pub"); code != 1 || r["verified"] != false || errCode(r) != "release_integrity_mismatch" {
		t.Errorf("a half release, --json: exit %d: %v", code, r)
	}

	// A .json of that name that is no version manifest.
	if err := os.WriteFile(strings.TrimSuffix(next, ".tgz")+".json", []byte(`{"name": "vendor.acme.hello"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, code := verifyJSON(t, next, "--key", key+".pub"); code != 1 || errCode(r) != "release_manifest_invalid" {
		t.Errorf("a .json without integrity: exit %d: %v", code, r)
	}

	// The tarball alone: nothing to check it against, and said so.
	alone := filepath.Join(t.TempDir(), "vendor.acme.hello-1.0.0.tgz")
	if err := os.WriteFile(alone, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if r, code := verifyJSON(t, alone, "--key", key+".pub"); code != 0 || r["releaseIntegrityChecked"] != false {
		t.Errorf("a tarball alone: exit %d: %v", code, r)
	}
}

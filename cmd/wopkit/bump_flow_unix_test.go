//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNextVersionFlow runs the README's "Next version": 0.1.0 published
// into a registry root, a breaking change, `bump auto --registry` (0.2.0,
// the breaking bump before 1.0.0), `diff` against the published version
// exits 0, `validate --for-registry --registry` passes, and 0.2.0 packs,
// signs and publishes. Without the bump, publish refuses the release.
func TestNextVersionFlow(t *testing.T) {
	t.Parallel()
	root, key := acmeRegistry(t)
	dir := filepath.Join(t.TempDir(), "hello")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--dir", dir); code != 0 {
		t.Fatalf("new: exit %d %s", code, errOut)
	}
	out := t.TempDir()
	packSign := func(version string) string {
		tgz := filepath.Join(out, "vendor.acme.hello-"+version+".tgz")
		if _, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key, "--key-id", "acme-1", "-o", tgz); code != 0 {
			t.Fatalf("pack %s: exit %d %s", version, code, errOut)
		}
		return tgz
	}
	if o, errOut, code := runCmd(t, "publish", packSign("0.1.0"), "--registry", root); code != 0 {
		t.Fatalf("publish 0.1.0: exit %d %s%s", code, o, errOut)
	}
	setIn(t, filepath.Join(dir, "schemas", "hello.input.json"), "/properties/text/maxLength", 10)

	// Not bumped: publish refuses (the same version), validate says why.
	if _, _, code := runCmd(t, "validate", "--for-registry", "--registry", root, dir); code != 1 {
		t.Errorf("validate before the bump: exit %d, want 1", code)
	}
	o, errOut, code := runCmd(t, "bump", "auto", dir, "--registry", root)
	if code != 0 || !strings.Contains(o, "bumped vendor.acme.hello 0.1.0 → 0.2.0 (minor)") {
		t.Fatalf("bump auto: exit %d\n%s%s", code, o, errOut)
	}
	if o, _, code := runCmd(t, "diff", "vendor.acme.hello@0.1.0", dir, "--registry", root); code != 0 {
		t.Errorf("diff after the bump: exit %d\n%s", code, o)
	}
	if o, _, code := runCmd(t, "validate", "--for-registry", "--registry", root, dir); code != 0 {
		t.Errorf("validate --for-registry after the bump: exit %d\n%s", code, o)
	}
	if o, errOut, code := runCmd(t, "publish", packSign("0.2.0"), "--registry", root); code != 0 {
		t.Errorf("publish 0.2.0: exit %d %s%s", code, o, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, "v2", "packs", "vendor.acme.hello", "-", "0.2.0.tgz")); err != nil {
		t.Errorf("0.2.0 not staged: %v", err)
	}
}

package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
)

// The version manifest beside a tarball is read as its detached signature
// is, through the untrusted layer with the tarball's folder as the root: a
// .json linking out of the folder, one with a member named twice, and one
// without integrity are refused, each with its code; the registry's own
// .json beside a registry tarball matches it.
func TestReleaseManifestRead(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	pub, err := sign.LoadPublicKey(filepath.Join(reg, "keys", "openwop-team-1.pub"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0")
	tgz, _ := os.ReadFile(src + ".tgz")
	vm, _ := os.ReadFile(src + ".json")
	if len(tgz) == 0 || len(vm) == 0 {
		t.Fatal("no fixture tarball or version manifest")
	}
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(outside, vm, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, code string
		json       func(p string) error
	}{
		{"the registry's own", "", func(p string) error { return os.WriteFile(p, vm, 0o644) }},
		{"a link out of the folder", "path_outside_root", func(p string) error { return os.Symlink(outside, p) }},
		{"a member named twice", "json_duplicate_member", func(p string) error {
			return os.WriteFile(p, []byte(`{"integrity": "x", "Integrity": "y"}`), 0o644)
		}},
		{"no integrity", CodeReleaseInvalid, func(p string) error { return os.WriteFile(p, []byte(`{"name": "core.openwop.a2a"}`), 0o644) }},
		{"another integrity", CodeReleaseMismatch, func(p string) error {
			return os.WriteFile(p, []byte(`{"name": "core.openwop.a2a", "version": "1.1.0", "integrity": "sha256-AAAA"}`), 0o644)
		}},
		{"another version", CodeReleaseMismatch, func(p string) error {
			r := File(context.Background(), src+".tgz", Policy{Key: pub})
			return os.WriteFile(p, []byte(`{"name": "core.openwop.a2a", "version": "1.2.0", "integrity": "`+r.Integrity+`"}`), 0o644)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			p := filepath.Join(dir, "1.1.0.tgz")
			if err := os.WriteFile(p, tgz, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.json(filepath.Join(dir, "1.1.0.json")); err != nil {
				t.Skipf("cannot make the .json: %v", err)
			}
			r := File(context.Background(), p, Policy{Key: pub})
			switch {
			case tc.code == "" && (!r.Verified || !r.ReleaseChecked):
				t.Errorf("result %+v %+v", r, r.Error)
			case tc.code != "" && (r.Verified || r.Error == nil || r.Error.Code != tc.code):
				t.Errorf("want %s, got %+v %+v", tc.code, r, r.Error)
			}
		})
	}
}

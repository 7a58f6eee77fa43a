package registry

import (
	"testing"

	"github.com/openwop/wopkit/internal/werr"

	"github.com/openwop/wopkit/internal/fixtures"
)

func TestNamespaceMatch(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"core.openwop.*", "core.openwop.a2a", true},
		{"core.openwop.*", "core.openwop.agents.react", true},
		{"core.openwop.*", "core.openwop", false},
		{"core.openwop.*", "core.openwopx.a", false},
		{"vendor.myndhyve.*", "vendor.openwop.x", false},
		{"community.openwop-team.demo", "community.openwop-team.demo", true},
		{"community.openwop-team.demo", "community.openwop-team.demo2", false},
		{"community.openwop-team.demo", "community.openwop-team.demo.x", false},
		{"*", "anything", false},
	} {
		if got := NamespaceMatch(tc.glob, tc.name); got != tc.want {
			t.Errorf("NamespaceMatch(%q, %q) = %v, want %v", tc.glob, tc.name, got, tc.want)
		}
	}
}

func TestFixtureRegistry(t *testing.T) {
	r, err := Open(fixtures.Registry(t))
	if err != nil {
		t.Fatal(err)
	}
	k, err := r.Key("myndhyve-internal-1")
	if err != nil {
		t.Fatal(err)
	}
	if !k.Permits("vendor.myndhyve.ads-copy-generate") || k.Permits("core.openwop.flow") {
		t.Error("myndhyve-internal-1 namespaces wrong")
	}
	if _, err := r.Key("nobody-1"); werr.CodeOf(err) != "key_unknown" {
		t.Errorf("unknown key: %v", err)
	}
	v, err := r.Version("vendor.openwop.rust-hello", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Yanked || v.Signing.Method != "ed25519" || v.Signing.KeyID != "openwop-registry-root" || v.Integrity == "" {
		t.Errorf("rust-hello manifest: %+v", v)
	}
	if _, err := r.Version("core.openwop.flow", "9.9.9"); werr.CodeOf(err) != "version_unknown" {
		t.Errorf("missing version: %v", err)
	}
	for _, bad := range [][2]string{{"../x", "1.0.0"}, {"a", "../../etc/passwd"}, {"a/b", "1"}} {
		if _, err := r.Version(bad[0], bad[1]); werr.CodeOf(err) != "pack_name_invalid" {
			t.Errorf("Version(%q, %q): %v", bad[0], bad[1], err)
		}
	}
}

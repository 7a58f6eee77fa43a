package registry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// The live registry's v2 files are read through its own discovery document
// (endpoints.v2): every version manifest is found in the v2 tree with the
// integrity and signing block encoding/json reads from it, the v1 fixtures
// stay in the v1 tree, and per-pack indexes give latest and rows (the
// stored core.openwop.examples index lags its tree: 1.0.3 has no row).
func TestLiveV2Tree(t *testing.T) {
	src := filepath.Join(fixtures.SpecV2(t), "registry")
	r, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Endpoint(TreeV2, "versionManifest"); got != "/v2/packs/{name}/-/{version}.json" {
		t.Errorf("endpoints.v2.versionManifest %q", got)
	}
	n := 0
	err = filepath.WalkDir(filepath.Join(src, "v2", "packs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || filepath.Base(filepath.Dir(p)) != "-" || !strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".sbom.json") {
			return err
		}
		n++
		var want struct {
			Name, Version, Integrity string
			Signing                  struct{ KeyID, Scheme string }
		}
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		v, err := r.Version(want.Name, want.Version)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if v.Tree != TreeV2 || v.Path != p || v.Integrity != want.Integrity || v.Signing.KeyID != want.Signing.KeyID ||
			v.Signing.Scheme != want.Signing.Scheme || v.Yanked || v.IsDeprecated() {
			t.Errorf("%s: read %+v, want %+v", p, v, want)
		}
		return nil
	})
	if err != nil || n != 10 {
		t.Fatalf("walked %d v2 version manifests (%v), want 10", n, err)
	}
	x, err := r.Index(TreeV2, "core.openwop.examples")
	if err != nil || x == nil {
		t.Fatalf("index: %v", err)
	}
	if x.Latest != "1.0.2" || x.Row("1.0.2") == nil || x.Row("1.0.3") != nil || x.Row("1.0.2").SigningScheme != "ed25519-canonical-json" {
		t.Errorf("core.openwop.examples index: %+v", x)
	}
	if d, _ := x.PackDeprecated(); d {
		t.Error("pack deprecated")
	}
	if x, err := r.Index(TreeV2, "core.openwop.a2a"); x != nil || err != nil {
		t.Errorf("absent index: %v %v", x, err)
	}

	v1, err := Open(fixtures.Registry(t))
	if err != nil {
		t.Fatal(err)
	}
	v, err := v1.Version("core.openwop.a2a", "1.1.0")
	if err != nil || v.Tree != TreeV1 {
		t.Errorf("v1 fixture: %+v %v", v, err)
	}
	// A checkout of the registry repository is accepted as well.
	co := t.TempDir()
	if err := os.Symlink(src, filepath.Join(co, "registry")); err != nil {
		t.Fatal(err)
	}
	if r, err := Open(co); err != nil || r.Dir != filepath.Join(co, "registry") {
		t.Errorf("checkout: %v", err)
	}
	if _, err := Open(t.TempDir()); werr.CodeOf(err) != "registry_unreadable" {
		t.Errorf("not a registry: %v", err)
	}
}

// Endpoint templates that would leave the root are not followed.
func TestLocalStaysInsideRoot(t *testing.T) {
	r := &Root{Dir: "/reg", endpoints: map[string]map[string]string{
		"":     {},
		TreeV2: {"versionManifest": "/../../etc/{name}.json", "packMetadata": "https://cdn.example/{name}/index.json"},
	}}
	if p := r.Local(TreeV2, "versionManifest", "a.b", "1.0.0"); p != "" {
		t.Errorf("escaping template followed: %s", p)
	}
	if p := r.Local(TreeV2, "packMetadata", "a.b", ""); p != "" {
		t.Errorf("URL template followed: %s", p)
	}
	if p := r.Local(TreeV1, "versionManifest", "a.b", "1.0.0"); p != filepath.Join("/reg", "v1", "packs", "a.b", "-", "1.0.0.json") {
		t.Errorf("default v1 layout: %s", p)
	}
}

// expand gives what strings.Replacer gives, on templates with every
// placeholder, stray braces and values that hold placeholders themselves.
func TestExpandIsTheReplacer(t *testing.T) {
	t.Parallel()
	for _, tmpl := range []string{"", "/v1/index.json", "/v1/packs/{name}/-/{version}.tgz", "{name}{version}{name}", "{", "}{", "{nam{name}e}", "/{version", "{{name}}", "x/{version}/{unknown}/{name"} {
		for _, nv := range [][2]string{{"a.b", "1.0.0"}, {"{version}", "{name}"}, {"", ""}, {"{", "}"}} {
			want := strings.NewReplacer("{name}", nv[0], "{version}", nv[1]).Replace(tmpl)
			if got := expand(tmpl, nv[0], nv[1]); got != want {
				t.Errorf("expand(%q, %q, %q) = %q, want %q", tmpl, nv[0], nv[1], got, want)
			}
		}
	}
}

package publish

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
)

// withoutEmbeddedSignature rewrites tgz without keys/pack.json.sig (the
// detached .sig and the version manifest beside it are kept): a tarball
// another tool packed, signed only beside it.
func withoutEmbeddedSignature(t *testing.T, tgz string) string {
	t.Helper()
	a, err := tarball.ReadAll(bytes.NewReader(readFileT(t, tgz)), tarball.RegistryLimits)
	if err != nil {
		t.Fatal(err)
	}
	var entries []tarball.Entry
	for _, f := range a.Files {
		if f.Name == sign.SignatureFile {
			continue
		}
		data := f.Data
		entries = append(entries, tarball.Entry{Name: f.Name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	}
	var buf bytes.Buffer
	if err := tarball.Write(&buf, entries, tarball.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return tgz
}

// publish re-runs the registry's gates on the tarball and on the version
// manifest it writes, whatever the tarball went through before.
func TestRegistryGatesOnTheTarball(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	root := filepath.Join(dir, "registry")
	key := addTestKey(t, root, "active")
	const name = "community.wopkit-test.hello"
	v1 := func(edit func(*jsjson.Obj)) func(*jsjson.Obj) {
		return func(m *jsjson.Obj) {
			if edit != nil {
				edit(m)
			}
		}
	}

	t.Run("no embedded signature", func(t *testing.T) {
		refuse(t, Options{Tarball: withoutEmbeddedSignature(t, release(t, key, sign.MethodV2, name, "1.0.0", nil)), Registry: dir}, "signature_not_embedded")
		refuse(t, Options{Tarball: withoutEmbeddedSignature(t, release(t, key, sign.MethodManual, name, "1.0.0", nil)), Registry: dir, Spec: SpecV1}, "signature_not_embedded")
	})
	t.Run("a member the v1 version-manifest schema refuses", func(t *testing.T) {
		tgz := release(t, key, sign.MethodManual, name, "1.0.0", v1(func(m *jsjson.Obj) {
			m.Set("peerDependencies", jsjson.NewObj().Set("webResearch", "optional"))
			m.Set("peerDependenciesMeta", jsjson.NewObj().Set("webResearch", jsjson.NewObj().Set("optional", true)))
		}))
		refuse(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1}, "version_manifest_invalid")
		_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir, Spec: SpecV1})
		if msg := err.Error(); !strings.Contains(msg, "peerDependenciesMeta") || !strings.Contains(msg, "version-manifest schema") {
			t.Errorf("refusal does not give the schema's words: %v", err)
		}
	})
	t.Run("packed with --no-validate", func(t *testing.T) {
		// release packs with NoValidate: a schema error inside still refuses.
		tgz := release(t, key, sign.MethodV2, name, "1.0.0", func(m *jsjson.Obj) { m.Set("license", 42.0) })
		refuse(t, Options{Tarball: tgz, Registry: dir}, "pack_invalid")
	})
	// The same releases, signed as wopkit signs them, pass.
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.0.0", nil), Registry: dir})
	publishOK(t, Options{Tarball: release(t, key, sign.MethodManual, name, "1.0.0", nil), Registry: dir, Spec: SpecV1})
}

package publish

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
)

// BenchmarkStageLargeTree plans one v2 release into a tree the size of the
// live registry's v2 tree (160 packs, 2 versions each): every per-pack
// document and the aggregate SBOM are recomputed from the tree, as the
// registry's scripts do.
func BenchmarkStageLargeTree(b *testing.B) {
	dir := minimalRegistry(b)
	root := filepath.Join(dir, "registry")
	key := addTestKey(b, root, "active")
	tgz := release(b, key, sign.MethodV2, "community.wopkit-test.seed", "1.0.0", nil)
	publishOK(b, Options{Tarball: tgz, Registry: dir})
	seed := filepath.Join(root, "v2", "packs", "community.wopkit-test.seed")
	for i := range 160 {
		for _, v := range []string{"1.0.0", "1.0.1"} {
			dst := filepath.Join(root, "v2", "packs", fmt.Sprintf("community.wopkit-test.p%03d", i), "-")
			os.MkdirAll(dst, 0o755)
			for _, ext := range []string{".tgz", ".sig", ".json", ".sbom.json"} {
				data, err := os.ReadFile(filepath.Join(seed, "-", "1.0.0"+ext))
				if err != nil {
					b.Fatal(err)
				}
				os.WriteFile(filepath.Join(dst, v+ext), data, 0o644)
			}
		}
	}
	next := release(b, key, sign.MethodV2, "community.wopkit-test.seed", "1.1.0", nil)
	b.ResetTimer()
	for b.Loop() {
		p := stage(b, Options{Tarball: next, Registry: dir})
		if len(p.Changes) == 0 {
			b.Fatal("nothing planned")
		}
	}
}

// BenchmarkStageRelease plans one v2 release into a tree holding its
// previous version, as every publish into a small checkout does (the kill
// tests stage it hundreds of times): within one process, the schemas are
// compiled once, not for each release.
func BenchmarkStageRelease(b *testing.B) {
	dir := minimalRegistry(b)
	key := addTestKey(b, filepath.Join(dir, "registry"), "active")
	const name = "community.wopkit-test.hello"
	publishOK(b, Options{Tarball: release(b, key, sign.MethodV2, name, "1.0.0", nil), Registry: dir})
	next := release(b, key, sign.MethodV2, name, "1.1.0", nil)
	b.ResetTimer()
	for b.Loop() {
		if p := stage(b, Options{Tarball: next, Registry: dir}); len(p.Changes) == 0 {
			b.Fatal("nothing planned")
		}
	}
}

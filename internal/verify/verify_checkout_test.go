package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/registry"
)

// checkoutTarballs returns the registry root of the checkout named by
// WOPKIT_REGISTRY_CHECKOUT and every version tarball of its v1 and v2
// trees, or skips.
func checkoutTarballs(tb testing.TB) (string, []string) {
	tb.Helper()
	dir := os.Getenv("WOPKIT_REGISTRY_CHECKOUT")
	if dir == "" {
		tb.Skip("WOPKIT_REGISTRY_CHECKOUT is unset: skipping the benchmark over a real registry (git clone https://github.com/openwop/openwop-registry and set it to the clone)")
	}
	root := filepath.Join(dir, "registry")
	var tgzs []string
	for _, tree := range []string{"v1", "v2"} {
		m, err := filepath.Glob(filepath.Join(root, tree, "packs", "*", "-", "*.tgz"))
		if err != nil {
			tb.Fatal(err)
		}
		tgzs = append(tgzs, m...)
	}
	if len(tgzs) == 0 {
		tb.Fatalf("no version tarballs under %s", root)
	}
	return root, tgzs
}

// BenchmarkVerifyRegistryCheckout is `wopkit verify --registry ROOT` of
// every version of a real registry (281 in openwop/openwop-registry at
// 85355a0; 7 of them yanked, so refused) after start-up: the root opened
// and every tarball verified through Files (all CPUs), per iteration.
// Compare the whole process with the previous release side by side (see
// docs/PERFORMANCE.md); cpu-ns/op is the figure to compare on a busy
// machine.
//
//	WOPKIT_REGISTRY_CHECKOUT=~/openwop-registry go test ./internal/verify -run '^$' -bench VerifyRegistryCheckout -benchmem -count 5
func BenchmarkVerifyRegistryCheckout(b *testing.B) {
	root, tgzs := checkoutTarballs(b)
	failed := -1
	start := cpuTime()
	for b.Loop() {
		r, err := registry.Open(root)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, res := range Files(context.Background(), tgzs, Policy{Registry: r}) {
			if !res.Verified {
				n++
			}
		}
		r.Close()
		if failed >= 0 && n != failed {
			b.Fatalf("%d failed, %d in the previous iteration", n, failed)
		}
		failed = n
	}
	// CPU time per verification of the whole registry: wall time says
	// little on a machine shared with other jobs.
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(tgzs)), "versions")
	b.ReportMetric(float64(failed), "refused")
}

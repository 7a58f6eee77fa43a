package semdiff

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/third_party/semver"
)

// BenchmarkRegistryPairs reads and compares every pair of consecutive
// versions a registry checkout holds (WOPKIT_REGISTRY_CHECKOUT, as
// scripts/registry-history.sh does, without the process start), one
// sub-benchmark a pair: run it before and after a change of the comparison
// and compare pair by pair (issue 42: none slower by more than 20%).
func BenchmarkRegistryPairs(b *testing.B) {
	reg := os.Getenv("WOPKIT_REGISTRY_CHECKOUT")
	if reg == "" {
		b.Skip("WOPKIT_REGISTRY_CHECKOUT is unset: the benchmark reads a registry checkout's history")
	}
	root := reg
	if _, err := os.Stat(filepath.Join(reg, "registry")); err == nil {
		root = filepath.Join(reg, "registry")
	}
	tgzs, _ := filepath.Glob(filepath.Join(root, "v1", "packs", "*", "-", "*.tgz"))
	byName := map[string][]*semver.Version{}
	for _, p := range tgzs {
		name := filepath.Base(filepath.Dir(filepath.Dir(p)))
		if v, err := semver.NewVersion(strings.TrimSuffix(filepath.Base(p), ".tgz")); err == nil {
			byName[name] = append(byName[name], v)
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	opts := LoadOptions{Registry: reg}
	for _, name := range names {
		vs := byName[name]
		sort.Slice(vs, func(i, j int) bool { return vs[i].LessThan(vs[j]) })
		for i := 1; i < len(vs); i++ {
			o, n := name+"@"+vs[i-1].Original(), name+"@"+vs[i].Original()
			b.Run(o+"→"+vs[i].Original(), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					op, err1 := Load(o, opts)
					np, err2 := Load(n, opts)
					if err1 != nil || err2 != nil {
						b.Fatal(err1, err2)
					}
					Compare(op, np)
				}
			})
		}
	}
}

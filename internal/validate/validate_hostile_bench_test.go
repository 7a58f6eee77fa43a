package validate

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/kinds"
)

// hostilePack returns the a2a pack.json, on one line, with extra unknown
// top-level keys, or with its nodes repeated (renamed) until it is at least
// size bytes long.
func hostilePack(b *testing.B, extraKeys, size int) []byte {
	b.Helper()
	var m map[string]any
	if err := json.Unmarshal(fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json"), &m); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < extraKeys; i++ {
		m[fmt.Sprintf("zz%d", i)] = i
	}
	nodes, _ := m["nodes"].([]any)
	for k := 0; size > 0; k++ {
		for _, n := range nodes[:len(nodes):len(nodes)] {
			c := map[string]any{}
			for key, v := range n.(map[string]any) {
				c[key] = v
			}
			c["typeId"] = fmt.Sprintf("%v%d", c["typeId"], k)
			m["nodes"] = append(m["nodes"].([]any), c)
		}
		if data, _ := json.Marshal(m); len(data) >= size {
			break
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkUnknownKeys80k: one line, 80,000 unknown keys, one problem each
// (issue 10 item 1: was 40 s).
func BenchmarkUnknownKeys80k(b *testing.B) {
	benchHostile(b, hostilePack(b, 80000, 0))
}

// BenchmarkOneLine1700KB: a 1.7 MB single-line pack.json (was 101 s).
func BenchmarkOneLine1700KB(b *testing.B) {
	benchHostile(b, hostilePack(b, 0, 1700<<10))
}

func benchHostile(b *testing.B, data []byte) {
	v := newV(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Bytes("pack.json", data, kinds.NodePack)
	}
}

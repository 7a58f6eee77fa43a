package jsonedit

import "testing"

// BenchmarkAppendLargestFixture appends a node to the largest real source
// pack.json (core.openwop.a2a, 17 nodes): the cost of one editor save.
func BenchmarkAppendLargestFixture(b *testing.B) {
	var src []byte
	for _, p := range fixturePacks(b) {
		if len(p) > len(src) {
			src = p
		}
	}
	node := map[string]any{"typeId": "core.openwop.a2a.x", "version": "1.0.0", "category": "data", "role": "pure"}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Append(src, "/nodes", node); err != nil {
			b.Fatal(err)
		}
	}
}

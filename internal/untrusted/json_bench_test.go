package untrusted

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchDoc is a registry-index-shaped document: n pack rows of a dozen
// members each.
func benchDoc(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"generatedAt":"2026-11-01T00:00:00.000Z","packs":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"vendor.acme.pack%d","latest":"1.%d.0","kind":"node","description":"A pack that does thing %d","license":"Apache-2.0","keywords":["a","b","c"],"nodes":%d,"agents":0,"signingKeyId":"openwop-team-1","signingScheme":"ed25519-canonical-json","deprecated":false,"versions":["1.0.0","1.%d.0"]}`, i, i, i, i%7, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

type benchIndex struct {
	Packs []struct {
		Name     string   `json:"name"`
		Latest   string   `json:"latest"`
		Versions []string `json:"versions"`
	} `json:"packs"`
}

// go test ./internal/untrusted -bench . -run '^$' -benchmem
func BenchmarkDecodeJSON(b *testing.B) {
	doc := benchDoc(1000) // about the size of the real v2/index.json
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		var x benchIndex
		if err := DecodeJSON(doc, &x); err != nil {
			b.Fatal(err)
		}
	}
}

// The same document with encoding/json alone, for comparison.
func BenchmarkEncodingJSON(b *testing.B) {
	doc := benchDoc(1000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		var x benchIndex
		if err := json.Unmarshal(doc, &x); err != nil {
			b.Fatal(err)
		}
	}
}

package validate

import (
	"strconv"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
)

// BenchmarkRevalidateA2A re-checks the largest published pack.json
// (core.openwop.a2a, 24 nodes) in process with schemas compiled: decode,
// schema validation and the document lint rules, as the wizard does on
// every keystroke. Target: median under 300 µs.
func BenchmarkRevalidateA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	if rep := v.Bytes("pack.json", data, NodePack); !rep.Valid {
		b.Fatalf("fixture invalid: %v", rep.Problems())
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Bytes("pack.json", data, NodePack)
	}
}

// BenchmarkSchemaOnlyA2A measures the schema validation alone.
func BenchmarkSchemaOnlyA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	doc, _ := jsondoc.Parse(data)
	v.SchemaProblems(NodePack, doc, "")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.SchemaProblems(NodePack, doc, "")
	}
}

// BenchmarkKeystrokeA2A is the wizard's real case: each iteration changes
// one node's description (a new text every time, so that node is never
// served from the memo) and re-checks the whole pack.json.
func BenchmarkKeystrokeA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	v.Bytes("pack.json", data, NodePack)
	doc, _ := jsondoc.Parse(data)
	desc := doc.Lookup("/nodes/5/description")
	if desc == nil {
		b.Fatal("fixture changed: /nodes/5/description missing")
	}
	head, tail := data[:desc.Start+1], data[desc.End-1:]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		edited := append(append(append([]byte{}, head...), strconv.Itoa(i)...), tail...)
		if rep := v.Bytes("pack.json", edited, NodePack); !rep.Valid {
			b.Fatal(rep.Problems())
		}
	}
}

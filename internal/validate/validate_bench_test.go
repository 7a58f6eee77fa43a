package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// BenchmarkRevalidateA2A re-checks the largest published pack.json
// (core.openwop.a2a, 24 nodes) in process with schemas compiled: decode,
// schema validation and the document lint rules, as the wizard does on
// every keystroke. Target: median under 300 µs.
func BenchmarkRevalidateA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	if rep := v.Bytes("pack.json", data, kinds.NodePack); !rep.Valid {
		b.Fatalf("fixture invalid: %v", rep.Problems())
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Bytes("pack.json", data, kinds.NodePack)
	}
}

// BenchmarkSchemaOnlyA2A measures the schema validation alone.
func BenchmarkSchemaOnlyA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	doc, _ := jsondoc.Parse(data)
	v.SchemaProblems(kinds.NodePack, doc, "")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.SchemaProblems(kinds.NodePack, doc, "")
	}
}

// BenchmarkKeystrokeA2A is the wizard's real case: each iteration changes
// one node's description (a new text every time, so that node is never
// served from the memo) and re-checks the whole pack.json.
func BenchmarkKeystrokeA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	v := newV(b)
	v.Bytes("pack.json", data, kinds.NodePack)
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
		if rep := v.Bytes("pack.json", edited, kinds.NodePack); !rep.Valid {
			b.Fatal(rep.Problems())
		}
	}
}

// BenchmarkRevalidateV2Node re-checks a published v2 node pack.json
// (core.openwop.examples@1.0.3 without the registry's fields) with the v2
// schema set, spec detection included.
func BenchmarkRevalidateV2Node(b *testing.B) {
	data := v2PackJSON(b, "core.openwop.examples/-/1.0.3.json")
	v := newV(b)
	if rep := v.Bytes("pack.json", data, ""); !rep.Valid || rep.Files[0].Spec != kinds.V2 {
		b.Fatalf("fixture invalid or not v2: %v", rep.Problems())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Bytes("pack.json", data, "")
	}
}

// BenchmarkDetectSpec measures the spec-version and kind detection alone.
func BenchmarkDetectSpec(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	doc, _ := jsondoc.Parse(data)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		kinds.Detect("pack.json", doc.Root)
		kinds.DetectSpec(doc.Root)
	}
}

func v2PackJSON(b *testing.B, rel string) []byte {
	b.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtures.SpecV2(b), "registry", "v2", "packs", rel))
	if err != nil {
		b.Fatal(err)
	}
	doc, err := jsondoc.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	out, err := json.Marshal(stripRegistryFields(doc.Root))
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkNewValidatorA2A is a new Validator's first check of
// core.openwop.a2a, as each `new`, `pack` and wizard step in one process
// makes: the embedded schemas it needs are compiled by the first Validator
// of the process only.
func BenchmarkNewValidatorA2A(b *testing.B) {
	data := fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json")
	b.ReportAllocs()
	for b.Loop() {
		v := newV(b)
		if rep := v.Bytes("pack.json", data, kinds.NodePack); !rep.Valid {
			b.Fatalf("fixture invalid: %v", rep.Problems())
		}
	}
}

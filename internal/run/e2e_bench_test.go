package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/proc"
)

// templatePack writes the scaffolded template node (its code and schemas,
// as `wopkit new pack` writes them) with n stored cases.
func templatePack(b testing.TB, cases int) string {
	dir := writePack(b, map[string]string{"hello": `const inputs = ctx?.inputs ?? {}; const text = String(inputs["text"] ?? "");
		return { status: "success", outputs: { "text": text.toUpperCase() } };`})
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	port := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","required":["text"],"properties":{"text":{"type":"string"}},"additionalProperties":false}`
	os.WriteFile(filepath.Join(dir, "schemas", "in.json"), []byte(port), 0o644)
	os.WriteFile(filepath.Join(dir, "schemas", "out.json"), []byte(port), 0o644)
	os.WriteFile(filepath.Join(dir, "schemas", "cfg.json"), []byte(`{"type":"object","additionalProperties":false}`), 0o644)
	m, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	m = []byte(strings.ReplaceAll(string(m), `"capabilities":["cacheable"]}`, `"capabilities":["cacheable"],"configSchemaRef":"schemas/cfg.json","inputSchemaRef":"schemas/in.json","outputSchemaRef":"schemas/out.json"}`))
	os.WriteFile(filepath.Join(dir, "pack.json"), m, 0o644)
	os.MkdirAll(filepath.Join(dir, "tests", "hello"), 0o755)
	for i := 0; i < cases; i++ {
		os.WriteFile(filepath.Join(dir, "tests", "hello", fmt.Sprintf("c%02d.json", i)),
			[]byte(fmt.Sprintf(`{"input":{"text":"t%d"},"expect":{"outputs":{"text":"T%d"}}}`, i, i)), 0o644)
	}
	return dir
}

// BenchmarkRunTemplate is `wopkit run DIR hello --input …` in process: the
// pack read, the config and input checked, node started in the sandbox
// with the harness, the node called, the outputs checked, node stopped.
// Compare with BenchmarkNodeImportDirect (issue 41.6: at most 1.5 times).
func BenchmarkRunTemplate(b *testing.B) {
	needNode(b)
	dir := templatePack(b, 0)
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		p, err := LoadPack(dir)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := p.Find("hello")
		pr, err := Prepare(p, n, Input{Input: []byte(`{"text":"hi"}`)})
		if err != nil {
			b.Fatal(err)
		}
		h, err := NewHost(HostOptions{Dir: dir, Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		r, err := Execute(context.Background(), h, p, n, pr)
		h.Close()
		if err != nil || r.Status != "success" {
			b.Fatalf("%v %+v", err, r)
		}
	}
}

// BenchmarkNodeImportDirect is node alone importing the entry and calling
// the same function: `node -e 'import("./index.mjs").then(…)'`.
func BenchmarkNodeImportDirect(b *testing.B) {
	needNode(b)
	dir := templatePack(b, 0)
	bin, _ := proc.LookPath("node")
	script := `import("./index.mjs").then(async (m) => { const r = await m.nodes["vendor.acme.t.hello"]({inputs: {text: "hi"}}); process.stdout.write(JSON.stringify(r)); })`
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		out, err := proc.Command(bin, []string{"-e", script}, dir, nil).Output()
		if err != nil || !strings.Contains(string(out), `"HI"`) {
			b.Fatalf("%v %s", err, out)
		}
	}
}

// BenchmarkTest50Cases is `wopkit test` of 50 stored cases in process (one
// node process); compare with BenchmarkRunTemplate (at most 3 times).
func BenchmarkTest50Cases(b *testing.B) {
	needNode(b)
	dir := templatePack(b, 50)
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op") }()
	for i := 0; i < b.N; i++ {
		p, err := LoadPack(dir)
		if err != nil {
			b.Fatal(err)
		}
		cases, err := LoadCases(p, nil)
		if err != nil || len(cases) != 50 {
			b.Fatalf("%v %d", err, len(cases))
		}
		h, err := NewHost(HostOptions{Dir: dir, Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		tr, err := RunCases(context.Background(), h, p, cases)
		h.Close()
		if err != nil || !tr.Passed {
			b.Fatalf("%v %+v", err, tr)
		}
	}
}

// BenchmarkWatchLatency is the time from a save to the moment --watch
// starts the run (WaitChange at its 50 ms tick); target 200 ms.
func BenchmarkWatchLatency(b *testing.B) {
	dir := templatePack(b, 1)
	f := filepath.Join(dir, "index.mjs")
	src, _ := os.ReadFile(f)
	for i := 0; i < b.N; i++ {
		last := Snapshot(dir)
		done := make(chan time.Time, 1)
		go func() {
			WaitChange(context.Background(), dir, last, 50*time.Millisecond)
			done <- time.Now()
		}()
		time.Sleep(20 * time.Millisecond)
		saved := time.Now()
		os.WriteFile(f, append(src, fmt.Sprintf("// %d\n", i)...), 0o644)
		b.ReportMetric(float64((<-done).Sub(saved).Milliseconds()), "ms/save")
	}
}

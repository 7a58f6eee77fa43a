package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
)

// buildBinaries builds wopkit and, as the floor to compare with, a Go
// hello-world with the same toolchain.
func buildBinaries(b *testing.B) (wopkit, hello string) {
	b.Helper()
	dir := b.TempDir()
	wopkit, hello = filepath.Join(dir, "wopkit"), filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", wopkit, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	src := filepath.Join(dir, "hello.go")
	os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644)
	if out, err := exec.Command("go", "build", "-o", hello, src).CombinedOutput(); err != nil {
		b.Fatalf("go build hello: %v\n%s", err, out)
	}
	return wopkit, hello
}

// runProcess runs one process to its end; exit 1 (a verdict) is accepted.
func runProcess(b *testing.B, name string, args ...string) time.Duration {
	start := time.Now()
	out, err := exec.Command(name, args...).CombinedOutput()
	took := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return took
}

// BenchmarkProcessStartup runs the built `wopkit version` as a whole
// process beside a Go hello-world built here (the floor), and reports the
// ratio. Targets (issue 27): at most 10 ms, and at most 5x the floor.
//
//	go test ./cmd/wopkit -run '^$' -bench ProcessStartup -benchtime 100x -count 5
func BenchmarkProcessStartup(b *testing.B) {
	wopkit, hello := buildBinaries(b)
	var w, h time.Duration
	for b.Loop() {
		// Alternate, so that a burst of load weighs on both alike.
		h += runProcess(b, hello)
		w += runProcess(b, wopkit, "version")
	}
	n := float64(b.N)
	b.ReportMetric(float64(w.Microseconds())/n/1000, "wopkit-ms")
	b.ReportMetric(float64(h.Microseconds())/n/1000, "hello-ms")
	b.ReportMetric(float64(w)/float64(h), "x-floor")
}

// BenchmarkProcessValidateMany validates 130 published node pack.json (the
// fixture registry's, copied round-robin: the count of the live registry's
// node packs) in one `wopkit validate` process. ajv-cli on the same files:
// internal/validate/testdata/ajv/compare-speed.sh 130 0.
//
//	go test ./cmd/wopkit -run '^$' -bench ProcessValidateMany -benchtime 20x -count 3
func BenchmarkProcessValidateMany(b *testing.B) {
	wopkit, _ := buildBinaries(b)
	tgzs := fixtures.Tarballs(b, "")
	dir := b.TempDir()
	args := []string{"validate"}
	for i := range 130 {
		p := filepath.Join(dir, "m"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(p, fixtures.File(b, tgzs[i%len(tgzs)], "pack.json"), 0o644); err != nil {
			b.Fatal(err)
		}
		args = append(args, p)
	}
	var w time.Duration
	for b.Loop() {
		w += runProcess(b, wopkit, args...)
	}
	b.ReportMetric(float64(w.Microseconds())/float64(b.N)/1000, "wall-ms")
}

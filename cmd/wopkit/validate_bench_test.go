package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// BenchmarkProcessValidate runs the built `wopkit validate pack.json` as a
// whole process (start, schema compile, check, exit) on the largest
// published v1 pack.json and on a v2 node pack.json. Target: < 40 ms each.
//
//	go test ./cmd/wopkit -run XXX -bench ProcessValidate -benchtime 40x
func BenchmarkProcessValidate(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "wopkit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	v1 := filepath.Join(b.TempDir(), "pack.json")
	os.WriteFile(v1, fixtures.File(b, fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"), "pack.json"), 0o644)
	v2 := filepath.Join(fixtures.SpecV2(b), "registry", "v2", "packs", "core.openwop.examples", "-", "1.0.3.json")
	for name, p := range map[string]string{"v1-a2a-pack.json": v1, "v2-version-manifest": v2} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				// Exit 1 is a verdict (the v1 pack.json is checked without its
				// files); anything else is a failure of the command.
				out, err := exec.Command(bin, "validate", p).CombinedOutput()
				var ee *exec.ExitError
				if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}

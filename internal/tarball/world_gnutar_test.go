package tarball

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// TestReadGNUTarArchives: archives made by GNU tar the way authors make them
// (tar -czf x.tgz -C dir .) are read with "./" stripped and directories
// skipped; GNU tar's long-name and PAX formats are refused.
func TestReadGNUTarArchives(t *testing.T) {
	t.Parallel()
	tarBin, err := exec.LookPath("tar")
	if err != nil {
		t.Skip("GNU tar not installed: skipping the check against archives it makes")
	}
	src := t.TempDir()
	files := map[string]string{"pack.json": `{"name":"x"}`, "schemas/a.json": "{}", "dist/run.sh": "#!/bin/sh\n"}
	for n, d := range files {
		p := filepath.Join(src, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Join(src, "dist/run.sh"), 0o755)
	mk := func(args ...string) *os.File {
		out := filepath.Join(t.TempDir(), "x.tgz")
		cmd := exec.Command(tarBin, append(append([]string{"-czf", out}, args...), "-C", src, ".")...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tar %v: %v\n%s", args, err, msg)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, format := range []string{"--format=gnu", "--format=ustar", "--format=v7"} {
		a, err := ReadAll(mk(format), RegistryLimits)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if len(a.Files) != len(files) {
			t.Fatalf("%s: %d files, want %d", format, len(a.Files), len(files))
		}
		for n, d := range files {
			f := a.Get(n)
			if f == nil || string(f.Data) != d {
				t.Errorf("%s: %s missing or different", format, n)
			}
		}
		if m := a.Get("dist/run.sh").Mode & 0o777; m != 0o755 {
			t.Errorf("%s: run.sh mode %o", format, m)
		}
	}
	// --format=posix adds PAX headers (atime, ctime) to every entry.
	if _, err := ReadAll(mk("--format=posix"), RegistryLimits); werr.CodeOf(err) != CodeUnsafeEntry {
		t.Errorf("posix format: error %v, want %s", err, CodeUnsafeEntry)
	}
	long := filepath.Join(src, "schemas", "a-very-long-directory-name-that-keeps-going-and-going", "and-a-file-name-long-enough-to-pass-one-hundred-bytes.json")
	os.MkdirAll(filepath.Dir(long), 0o755)
	os.WriteFile(long, []byte("{}"), 0o644)
	if _, err := ReadAll(mk("--format=gnu"), RegistryLimits); werr.CodeOf(err) != CodeUnsafeEntry {
		t.Errorf("gnu long name: error %v, want %s", err, CodeUnsafeEntry)
	}
}

package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Writable finds a folder the process may not write (issue 25, item 11),
// through the parts of the path not made yet, and a file in the way.
func TestWritable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Writable(filepath.Join(dir, "a", "b")); err != nil {
		t.Fatalf("a writable folder: %v", err)
	}
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Writable(filepath.Join(file, "x")); err == nil {
		t.Error("a file in the way is not said")
	}
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("the read-only folder case needs Unix permissions and a user other than root (root writes anywhere)")
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := Writable(filepath.Join(ro, "my-pack")); err == nil {
		t.Error("a read-only folder is said writable")
	}
}

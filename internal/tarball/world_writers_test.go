package tarball

import (
	"archive/tar"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Archives of the writers authors use are accepted: archive/tar's USTAR
// and GNU formats, Python's tarfile in its USTAR and GNU formats (its
// default PAX format records the fractional mtime: refused, as every PAX
// header is), and npm's node-tar as `npm pack` runs it (portable: uid and
// gid left NUL). The field rules of checkAmbiguous refuse none of them.
func TestCommonWritersAccepted(t *testing.T) {
	t.Parallel()
	want := "pack.json,dist/run.js"
	check := func(t *testing.T, tgz []byte) {
		t.Helper()
		a, err := ReadAll(bytes.NewReader(tgz), DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range a.Files {
			names = append(names, f.Name)
		}
		if strings.Join(names, ",") != want {
			t.Errorf("files %q, want %s", names, want)
		}
	}
	for _, format := range []tar.Format{tar.FormatUSTAR, tar.FormatGNU} {
		t.Run("archive/tar "+format.String(), func(t *testing.T) {
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			tw.WriteHeader(&tar.Header{Name: "pack.json", Mode: 0o644, Size: 2, Typeflag: tar.TypeReg, Format: format, Uname: "alice", Gname: "staff"})
			tw.Write([]byte("{}"))
			tw.WriteHeader(&tar.Header{Name: "dist/", Mode: 0o755, Typeflag: tar.TypeDir, Format: format})
			tw.WriteHeader(&tar.Header{Name: "dist/run.js", Mode: 0o755, Size: 1, Typeflag: tar.TypeReg, Format: format})
			tw.Write([]byte("1"))
			tw.Close()
			check(t, gz(buf.Bytes()))
		})
	}
	src := t.TempDir()
	os.MkdirAll(filepath.Join(src, "dist"), 0o755)
	os.WriteFile(filepath.Join(src, "pack.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(src, "dist", "run.js"), []byte("1"), 0o755)
	if py, err := exec.LookPath("python3"); err == nil {
		for _, format := range []string{"USTAR_FORMAT", "GNU_FORMAT"} {
			t.Run("tarfile "+format, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "x.tgz")
				script := `import sys, tarfile
with tarfile.open(sys.argv[1], "w:gz", format=getattr(tarfile, sys.argv[3])) as t:
    t.add(sys.argv[2] + "/pack.json", "pack.json")
    t.add(sys.argv[2] + "/dist/run.js", "dist/run.js")`
				if msg, err := exec.Command(py, "-c", script, out, src, format).CombinedOutput(); err != nil {
					t.Fatalf("python3: %v\n%s", err, msg)
				}
				data, _ := os.ReadFile(out)
				check(t, data)
			})
		}
	}
	if node := nodeTarReader(t); node != nil {
		t.Run("node-tar portable", func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "x.tgz")
			mod := nodeTarModule()
			script := `const tar = require(process.argv[1]);
tar.c({file: process.argv[2], sync: true, gzip: true, portable: true, cwd: process.argv[3]}, ["pack.json", "dist/run.js"])`
			if msg, err := exec.Command("node", "-e", script, mod, out, src).CombinedOutput(); err != nil {
				t.Fatalf("node: %v\n%s", err, msg)
			}
			data, _ := os.ReadFile(out)
			check(t, data)
		})
	}
}

package untrusted

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/werr"
)

// Files opened through kept directory handles get the verdict, the bytes
// and the message that opening them by their whole path through the root
// gives, before and after their directories' handles were kept: links to
// a sibling directory, to a directory, out of the root, dangling; FIFOs,
// directories, files over the bound, missing files and directories.
func TestKeptDirectoriesDecideAsTheRoot(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	for _, d := range []string{"v1/packs/a/-", "v1/packs/b/-", "v1/packs/a/-/dir.json"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	write := func(rel, s string) { os.WriteFile(filepath.Join(root, rel), []byte(s), 0o644) }
	write("v1/packs/a/-/1.0.0.json", `{"v":"a1"}`)
	write("v1/packs/b/-/2.0.0.json", `{"v":"b2"}`)
	write("v1/packs/a/-/big.json", strings.Repeat(" ", 300))
	write("v1/packs/a/index.json", `{"i":1}`)
	os.WriteFile(filepath.Join(base, "secret.json"), []byte("SECRET"), 0o644)
	link := func(target, rel string) { os.Symlink(target, filepath.Join(root, rel)) }
	link("../../b/-/2.0.0.json", "v1/packs/a/-/sibling.json")
	link("b", "v1/packs/c")
	link("../../../../../secret.json", "v1/packs/a/-/out.json")
	link("/etc/hostname", "v1/packs/a/-/abs.json")
	link("nowhere.json", "v1/packs/a/-/dangling.json")
	link("../../../..", "v1/packs/a/-/up")
	if err := fixtures.Mkfifo(t, filepath.Join(root, "v1/packs/a/-/fifo.json")); err != nil {
		t.Fatal(err)
	}
	rels := []string{
		"v1/packs/a/-/1.0.0.json", "v1/packs/b/-/2.0.0.json", "v1/packs/a/-/big.json", "v1/packs/a/index.json",
		"v1/packs/a/-/sibling.json", "v1/packs/c/-/2.0.0.json", "v1/packs/a/-/out.json", "v1/packs/a/-/abs.json",
		"v1/packs/a/-/dangling.json", "v1/packs/a/-/up/secret.json", "v1/packs/a/-/fifo.json", "v1/packs/a/-/dir.json",
		"v1/packs/a/-/missing.json", "v1/packs/missing/-/1.0.0.json", "v1/packs/a/-/../-/1.0.0.json", "../secret.json",
		"v1/packs/a/-/1.0.0.json/x", "v1/packs/a/index.json/x",
	}
	outcome := func(d *Dir, rel string) string {
		b, err := d.ReadFile(rel, 100)
		if err != nil {
			return fmt.Sprintf("notExist=%v code=%q %v", errors.Is(err, fs.ErrNotExist), werr.CodeOf(err), err)
		}
		return "read " + string(b)
	}
	ref, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	ref.direct = true
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for round := range 2 {
		for _, rel := range rels {
			want, got := outcome(ref, rel), outcome(d, rel)
			if got != want {
				t.Errorf("round %d, %s:\n got  %s\n want %s", round, rel, got, want)
			}
		}
	}
	if len(d.subs) == 0 || len(ref.subs) != 0 {
		t.Errorf("kept %d handles (the reference %d): the comparison compared nothing", len(d.subs), len(ref.subs))
	}
}

// A Dir keeps at most maxSubdirs directory handles, and every file stays
// readable past that.
func TestKeptDirectoriesAreBounded(t *testing.T) {
	root := t.TempDir()
	n := maxSubdirs + 40
	for i := range n {
		dir := filepath.Join(root, "packs", fmt.Sprint(i), "-")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "1.json"), []byte(fmt.Sprint(i)), 0o644)
	}
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if b, err := d.ReadFile(fmt.Sprintf("packs/%d/-/1.json", i), 10); err != nil || string(b) != fmt.Sprint(i) {
			t.Fatalf("file %d: %q %v", i, b, err)
		}
	}
	if len(d.subs) > maxSubdirs {
		t.Errorf("%d directory handles kept, the bound is %d", len(d.subs), maxSubdirs)
	}
	d.Close()
	if d.subs != nil {
		t.Errorf("Close left %d handles", len(d.subs))
	}
}

//go:build unix

package publish

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/werr"
)

// within runs f and fails the test, instead of hanging the suite, when it
// has not returned after 10 s.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	return testwait.Within(t, what, testwait.Ceiling, f)
}

// refuseWithin is refuse for a command that could block: Stage (and Apply,
// were it planned) of o must return promptly with code, the tree unchanged.
func refuseWithin(t *testing.T, o Options, code string) {
	t.Helper()
	root, err := FindRoot(o.Registry)
	if err != nil {
		t.Fatal(err)
	}
	before := treeHashes(t, root)
	err = within(t, "publish", func() error {
		p, err := Stage(t.Context(), o)
		if err == nil {
			p.Apply()
		}
		return err
	})
	if got := werr.CodeOf(err); got != code {
		t.Fatalf("code %q, want %q: %v", got, code, err)
	}
	sameTree(t, before, treeHashes(t, root))
}

// Issue item 5: publish wrote through directories of the checkout that are
// links leading out of it. The registry root is an os.Root now: each such
// link is refused (path_outside_root) and nothing is written outside.
func TestLinksLeavingTheCheckoutRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		link string // the link, relative to the registry root
	}{
		{"v2", "v2"},
		{"v2/packs", "v2/packs"},
		{"the pack's folder", "v2/packs/" + testPack},
		{"the pack's versions", "v2/packs/" + testPack + "/-"},
		{"the schema mirror", testPack},
		{"the schema mirror of the version", testPack + "/1.1.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, k := testTree(t)
			tgz := k.release(t, testPack, "1.1.0")
			root := filepath.Join(dir, "registry")
			link := filepath.Join(root, filepath.FromSlash(c.link))
			outside := t.TempDir()
			if fi, err := os.Stat(link); err == nil && fi.IsDir() {
				fixtures.CopyInto(t, link, outside) // the link shows what was there
				if err := os.RemoveAll(link); err != nil {
					t.Fatal(err)
				}
			}
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			before := treeHashes(t, outside)
			refuse(t, Options{Tarball: tgz, Registry: dir}, "path_outside_root")
			sameTree(t, before, treeHashes(t, outside))

			if strings.HasPrefix(c.link, "v2") {
				_, err := Yank(LifecycleOptions{Registry: dir, Name: testPack, Version: "1.0.0", Reason: "x"})
				if werr.CodeOf(err) != "path_outside_root" {
					t.Errorf("yank: %v, want path_outside_root", err)
				}
				sameTree(t, before, treeHashes(t, outside))
			}
		})
	}
}

// Issue item 7: a FIFO at a file publish reads hung it, a link to /dev/zero
// exhausted memory, a 60 MB index cost gigabytes. Each is now refused
// promptly: a FIFO as file_not_regular (checked before the open, which
// never blocks), a link leaving the registry root or the tarball's folder as
// path_outside_root, a file over the registry's bounds as file_too_large.
func TestSpecialFilesRefusedPromptly(t *testing.T) {
	t.Parallel()
	base, k := testTree(t)
	release := filepath.Dir(k.release(t, testPack, "1.1.0"))
	for _, c := range []struct {
		rel   string // in the registry root, or "beside/<ext>" beside the tarball
		zero  string // the code for a link to /dev/zero there (a FIFO: file_not_regular)
		large int64  // the size over the bound there (0: not tried)
		yank  bool   // yank reads it too
	}{
		{"v2/index.json", "path_outside_root", 60 << 20, true}, // the 60 MB index
		{"v2/packs/" + testPack + "/index.json", "path_outside_root", 4<<20 + 1, true},
		{"v2/packs/" + testPack + "/-/1.0.0.json", "path_outside_root", 4<<20 + 1, true},
		{"security/advisories.json", "path_outside_root", 4<<20 + 1, false},
		{"v2/sbom.json", "path_outside_root", 16<<20 + 1, false},
		{"beside/.sig", "path_outside_root", 4<<20 + 1, false},
		{"beside/.json", "path_outside_root", 4<<20 + 1, false},
		{"beside/.tgz", "file_not_regular", 0, false}, // named by the user: the link is followed
	} {
		for _, kind := range []string{"fifo", "zero", "large"} {
			if kind == "large" && c.large == 0 {
				continue
			}
			t.Run(c.rel+" "+kind, func(t *testing.T) {
				dir, rdir := t.TempDir(), t.TempDir()
				fixtures.CopyInto(t, base, dir)
				fixtures.CopyInto(t, release, rdir)
				tgz := filepath.Join(rdir, testPack+"-1.1.0.tgz")
				p := filepath.Join(dir, "registry", filepath.FromSlash(c.rel))
				if ext, ok := strings.CutPrefix(c.rel, "beside/"); ok {
					p = strings.TrimSuffix(tgz, ".tgz") + ext
				}
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.Remove(p)
				want := "file_not_regular"
				switch kind {
				case "fifo":
					if err := syscall.Mkfifo(p, 0o644); err != nil {
						t.Skipf("cannot make a FIFO here: %v", err)
					}
				case "zero":
					if err := os.Symlink("/dev/zero", p); err != nil {
						t.Fatal(err)
					}
					want = c.zero
				case "large":
					f, err := os.Create(p)
					if err != nil {
						t.Fatal(err)
					}
					f.Truncate(c.large) // sparse: read as zeros
					f.Close()
					want = "file_too_large"
				}
				refuseWithin(t, Options{Tarball: tgz, Registry: dir}, want)
				if c.yank {
					err := within(t, "yank", func() error {
						_, err := Yank(LifecycleOptions{Registry: dir, Name: testPack, Version: "1.0.0", Reason: "x"})
						return err
					})
					if werr.CodeOf(err) != want {
						t.Errorf("yank: %v, want %s", err, want)
					}
				}
			})
		}
	}
}

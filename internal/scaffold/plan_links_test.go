//go:build unix

package scaffold

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Issue 24 item 5: `new agent|node|eval --pack` created the new prompt,
// schema or suite through a prompts/, schemas/ or evals/ that links out of
// the pack, and rewrote a pack.json that links out. The plan's write now
// goes through the pack folder's place: each is refused
// (path_outside_root), and nothing is written outside the pack, nor inside.
func TestPlanNeverWritesThroughALinkOut(t *testing.T) {
	t.Parallel()
	for _, folder := range []string{"prompts", "schemas", "evals"} {
		t.Run(folder, func(t *testing.T) {
			t.Parallel()
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.Symlink(outside, filepath.Join(dir, folder)); err != nil {
				t.Fatal(err)
			}
			p := &Plan{Files: []File{{Path: "agents/a.md", Data: []byte("a"), Mode: 0o644}, {Path: folder + "/new.json", Data: []byte("{}"), Mode: 0o644}}}
			err := p.Write(dir, false)
			if werr.CodeOf(err) != untrusted.CodeOutsideRoot {
				t.Fatalf("err %v, want %s", err, untrusted.CodeOutsideRoot)
			}
			assertEmpty(t, outside)
			if _, err := os.Lstat(filepath.Join(dir, "agents")); err == nil {
				t.Error("the failed plan left agents/ behind")
			}
		})
	}
	t.Run("pack.json", func(t *testing.T) {
		t.Parallel()
		dir, outside := t.TempDir(), t.TempDir()
		old := []byte(`{"name":"x"}`)
		if err := os.WriteFile(filepath.Join(outside, "pack.json"), old, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, "pack.json"), filepath.Join(dir, "pack.json")); err != nil {
			t.Fatal(err)
		}
		p := &Plan{Files: []File{{Path: "pack.json", Data: []byte(`{"name":"y"}`), Mode: 0o644, Update: true, Base: old}}}
		if err := p.Write(dir, false); werr.CodeOf(err) != untrusted.CodeOutsideRoot {
			t.Fatalf("err %v, want %s", err, untrusted.CodeOutsideRoot)
		}
		if b, _ := os.ReadFile(filepath.Join(outside, "pack.json")); string(b) != string(old) {
			t.Errorf("the pack.json outside was rewritten: %s", b)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 1 {
			t.Errorf("files were left outside: %v", entries)
		}
	})
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("%s holds %v: written through the link", dir, entries)
	}
}

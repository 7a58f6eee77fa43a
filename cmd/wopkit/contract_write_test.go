package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentNewAgentLosesNothing: agents added to one pack at once by
// concurrent `wopkit new agent --pack SAME` all end up in pack.json (issue
// 10 item 9: one was lost in 10 of 10 runs). 10 runs of 4 writers.
func TestConcurrentNewAgentLosesNothing(t *testing.T) {
	t.Parallel()
	for run := 0; run < 10; run++ {
		dir := filepath.Join(t.TempDir(), "p")
		if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
			t.Fatalf("new pack: %s", errOut)
		}
		const n = 4
		var wg sync.WaitGroup
		codes := make([]int, n)
		errs := make([]string, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				_, errs[i], codes[i] = runCmd(t, "new", "agent", "--pack", dir, "--set", fmt.Sprintf("id=a%d", i), "--set", "modelClass=writing")
			}(i)
		}
		wg.Wait()
		data, err := os.ReadFile(filepath.Join(dir, "pack.json"))
		if err != nil {
			t.Fatal(err)
		}
		var pj struct{ Agents []struct{ AgentID string } }
		if err := json.Unmarshal(data, &pj); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, a := range pj.Agents {
			got[a.AgentID] = true
		}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("vendor.acme.hello.a%d", i)
			if codes[i] == 0 && !got[id] {
				t.Fatalf("run %d: writer %d exited 0 but %s is not in pack.json (agents %v)", run, i, id, got)
			}
			if codes[i] != 0 {
				t.Errorf("run %d: writer %d exit %d: %s", run, i, codes[i], errs[i])
			}
		}
		if _, errOut, code := runCmd(t, "validate", dir); code != 0 {
			t.Fatalf("run %d: the pack no longer validates: %s", run, errOut)
		}
	}
}

// TestPackJSONSymlinkAndModeKept: adding an agent writes through a pack.json
// that is a symbolic link to a file inside the pack (the link stays) and
// keeps a 0600 mode; a pack.json that links out of the pack is refused
// (path_outside_root, issue 24 item 5) and its target keeps its content.
func TestPackJSONSymlinkAndModeKept(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	link := func(real string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(real), 0o755)
		os.WriteFile(real, data, 0o600)
		os.Chmod(real, 0o600)
		os.Remove(filepath.Join(dir, "pack.json"))
		if err := os.Symlink(real, filepath.Join(dir, "pack.json")); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "real-pack.json")
	link(outside)
	_, errOut, code := runCmd(t, "new", "agent", "--pack", dir, "--set", "id=writer", "--set", "modelClass=writing")
	if code == 0 || !strings.Contains(errOut, "path_outside_root") && !strings.Contains(errOut, "leads out of the folder") {
		t.Fatalf("new agent through a pack.json linking out: exit %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(outside); string(got) != string(data) {
		t.Fatalf("the pack.json outside the pack was rewritten:\n%s", got)
	}
	real := filepath.Join(dir, "manifest", "pack.json")
	link(real)
	if _, errOut, code := runCmd(t, "new", "agent", "--pack", dir, "--set", "id=writer", "--set", "modelClass=writing"); code != 0 {
		t.Fatalf("new agent: exit %d: %s", code, errOut)
	}
	lst, err := os.Lstat(filepath.Join(dir, "pack.json"))
	if err != nil || lst.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("pack.json is no longer a symbolic link: %v %v", lst.Mode(), err)
	}
	fi, _ := os.Stat(real)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	got, _ := os.ReadFile(real)
	if !strings.Contains(string(got), "vendor.acme.hello.writer") {
		t.Errorf("the link's target did not get the agent:\n%s", got)
	}
}

// TestTempFilesNeverPacked: a write's temporary file left in schemas/ by a
// killed process is not packed.
func TestTempFilesNeverPacked(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	os.WriteFile(filepath.Join(dir, "schemas", ".a.json.tmp-123456"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, ".pack.json.tmp-99"), []byte("{}"), 0o644)
	out, errOut, code := runCmd(t, "pack", dir, "--dry-run", "--no-validate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, ".tmp-") {
		t.Errorf("a temporary file would be packed:\n%s", out)
	}
}

// Issue 24 item 5: `new agent --pack` created the agent's prompt through a
// prompts/ that links out of the pack. It is refused and nothing is written
// outside the pack (nor its pack.json changed).
func TestNewAgentNeverWritesThroughALinkedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new pack: %s", errOut)
	}
	outside := t.TempDir()
	os.RemoveAll(filepath.Join(dir, "prompts"))
	if err := os.Symlink(outside, filepath.Join(dir, "prompts")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	_, errOut, code := runCmd(t, "new", "agent", "--pack", dir, "--set", "id=writer", "--set", "modelClass=writing")
	if code == 0 {
		t.Fatalf("new agent wrote through prompts/ linking out")
	}
	if !strings.Contains(errOut, "leads out of the folder") {
		t.Errorf("the error does not say the link leads out: %s", errOut)
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Errorf("written outside the pack: %v", ents)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "pack.json")); string(after) != string(before) {
		t.Error("pack.json changed")
	}
}

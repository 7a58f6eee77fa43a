package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// plantJournal writes into the registry root the transaction directory a
// clone of a stranger's fork may hold: a journal in the shape older wopkit
// releases wrote there, and the staged files it names.
func plantJournal(t *testing.T, root, state string, files []string, staged map[string]string) {
	t.Helper()
	for name, content := range staged {
		writeFile(t, filepath.Join(root, txnDir, name), content)
	}
	for _, format := range []string{"wopkit-registry-transaction/1"} {
		writeFile(t, filepath.Join(root, txnDir, "journal.json"),
			`{"format":"`+format+`","state":"`+state+`","what":"x@1.0.0","dirs":[],"files":[`+strings.Join(files, ",")+`]}`)
	}
}

// Issue 24 item 1: a registry checkout's .wopkit-transaction/journal.json
// was replayed by publish (also --dry-run), yank and deprecate: a planted
// journal renamed its staged file over .git/hooks/pre-commit (where the
// repository root is the registry root) or, in state "back", deleted
// keys/*.pub. A journal this user's wopkit did not write is now refused
// (transaction_not_ours) by every command, and nothing changes: not the
// tree, not .git.
func TestPlantedJournalNeverRuns(t *testing.T) {
	dir, k := testTree(t)
	root := filepath.Join(dir, "registry") // the repository's root too: it holds .git
	writeFile(t, filepath.Join(root, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n")
	writeFile(t, filepath.Join(root, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\n")
	tgz := k.release(t, testPack, "1.1.0")

	plants := map[string]func(){
		"forward over .git/hooks/pre-commit": func() {
			plantJournal(t, root, "forward", []string{`{"path":".git/hooks/pre-commit","new":"0.new"}`},
				map[string]string{"0.new": "#!/bin/sh\necho owned\n"})
		},
		"forward over .git/config": func() {
			plantJournal(t, root, "forward", []string{`{"path":".git/config","new":"0.new"}`},
				map[string]string{"0.new": "[core]\n\tfsmonitor = touch /tmp/owned\n"})
		},
		"back deleting keys/*.pub": func() {
			plantJournal(t, root, "back", []string{`{"path":"keys/` + testKeyID + `.pub","new":"0.new"}`}, nil)
			os.MkdirAll(filepath.Join(root, txnDir), 0o755)
		},
		"forward in today's format": func() {
			writeFile(t, filepath.Join(root, txnDir, "0.new"), "x")
			writeFile(t, filepath.Join(root, txnDir, "journal.json"), `{"format":"`+journalFormat+`","state":"forward","what":"x","root":"`+root+`","dirs":[],"files":[{"path":"v2/index.json","new":"0.new"}]}`)
		},
	}
	life := func(dry bool) LifecycleOptions {
		return LifecycleOptions{Registry: dir, Name: testPack, Version: "1.0.0", Reason: "planted", DryRun: dry}
	}
	commands := map[string]func() error{
		"publish": func() error { _, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir}); return err },
		"publish --dry-run": func() error {
			_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir, DryRun: true})
			return err
		},
		"yank":           func() error { _, err := Yank(life(false)); return err },
		"yank --dry-run": func() error { _, err := Yank(life(true)); return err },
		"deprecate":      func() error { _, err := Deprecate(life(false)); return err },
		"Recover":        func() error { _, err := Recover(dir); return err },
	}
	for plant, setup := range plants {
		for cmd, run := range commands {
			t.Run(plant+"/"+cmd, func(t *testing.T) {
				setup()
				defer os.RemoveAll(filepath.Join(root, txnDir))
				before := treeHashes(t, root)
				err := run()
				if werr.CodeOf(err) != CodeNotOurs {
					t.Fatalf("err %v, want %s", err, CodeNotOurs)
				}
				if msg := err.Error(); !strings.Contains(msg, filepath.Join(root, txnDir)) || !strings.Contains(msg, "remove") {
					t.Errorf("the message does not say where and what to do: %s", msg)
				}
				sameTree(t, before, treeHashes(t, root))
				if _, err := os.Lstat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
					t.Fatal(".git/hooks/pre-commit was written")
				}
			})
		}
	}
}

// stopApply applies p and stops it at its n-th crash point, as a kill would
// (nothing after the point runs); it reports whether it stopped there.
func stopApply(t *testing.T, p *Plan, n int) bool {
	t.Helper()
	type crash struct{}
	count := 0
	crashPoint = func() {
		if count++; count == n {
			panic(crash{})
		}
	}
	defer func() { crashPoint = func() {} }()
	stopped := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(crash); !ok {
					panic(r)
				}
				stopped = true
			}
		}()
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
	}()
	return stopped
}

// pendingTransaction is a checkout (dir, its registry root) where the
// publication of testPack@1.1.0 stopped just after its commit point.
func pendingTransaction(t *testing.T) (dir, root, tgz string, p *Plan) {
	t.Helper()
	dir, k := testTree(t)
	tgz = k.release(t, testPack, "1.1.0")
	p = stage(t, Options{Tarball: tgz, Registry: dir})
	if !stopApply(t, p, len(p.Changes)+2) {
		t.Fatal("Apply did not reach its commit point")
	}
	return dir, filepath.Join(dir, "registry"), tgz, p
}

// stateHashes is what wopkit's state folder holds.
func stateHashes(t *testing.T) map[string]string {
	t.Helper()
	dir, err := userstate.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	return treeHashes(t, dir)
}

// --dry-run never completes or undoes an interrupted transaction of this
// user's (it used to replay it): it is refused (transaction_pending) and
// neither the tree nor the state folder changes; the next run that writes
// completes it.
func TestDryRunReplaysNothing(t *testing.T) {
	dir, root, tgz, _ := pendingTransaction(t)
	tree, state := treeHashes(t, root), stateHashes(t)
	life := LifecycleOptions{Registry: dir, Name: testPack, Version: "1.0.0", Reason: "r", DryRun: true}
	for name, run := range map[string]func() error{
		"publish --dry-run": func() error {
			_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir, DryRun: true})
			return err
		},
		"yank --dry-run": func() error { _, err := Yank(life); return err },
	} {
		if err := run(); werr.CodeOf(err) != CodePending {
			t.Fatalf("%s: %v, want %s", name, err, CodePending)
		}
		sameTree(t, tree, treeHashes(t, root))
		sameTree(t, state, stateHashes(t))
	}
	note, err := Recover(dir)
	if err != nil || !strings.Contains(note, "it was completed") {
		t.Fatalf("Recover: %q, %v", note, err)
	}
	if _, err := os.Lstat(filepath.Join(root, txnDir)); err == nil {
		t.Error("the transaction directory is still there")
	}
	if p := stage(t, Options{Tarball: tgz, Registry: dir}); !p.NoOp {
		t.Errorf("after the recovery the release is not all there: %d changes", len(p.Changes))
	}
}

// A journal of this user's for a checkout that was at the same path before
// (removed, another cloned there) describes a tree that is gone: it is
// discarded, and the transaction directory the new checkout holds is not
// this user's.
func TestJournalOfAnotherCheckoutAtThePath(t *testing.T) {
	dir, root, _, _ := pendingTransaction(t)
	// The checkout goes; another, holding a transaction directory of the
	// same shape, is put at its path.
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	fixtures.CopyInto(t, moved, dir)
	before := treeHashes(t, root)
	if _, err := OpenTree(dir, SpecV2); werr.CodeOf(err) != CodeNotOurs {
		t.Fatalf("err %v, want %s", err, CodeNotOurs)
	}
	sameTree(t, before, treeHashes(t, root))
}

// wopkit's own journal never names a path inside .git (defence in depth:
// one edited in the state folder is refused before anything is done).
func TestOwnJournalNamingGitRefused(t *testing.T) {
	dir, root, _, p := pendingTransaction(t)
	d := p.dir
	tx, err := openTxn(d, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.close()
	j, err := tx.load()
	if err != nil || j == nil {
		t.Fatalf("no journal: %v", err)
	}
	for _, path := range []string{".git/hooks/pre-commit", ".GIT/config", "v2/../.git/config"} {
		j.Files[0].Path = path
		if err := tx.save(j); err != nil {
			t.Fatal(err)
		}
		before := treeHashes(t, root)
		if _, err := OpenTree(dir, SpecV2); werr.CodeOf(err) != "registry_invalid" {
			t.Fatalf("%s: err %v, want registry_invalid", path, err)
		}
		sameTree(t, before, treeHashes(t, root))
	}
}

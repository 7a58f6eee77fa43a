package publish

import (
	"path/filepath"
	"testing"
)

// Issue 24 item 9: 1.0.0-RC.1 and 1.0.0-Rc.1 were both staged; on macOS and
// Windows checkouts their files are one. A version whose files differ from
// a published one's only in letter case is refused (version_case_conflict)
// and the tree is unchanged; one that differs by more is staged. A new file
// of any plan (yank, deprecate, the schema mirror) whose path differs from
// one in the tree only by case is refused the same way.
func TestVersionsDifferingOnlyInCaseRefused(t *testing.T) {
	dir, k := testTree(t)
	root := filepath.Join(dir, "registry")
	publishOK(t, Options{Tarball: k.release(t, testPack, "1.1.0-RC.1"), Registry: dir})
	for _, v := range []string{"1.1.0-Rc.1", "1.1.0-rc.1"} {
		t.Run(v, func(t *testing.T) {
			refuse(t, Options{Tarball: k.release(t, testPack, v), Registry: dir}, CodeCaseConflict)
		})
	}
	before := treeHashes(t, root)
	p := stage(t, Options{Tarball: k.release(t, testPack, "1.1.0-RC.2"), Registry: dir, AllowBreaking: true})
	if len(p.Changes) == 0 {
		t.Fatal("1.1.0-RC.2 plans nothing")
	}
	sameTree(t, before, treeHashes(t, root))
}

func TestNewFileDifferingOnlyInCaseRefused(t *testing.T) {
	dir, k := testTree(t)
	root := filepath.Join(dir, "registry")
	// A folder of the tree the plan writes into, in another letter case.
	writeFile(t, filepath.Join(root, "V2", "x"), "x")
	refuse(t, Options{Tarball: k.release(t, testPack, "1.1.0"), Registry: dir}, CodeCaseConflict)
}

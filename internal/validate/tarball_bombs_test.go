package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/bombs"
	"github.com/openwop/wopkit/internal/tarball"
)

// Issue 10 item 2: a 1 MB tarball of 63 JSON arrays of 16 MiB drove
// validate past 6 GB. With the default (registry) limits it is refused at
// its first entry; the worst tarball those limits let through (nine 5 MiB
// arrays of 2.6 million numbers, referenced as schemas) stays within
// 256 MiB: each file's parse stops at jsondoc's node bound with a
// problem (OW005), and the lint cache keeps at most 1 MiB. The issue's
// bomb is built with 17 of its 63 arrays: refused at the first, and 17 x
// 16 MiB still passes 256 MiB if a reader held them (building all 63 cost
// a second and a half of CPU and showed nothing more).
func TestValidateBombsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 272 MiB of tarball stream")
	}
	dir := t.TempDir()
	write := func(name string, build func(f *os.File) error) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := build(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if fi, _ := os.Stat(p); fi.Size() > 10<<20 {
			t.Fatalf("%s is %d bytes compressed", name, fi.Size())
		}
		return p
	}
	const issueN, issueSize = 17, 16 << 20
	if issueN*issueSize <= 256<<20 {
		t.Fatal("the issue's bomb would fit in the heap bound it is checked against")
	}
	issue := write("issue.tgz", func(f *os.File) error { return bombs.Schemas(f, issueN, issueSize) })
	sized := write("registry-sized.tgz", func(f *os.File) error { return bombs.Schemas(f, 9, 5<<20) })
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(p string) (rep *Report) {
		peak, took := bombs.Peak(func() {
			if rep, err = v.Paths([]string{p}); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("validate %s: peak heap %d MiB, %v", filepath.Base(p), peak>>20, took)
		if peak > 256<<20 {
			t.Errorf("validate %s: peak heap %d MiB, more than 256 MiB", filepath.Base(p), peak>>20)
		}
		return rep
	}
	if rep := run(issue); rep.Valid || !hasProblem(rep, "tarball/"+tarball.CodeTooLarge, "per-entry limit") {
		t.Errorf("the issue's bomb is not refused by the entry limit: %+v", rep.Files[0].Errors)
	}
	rep := run(sized)
	if rep.Valid || !hasProblem(rep, "OW005", "more than 250000 values") {
		t.Errorf("the node bound is not reported as a problem with a rule id")
	}
}

func hasProblem(rep *Report, rule, says string) bool {
	for _, f := range rep.Files {
		for _, p := range f.Errors {
			if p.Rule == rule && strings.Contains(p.Message, says) {
				return true
			}
		}
	}
	return false
}

package create

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNextStepsRunAsPrinted (issue 35, item 3): the scaffolded tests are
// said with the folder to cd to (node --test run elsewhere finds no test),
// and, when the files went elsewhere than the folder the author is in
// (wopkit's own source tree, Base), the review says where and the step
// names the folder whole. With node installed, the step is run as printed
// from the author's folder and must run the scaffolded test.
func TestNextStepsRunAsPrinted(t *testing.T) {
	for _, redirect := range []bool{false, true} {
		t.Run(map[bool]string{false: "here", true: "elsewhere"}[redirect], func(t *testing.T) {
			here := t.TempDir()
			t.Chdir(here)
			dir, base := "greeter", ""
			if redirect {
				base = t.TempDir()
				t.Chdir(base) // as leaveSourceTree does: the files go there
				Base = base
				t.Cleanup(func() { Base = "" })
			}
			opts := Options{Plan: packPlan(t, "community.acme.greeter"), Dir: dir, PackLater: true}
			where := Where(opts)
			if said := slices.ContainsFunc(where, func(l string) bool { return strings.Contains(l, "the files go to "+filepath.ToSlash(base)+" instead") }); said != redirect {
				t.Errorf("Where (redirected %v): %q", redirect, where)
			}
			res, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			want := "cd greeter && node --test"
			if redirect {
				want = "cd " + filepath.ToSlash(filepath.Join(base, "greeter")) + " && node --test"
			}
			var step string
			for _, n := range res.Notes {
				if c, ok := strings.CutPrefix(n, "run the scaffolded tests with: "); ok {
					step = c
				}
			}
			if step != want {
				t.Fatalf("the test step is %q, want %q (notes %q)", step, want, res.Notes)
			}
			if _, err := exec.LookPath("node"); err != nil {
				t.Log("node is not installed: the step is not run")
				return
			}
			t.Chdir(here) // where the author stands
			sh := exec.Command("sh", "-c", step)
			out, err := sh.CombinedOutput()
			if err != nil || !regexp.MustCompile(`(?m)^# pass [1-9]`).Match(out) {
				t.Errorf("%s from the author's folder: %v\n%s", step, err, out)
			}
		})
	}
}

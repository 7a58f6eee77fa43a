package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/werr"
)

// TestWizardAndAccessibleShareThePreflight: with a pack folder and a
// tarball already there, the wizard's review and accessible mode from a
// pipe both show exactly the problems the create workflow's Preflight
// finds for the same answers (each under the question that resolves it),
// write nothing, and accessible mode's error does not repeat them.
func TestWizardAndAccessibleShareThePreflight(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("piped", 0o755)
	os.WriteFile(filepath.Join("piped", "pack.json"), []byte("{}"), 0o644)
	os.WriteFile("community.acme.piped-0.1.0.tgz", []byte("an earlier release"), 0o644)

	a := newAnswers()
	a.What, a.Pack.Name = whatNodes, "community.acme.piped"
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	toPage(d, w, "review")
	plan := makePlan(testValidator, a).Plan
	if plan == nil {
		t.Fatal("no plan")
	}
	want := create.Preflight(createOptions(testValidator, a, session{Options: Options{DraftDir: dir}}, plan))
	if len(want) != 2 || want[0].Subject != create.Folder || want[1].Subject != create.Tarball {
		t.Fatalf("Preflight: %+v", want)
	}
	if len(w.rev.Problems) != len(want) {
		t.Fatalf("the review: %+v, Preflight: %+v", w.rev.Problems, want)
	}
	fields := []string{"name.part", "version"}
	for i, p := range want {
		got := w.rev.Problems[i]
		if got.Message != p.Message || got.Hint != p.Hint || got.Field != fields[i] {
			t.Errorf("review problem %d: %+v, Preflight's: %+v", i, got, p)
		}
	}

	// accessible mode from a pipe, the same answers: signed with v2 and a new key
	lines := append(nodeLines("acme")[:len(nodeLines("acme"))-1], "1", "", "", "")
	var out bytes.Buffer
	opts := Options{DraftDir: dir, Accessible: true, Input: strings.NewReader(strings.Join(lines, "\n") + "\n"), Screen: &out}
	err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts})
	var e *werr.Error
	if !errors.As(err, &e) || e.Class != werr.Invalid {
		t.Fatalf("accessible mode: %v\n%s", err, out.String())
	}
	s := out.String()
	for i, label := range []string{"Pack name", "Version"} {
		if !strings.Contains(s, label+": "+want[i].Message+"\n    "+want[i].Hint+"\n") {
			t.Errorf("accessible mode does not list %q under %q:\n%s", want[i].Message, label, s)
		}
		if strings.Contains(err.Error(), want[i].Message) {
			t.Errorf("the error repeats a problem listed: %v", err)
		}
	}
	if strings.Contains(s, "1 problems") || !strings.Contains(s, "2 problems stop the files") {
		t.Errorf("the count:\n%s", s)
	}
	if b, _ := os.ReadFile("community.acme.piped-0.1.0.tgz"); string(b) != "an earlier release" {
		t.Error("the earlier release was replaced")
	}
	if _, err := os.Stat("acme.key"); err == nil {
		t.Error("a key was written")
	}
}

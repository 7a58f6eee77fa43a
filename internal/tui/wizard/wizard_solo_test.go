package wizard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/validate"
)

// TestAccessibleStandalone answers every plain prompt of a standalone agent
// and a standalone eval suite with enter (the defaults), then validates the
// written document from disk, strict, as `wopkit validate --strict` does.
func TestAccessibleStandalone(t *testing.T) {
	tests := []struct {
		what, file, prompt string
		also               []string
	}{
		{whatSoloAgent, "assistant.agent.json", "Agent id [community.example.assistant]", []string{"prompts/assistant.md", "evals/assistant.json"}},
		{whatSoloEval, "my-suite.eval.json", "Suite id", nil},
	}
	v, _ := validate.New(validate.Options{Strict: true})
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			dir := t.TempDir()
			var out bytes.Buffer
			in := iotest.OneByteReader(strings.NewReader(strings.Repeat("\n", 200)))
			opts := Options{What: tt.what, Dir: dir, DraftDir: dir, Accessible: true, Input: in, Screen: &out}
			if err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts}); err != nil {
				t.Fatalf("accessible run: %v\n%s", err, out.String())
			}
			rep, err := v.Path(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatalf("%s not written: %v\n%s", tt.file, err, out.String())
			}
			for _, pr := range rep.Problems() {
				t.Error(pr.String())
			}
			for _, f := range tt.also {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
					t.Errorf("%s not written", f)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "pack.json")); err == nil {
				t.Error("a standalone document wrote a pack.json")
			}
			o := out.String()
			if !strings.Contains(o, tt.prompt) {
				t.Errorf("the prompt %q was not shown:\n%s", tt.prompt, o)
			}
			for _, never := range []string{"Pack and sign", "Pack name", "Add another agent", "does not have the form"} {
				if strings.Contains(o, never) {
					t.Errorf("%q was shown:\n%s", never, o)
				}
			}
			if !strings.Contains(o, "wopkit validate --strict "+filepath.Join(dir, tt.file)) {
				t.Errorf("the summary does not name the document:\n%s", o)
			}
		})
	}
}

// TestWizardStandaloneEval drives the full-screen wizard: the first page's
// "A standalone eval suite", a target agent typed on the eval page, enter
// through the rest, the review, and the write; the suite is named after
// the target and validates strictly.
func TestWizardStandaloneEval(t *testing.T) {
	dir := t.TempDir()
	a := newAnswers()
	d := newDriver(t, func(ctx *common.Context) tui.Screen {
		return newWizard(ctx, ask.Asker{V: testValidator}, a, session{Options: Options{Dir: dir, DraftDir: dir}})
	})
	w := d.App.Top().(*wizard)
	d.Keys("down", "down", "down", "down", "down")
	if !strings.Contains(d.View(), "A standalone eval suite") {
		t.Fatalf("the choice is not on the first page:\n%s", d.View())
	}
	d.Keys("enter")
	if a.What != whatSoloEval || w.at.pg.id != "eval" {
		t.Fatalf("what %q, page %s; want %q on the eval page\n%s", a.What, w.at.pg.id, whatSoloEval, d.View())
	}
	d.Keys("type:vendor.acme.writer")
	for i := 0; i < 40 && w.at.pg.id != "review"; i++ {
		d.Keys("enter")
	}
	if w.at.pg.id != "review" || w.rev.Plan == nil {
		t.Fatalf("page %s, problems %v\n%s", w.at.pg.id, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("page %s, err %q\n%s", w.at.pg.id, w.err, d.View())
	}
	v, _ := validate.New(validate.Options{Strict: true})
	rep, err := v.Path(filepath.Join(dir, "writer.eval.json"))
	if err != nil {
		t.Fatalf("suite not written: %v\n%s", err, d.View())
	}
	for _, pr := range rep.Problems() {
		t.Error(pr.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "writer.eval.json")); !strings.Contains(string(b), `"suiteId": "vendor.acme.evals.writer"`) {
		t.Errorf("suite:\n%s", b)
	}
}

package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
	"github.com/openwop/wopkit/internal/werr"
)

// Issue 35, item 6: accessible mode says each field's help, offers the
// suggestion of the moment (not one made before the answer it follows),
// says "left out" rather than an internal -1, shows a suggestion of
// several lines without padding, asks before writing on a terminal, and
// a piped run that fails says where the draft of its answers is.

// blanks is n empty lines (each keeps its question's suggestion).
func blanks(n int) []string { return make([]string, n) }

func TestAccessibleSaysHelp(t *testing.T) {
	_, out, _ := pipeRun(t, nodeLines("acme"), false)
	help := testValidator.Help(kinds.NodePack, "/version")
	if help == "" {
		t.Fatal("no help for the version")
	}
	if !strings.Contains(out, help) {
		t.Errorf("the version's help %q is not said:\n%s", help, out)
	}
}

func TestAccessibleSuggestionFollows(t *testing.T) {
	_, out, _ := pipeRun(t, append([]string{"4", "weather-mcp"}, blanks(3)...), false)
	if !strings.Contains(out, "Homepage ["+scaffold.ToolHomepage("weather-mcp")+"]") {
		t.Errorf("the homepage does not offer the typed id's:\n%s", out)
	}
	if strings.Contains(out, scaffold.ToolHomepage("my-tool")) {
		t.Errorf("a stale suggestion is offered:\n%s", out)
	}
}

func TestAccessibleLeftOutInWords(t *testing.T) {
	t.Parallel()
	k := ask.Asker{V: testValidator, Accessible: true, Titles: map[huh.Field]string{}, Suggest: map[huh.Field]ask.Shown{}}
	temp := -1.0
	g := k.Group(ask.Omittable(k, "prompts.1.temperature", "Temperature", &temp, kinds.PromptPack, scaffold.PromptFieldPointer("prompts.1.temperature")))
	var out strings.Builder
	f := huh.NewForm(g).WithTheme(ask.PlainTheme).WithAccessible(true).WithInput(strings.NewReader("\n")).WithOutput(&out)
	if err := f.Run(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "[-1]") || !strings.Contains(out.String(), "Temperature [none: left out]") {
		t.Errorf("the temperature's suggestion is not said in words:\n%s", out.String())
	}
	if temp != -1 {
		t.Errorf("an empty line does not keep it left out: %v", temp)
	}
}

func TestAccessibleCardSuggestions(t *testing.T) {
	_, out, _ := pipeRun(t, append([]string{scaffold.KindCard}, blanks(40)...), false)
	first := "Summarize this text in a {{length}} form."
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, first) {
			n++
			if strings.TrimRight(l, " ") != l {
				t.Errorf("a line of a suggestion is padded: %q", l)
			}
		}
	}
	if n == 0 {
		t.Errorf("the template's suggestion is not shown:\n%s", out)
	}
}

func TestAccessibleAsksBeforeWriting(t *testing.T) {
	dir, out, err := pipeRun(t, append(nodeLines("acme"), "n"), true)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "Write these files?") {
		t.Errorf("nothing asks before writing:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "piped")); err == nil {
		t.Error("files were written after no")
	}
	if !strings.Contains(out, "Nothing was written") || !strings.Contains(out, drafts.File(dir)) {
		t.Errorf("no says neither that nothing was written nor where the draft is:\n%s", out)
	}
	if _, ok := loadDraft(dir); !ok {
		t.Error("no draft was kept")
	}

	dir, out, err = pipeRun(t, append(nodeLines("acme"), "y"), true)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "piped", "pack.json")); err != nil {
		t.Errorf("yes does not write:\n%s", out)
	}
}

func TestAccessiblePipeFailureSaysDraft(t *testing.T) {
	dir, out, err := pipeRun(t, nodeLines("Not An Org!"), false)
	var e *werr.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v\n%s", err, out)
	}
	if path := drafts.File(dir); path == "" || !strings.Contains(e.Hint, path) || !strings.Contains(e.Hint, "draft") {
		t.Errorf("the failure does not say where the draft is (%s): %s", path, e.Hint)
	}
	if _, ok := loadDraft(dir); !ok {
		t.Error("no draft was kept")
	}
}

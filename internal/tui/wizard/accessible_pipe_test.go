package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// nodeLines answer `wopkit new --accessible` for a pack of nodes named
// community.acme.piped, only written (as cmd/wopkit's pipe test does).
func nodeLines(org string) []string {
	return []string{
		"2",              // a pack of nodes
		"", org, "piped", // scope, organisation, pack name
		"", "", "", "", // version, description, author, license
		"", "", "", // homepage, repository, keywords
		"",                             // runtime
		"", "", "", "", "", "", "", "", // the node
		"",  // nodes: continue
		"6", // only write the files
	}
}

// pipeRun runs accessible mode in a new folder with lines as its input
// (a reader, not a terminal, unless terminal says otherwise).
func pipeRun(t *testing.T, lines []string, terminal bool) (string, string, error) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	old := ask.IsTerminal
	ask.IsTerminal = func(io.Reader) bool { return terminal }
	t.Cleanup(func() { ask.IsTerminal = old })
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	opts := Options{DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts})
	return dir, out.String(), err
}

// TestAccessiblePipeRefusedStops (issue 17, item 8): from a pipe, a refused
// answer stops the run with an error naming the question, the answer and
// why (exit 1); the next line is not taken as that question's answer, and
// nothing is written.
func TestAccessiblePipeRefusedStops(t *testing.T) {
	dir, out, err := pipeRun(t, nodeLines("Not An Org!"), false)
	var e *werr.Error
	if !errors.As(err, &e) || e.Class != werr.Invalid || e.Code != "prompt_answer_refused" {
		t.Fatalf("a refused answer from a pipe: %v\n%s", err, out)
	}
	for _, want := range []string{"Organisation", `"Not An Org!"`, "refused: "} {
		if !strings.Contains(e.Msg, want) {
			t.Errorf("the error does not name %s: %s", want, e.Msg)
		}
	}
	why := e.Msg[strings.Index(e.Msg, "refused: ")+len("refused: "):]
	if strings.TrimSpace(why) == "" {
		t.Errorf("the error does not say why: %s", e.Msg)
	}
	if strings.Count(out, "Organisation") != 1 || strings.Contains(out, "Pack name") {
		t.Errorf("the question was asked again, or the next line taken:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "piped")); err == nil {
		t.Error("files were written")
	}
}

// TestAccessiblePipeTranscript: from a pipe, each answer follows its
// question, a summary of what will be written (folder, files, key,
// tarball) comes before writing, and lists are words, not Go slices.
func TestAccessiblePipeTranscript(t *testing.T) {
	dir, out, err := pipeRun(t, nodeLines("acme"), false)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "piped", "pack.json")); err != nil {
		t.Fatalf("not written: %v\n%s", err, out)
	}
	lines := strings.Split(out, "\n")
	echoed := func(question, answer string) bool {
		for _, l := range lines {
			if strings.HasPrefix(l, question) && strings.HasSuffix(l, " "+answer) {
				return true
			}
		}
		return false
	}
	if !echoed("Organisation", "acme") || !echoed("Pack name", "piped") || !echoed("Enter a number 1-6", "6") {
		t.Errorf("the answers are not echoed after their questions:\n%s", out)
	}
	summary, wrote := strings.Index(out, "About to write:"), strings.LastIndex(out, "\nwrote ")
	if summary < 0 || wrote < summary {
		t.Fatalf("no summary before writing:\n%s", out)
	}
	sum := out[summary:wrote]
	for _, want := range []string{"/piped: pack.json, README.md", "not packed: no tarball, no key"} {
		if !strings.Contains(sum, want) {
			t.Errorf("the summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(out, "[pack.json") {
		t.Errorf("a list printed as a Go slice:\n%s", out)
	}
}

// TestAccessibleTerminalAsksAgain: on a terminal a refused answer is asked
// again, and the next line answers it.
func TestAccessibleTerminalAsksAgain(t *testing.T) {
	lines := nodeLines("Not An Org!")
	lines = append(lines[:3], append([]string{"acme"}, lines[3:]...)...)
	dir, out, err := pipeRun(t, lines, true)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "piped", "pack.json"))
	if err != nil || !strings.Contains(string(b), `"name": "community.acme.piped"`) {
		t.Fatalf("pack.json: %v\n%s\n%s", err, b, out)
	}
	if strings.Count(out, "Organisation") < 2 {
		t.Errorf("the question was not asked again:\n%s", out)
	}
}

// TestAccessiblePipeProblemStops: from a pipe, a problem the checks find
// once the questions are answered stops the run too (it is not asked again
// from the next lines).
func TestAccessiblePipeProblemStops(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "piped"), 0o755)
	os.WriteFile(filepath.Join(dir, "piped", "pack.json"), []byte("{}"), 0o644)
	t.Chdir(dir)
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(append(nodeLines("acme"), "", "", ""), "\n") + "\n")
	opts := Options{DraftDir: dir, Accessible: true, Input: in, Screen: &out}
	err := runAccessible(context.Background(), ask.Asker{V: testValidator}, newAnswers(), session{Options: opts})
	var e *werr.Error
	if !errors.As(err, &e) || e.Class != werr.Invalid || !strings.Contains(out.String(), "already holds pack.json") {
		t.Fatalf("a problem with piped answers: %v\n%s", err, out.String())
	}
	if strings.Contains(e.Error(), "already holds") { // listed above, not printed twice
		t.Errorf("the error repeats the problem listed: %v", e)
	}
	if strings.Contains(out.String(), "That question again") {
		t.Errorf("asked again from the pipe:\n%s", out.String())
	}
}

// Issue 44, item 9: lines piped after the last question are said, not
// dropped: the run stops before writing, naming how many and the first
// (an answer that went to another question leaves one over); blank lines
// at the end are no answers and pass.
func TestAccessiblePipeExtraLinesSaid(t *testing.T) {
	dir, out, err := pipeRun(t, append(nodeLines("acme"), "", "oops", "and more"), false)
	var e *werr.Error
	if !errors.As(err, &e) || e.Code != "prompt_input_extra" || !strings.Contains(e.Msg, `2 lines more`) || !strings.Contains(e.Msg, `"oops"`) {
		t.Fatalf("extra piped lines: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "piped")); err == nil {
		t.Error("files were written despite the lines left over")
	}
	if _, out, err := pipeRun(t, append(nodeLines("acme"), "", " "), false); err != nil {
		t.Fatalf("blank lines after the last answer refused: %v\n%s", err, out)
	}
}

package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWizardChainPack: the first page offers a workflow-chain pack; enter
// through its pages (a chain of two steps) and the review writes, packs and
// signs it; the pack.json validates strictly as a v2 workflow-chain pack.
func TestWizardChainPack(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	d, w := wizardOn(t, a, NewOptions{DraftDir: dir})
	for i := 0; i < len(offered()) && a.What != whatChain; i++ {
		d.keys("down")
	}
	if !strings.Contains(d.view(), "> A workflow-chain pack") {
		t.Fatalf("not offered:\n%s", d.view())
	}
	d.keys("enter", "enter", "type:acme", "enter", "type:chains", "enter")
	var seen []string
	for i := 0; i < 80 && w.at.pg.id != "review"; i++ {
		if len(seen) == 0 || seen[len(seen)-1] != w.at.pg.id {
			seen = append(seen, w.at.pg.id)
		}
		d.keys("enter")
	}
	if got := strings.Join(seen, " "); got != "identity chain param params step steps output outputs chains sign" {
		t.Errorf("pages: %s", got)
	}
	if w.rev.plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.err, w.rev.problems, d.view())
	}
	d.keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("not written: %q\n%s", w.err, d.view())
	}
	strictValid(t, filepath.Join(dir, "chains", "pack.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "chains", "pack.json"))
	for _, want := range []string{`"kind": "workflow-chain"`, `"chainId": "community.acme.chains.summarize-page"`, `"core.ai.chatCompletion@1.0.0"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s missing:\n%s", want, b)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "community.acme.chains-0.1.0.tgz")); err != nil {
		t.Errorf("not packed: %v\n%s", err, strings.Join(w.done, "\n"))
	}
}

package wizard

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
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	for i := 0; i < len(offered()) && a.What != whatChain; i++ {
		d.Keys("down")
	}
	if !strings.Contains(d.View(), "> A workflow-chain pack") {
		t.Fatalf("not offered:\n%s", d.View())
	}
	d.Keys("enter", "enter", "type:acme", "enter", "type:chains", "enter")
	var seen []string
	for i := 0; i < 80 && w.at.pg.id != "review"; i++ {
		if len(seen) == 0 || seen[len(seen)-1] != w.at.pg.id {
			seen = append(seen, w.at.pg.id)
		}
		d.Keys("enter")
	}
	if got := strings.Join(seen, " "); got != "identity chain param params step steps output outputs chains sign" {
		t.Errorf("pages: %s", got)
	}
	if w.rev.Plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.Err, w.rev.Problems, d.View())
	}
	d.Keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("not written: %q\n%s", w.err, d.View())
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

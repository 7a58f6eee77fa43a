package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui/common"
)

// TestExpansionKey: on a workflow-chain pack, x shows the chain under the
// cursor expanded with its default parameters in the detail pane, and x
// again goes back; on another kind of document the key does nothing.
func TestExpansionKey(t *testing.T) {
	t.Parallel()
	open := func(file string) *editor {
		data, err := os.ReadFile(filepath.Join("..", "..", "validate", "testdata", "verdicts", file))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "pack.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx := common.New(true)
		ctx.Width, ctx.Height = 200, 50
		e, err := loadEditor(ctx, testValidator, path)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	x := tea.KeyPressMsg{Code: 'x', Text: "x"}
	e := open("chain-ok.workflow-chain-pack.v2.json")
	if !strings.Contains(helpText(e), "expansion") {
		t.Errorf("the help line of a chain pack does not offer the expansion key: %s", helpText(e))
	}
	e.expanded["/chains"] = true
	e.rebuild()
	e.moveTo("/chains/0")
	e.Update(x)
	v := e.View()
	if !strings.Contains(v, "expansion with the default parameters") || !strings.Contains(v, "summarize-text expanded as preview") ||
		strings.Contains(v, "fetch-and-summarize expanded") {
		t.Fatalf("x does not show the expansion:\n%s", v)
	}
	e.Update(x)
	if strings.Contains(e.View(), "expanded as preview") {
		t.Error("x again does not go back to the field")
	}
	n := open("node-ok.node-pack.v2.json")
	n.Update(x)
	if n.expansion || strings.Contains(helpText(n), "expansion") {
		t.Error("the expansion key acts on a node pack")
	}
}

func helpText(e *editor) string {
	var parts []string
	for _, b := range e.Help() {
		parts = append(parts, b.Help().Desc)
	}
	return strings.Join(parts, " ")
}

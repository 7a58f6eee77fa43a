package editor

import (
	"os"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
)

// a2aEditor opens the editor on the registry's core.openwop.a2a pack.json
// (unpacked from its published tarball) with every container expanded.
func a2aEditor(b *testing.B) (*tui.App, *editor) {
	b.Helper()
	f, err := os.Open(fixtures.Tarball(b, "core.openwop.a2a", "1.1.0"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	arch, err := tarball.ReadAll(f, tarball.RegistryLimits)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := tarball.Extract(arch, dir); err != nil {
		b.Fatal(err)
	}
	ctx := common.New(false)
	e, err := loadEditor(ctx, testValidator, dir)
	if err != nil {
		b.Fatal(err)
	}
	var expandAll func(n *jsondoc.Node, ptr string)
	expandAll = func(n *jsondoc.Node, ptr string) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				p := jsondoc.Child(ptr, m.Key)
				e.expanded[p] = isContainer(m.Value)
				expandAll(m.Value, p)
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				p := jsondoc.Index(ptr, i)
				e.expanded[p] = isContainer(it)
				expandAll(it, p)
			}
		}
	}
	expandAll(e.doc.Root, "")
	e.rebuild()
	a := tui.NewApp(ctx, e)
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	// the schema help of every row is known, as after a first pass
	for _, r := range e.rows {
		e.info[r.ptr] = testValidator.Field(e.kind, r.ptr)
	}
	e.setProblems(validateCmd(testValidator, e.gen, e.name, e.dir, e.kind, e.src)().(problemsMsg).problems)
	return a, e
}

// BenchmarkFrameMoveCursor is one frame after a cursor key: Update and View
// on the a2a manifest, every container open.
func BenchmarkFrameMoveCursor(b *testing.B) {
	a, e := a2aEditor(b)
	down, up := keyMsg("down"), keyMsg("up")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := down
		if (i/200)%2 == 1 {
			k = up
		}
		a.Update(k)
		_ = a.View()
	}
	b.ReportMetric(float64(len(e.rows)), "rows")
}

// BenchmarkFrameTypeChar is one frame after typing a character into a
// field: Update (which only schedules the field check) and View.
func BenchmarkFrameTypeChar(b *testing.B) {
	a, e := a2aEditor(b)
	e.moveTo("/description")
	a.Update(keyMsg("enter"))
	if e.focus != focusEdit {
		b.Fatal("not editing")
	}
	x, bs := tea.KeyPressMsg{Code: 'x', Text: "x"}, keyMsg("backspace")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := x
		if i%2 == 1 {
			k = bs
		}
		a.Update(k)
		_ = a.View()
	}
}

// BenchmarkFrameApplyEdit is one frame after accepting a value: the splice,
// the re-parse and the rebuilt tree (validation itself runs later, in a
// command).
func BenchmarkFrameApplyEdit(b *testing.B) {
	a, e := a2aEditor(b)
	e.moveTo("/description")
	for i := 0; b.Loop(); i++ {
		a.Update(keyMsg("enter"))
		a.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		a.Update(keyMsg("enter"))
		_ = a.View()
		if len(e.undo) > 100 {
			e.undo = e.undo[:0]
		}
	}
}

// BenchmarkRevalidate is the whole-pack check the editor runs in a command
// after the debounce delay: off the render path, measured for reference.
func BenchmarkRevalidate(b *testing.B) {
	_, e := a2aEditor(b)
	for b.Loop() {
		validateCmd(testValidator, e.gen, e.name, e.dir, e.kind, e.src)()
	}
}

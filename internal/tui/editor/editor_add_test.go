package editor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/werr"
)

// TestEditorAddRemove checks additions and removals through the resulting
// file: its decoded value, and that the untouched lines keep their text.
func TestEditorAddRemove(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		change func(m map[string]any)
		kept   []string // lines that must survive byte for byte
	}{
		{"add a member at the root", []string{"a", "type:homepage", "enter", "type:https://example.org", "enter", "ctrl+s"},
			func(m map[string]any) { m["homepage"] = "https://example.org" },
			[]string{`  "x-future-field": {"kept": true},`, `  "keywords": ["demo", "test"],`}},
		{"append to an array", []string{"/", "type:keywords", "enter", "a", "type:extra", "enter", "ctrl+s"},
			func(m map[string]any) { m["keywords"] = []any{"demo", "test", "extra"} },
			[]string{`  "x-future-field": {"kept": true},`}},
		{"copy the last object of an array", []string{"/", "type:/agents", "enter", "a", "ctrl+s"},
			func(m map[string]any) {
				ag := m["agents"].([]any)
				m["agents"] = append(ag, ag[0])
			},
			[]string{`  "x-future-field": {"kept": true},`, `      "toolAllowlist": ["openwop:core.openwop.http.fetch"]`}},
		{"remove an item", []string{"/", "type:/keywords/0", "enter", "d", "ctrl+s"},
			func(m map[string]any) { m["keywords"] = []any{"test"} },
			[]string{`  "x-future-field": {"kept": true},`}},
		{"remove a member the schema refuses", []string{"/", "type:x-future", "enter", "d", "ctrl+s"},
			func(m map[string]any) { delete(m, "x-future-field") },
			[]string{`  "keywords": ["demo", "test"],`, `      "toolAllowlist": ["openwop:core.openwop.http.fetch"]`}},
		{"remove then undo is a no-op", []string{"/", "type:engines", "enter", "d", "u", "ctrl+s"},
			func(map[string]any) {}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyPack(t)
			path := filepath.Join(dir, "pack.json")
			before, _ := os.ReadFile(path)
			d := newDriver(t, editorOn(t, dir)).Keys(tt.keys...)
			after, _ := os.ReadFile(path)
			var want, got map[string]any
			if err := json.Unmarshal(before, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(after, &got); err != nil {
				t.Fatalf("saved file is not JSON: %v\n%s", err, after)
			}
			tt.change(want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("saved document:\n%s\nview:\n%s", after, d.View())
			}
			for _, l := range tt.kept {
				if !strings.Contains(string(after), l+"\n") {
					t.Errorf("line %q did not survive:\n%s", l, after)
				}
			}
		})
	}
}

// TestEditorRevalidatesAfterEdit checks that the problem list follows the
// document: fixing the version removes its error.
func TestEditorRevalidatesAfterEdit(t *testing.T) {
	d := newDriver(t, editorOn(t, copyPack(t)))
	e := d.App.Top().(*editor)
	has := func(ptr string) bool {
		for _, p := range e.problems.Items {
			if p.Pointer == ptr {
				return true
			}
		}
		return false
	}
	if !has("/version") {
		t.Fatal("the bad version is not reported")
	}
	d.Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:1.0.0", "enter")
	if has("/version") {
		t.Errorf("version error still listed after the fix: %v", e.problems.Items)
	}
	if !has("/agents/0") {
		t.Errorf("other problems lost: %v", e.problems.Items)
	}
}

// TestEditorCompletesEnum types the start of an allowed value and completes
// it with tab, from the enum the schema lists.
func TestEditorCompletesEnum(t *testing.T) {
	dir := copyPack(t)
	d := newDriver(t, editorOn(t, dir)).Keys("/", "type:/agents/0/modelClass", "enter", "enter", "ctrl+u", "type:cod", "tab", "enter", "ctrl+s")
	b, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !strings.Contains(string(b), `"modelClass": "coding"`) {
		t.Fatalf("tab did not complete to coding:\n%s\n%s", b, d.View())
	}
}

func TestLoadEditorRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o644)
		return p
	}
	tests := []struct {
		name, path, code string
	}{
		{"missing", filepath.Join(dir, "nope.json"), "file_unreadable"},
		{"syntax", write("bad.json", `{"a": }`), "json_invalid"},
		{"duplicate key", write("dup.json", `{"a": 1, "a": 2}`), "json_invalid"},
		{"not an object", write("arr.json", `[1]`), "manifest_not_object"},
		{"directory without pack.json", dir, "file_unreadable"},
		{"a tarball (issue 35, item 8)", write("x.tgz", "\x1f\x8b\x08\x00rest"), "edit_tarball"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEditor(common.New(true), testValidator, tt.path)
			if got := werr.CodeOf(err); got != tt.code {
				t.Errorf("code %q (%v), want %q", got, err, tt.code)
			}
			if tt.code == "edit_tarball" && !strings.Contains(err.Error(), "wopkit inspect") {
				t.Errorf("a tarball's hint does not name wopkit inspect: %v", err)
			}
		})
	}
}

// TestEditorMouse clicks a tree row (select), clicks it again (open), and
// clicks a problem (jump to its field).
func TestEditorMouse(t *testing.T) {
	d := newDriver(t, editorOn(t, copyPack(t)))
	e := d.App.Top().(*editor)
	click := func(x, y int) { d.Send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}) }
	click(5, 9) // the 9th row: agents
	if r, _ := e.current(); r.ptr != "/agents" {
		t.Fatalf("click selected %q", r.ptr)
	}
	click(5, 9)
	if !e.expanded["/agents"] {
		t.Error("second click did not open /agents")
	}
	click(5, 1+e.treeHeight()+1+1) // second problem line
	if r, _ := e.current(); r.ptr != e.problems.Items[1].Pointer {
		t.Errorf("problem click went to %q, want %q", r.ptr, e.problems.Items[1].Pointer)
	}
	d.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	d.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if e.cursor != 0 {
		t.Errorf("wheel up left the cursor at %d", e.cursor)
	}
}

// TestEditorSavesThroughSymlink edits a pack.json that links to a file in
// its folder: the link stays a link and its target gets the change.
func TestEditorSavesThroughSymlink(t *testing.T) {
	dir := copyPack(t)
	if err := os.Rename(filepath.Join(dir, "pack.json"), filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "pack.json")
	if err := os.Symlink("manifest.json", link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	newDriver(t, editorOn(t, dir)).Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:3.0.0", "enter", "ctrl+s")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if !strings.Contains(string(b), `"version": "3.0.0"`) {
		t.Errorf("target not saved:\n%s", b)
	}
}

// TestEditorRefusesALinkOut: `edit DIR` whose pack.json links out of DIR,
// and `edit FILE` where FILE links out of its folder, are refused as
// migrate refuses them (path_outside_root), before anything is read; a
// pack.json swapped for a link out after loading is refused at the save.
// The file outside is never written.
func TestEditorRefusesALinkOut(t *testing.T) {
	outside := copyPack(t)
	target := filepath.Join(outside, "pack.json")
	before, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(target, filepath.Join(dir, "pack.json")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	file := filepath.Join(t.TempDir(), "tool.json")
	if err := os.Symlink(target, file); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "pack.json"), file} {
		if _, err := loadEditor(common.New(true), testValidator, p); werr.CodeOf(err) != "path_outside_root" {
			t.Errorf("edit %s: %v, want path_outside_root", p, err)
		}
	}

	// Loaded as a plain file, then swapped for a link out with the same
	// bytes (so no "changed since read" hides the refusal).
	swapped := copyPack(t)
	d := newDriver(t, editorOn(t, swapped)).Keys("/", "type:version", "enter", "enter", "ctrl+u", "type:3.0.0", "enter")
	if err := os.Remove(filepath.Join(swapped, "pack.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(swapped, "pack.json")); err != nil {
		t.Fatal(err)
	}
	d.Keys("ctrl+s")
	e := d.App.Top().(*editor)
	if !strings.Contains(e.status, "save failed") || !strings.Contains(e.status, "outside") {
		t.Errorf("save through a link out: status %q", e.status)
	}
	if after, _ := os.ReadFile(target); string(after) != string(before) {
		t.Errorf("the file outside was written:\n%s", after)
	}
}

// TestEditorExternalEditor: a string opens in $EDITOR (the program runs
// it; here the editor's answer is delivered directly) and comes back with
// its newline, escaped in JSON; without $EDITOR the editor says so.
func TestEditorExternalEditor(t *testing.T) {
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "true")
	dir := copyPack(t)
	d := newDriver(t, editorOn(t, dir)).Keys("/", "type:description", "enter")
	e := d.App.Top().(*editor)
	r, _ := e.current()
	if cmd := e.editExternal(r.ptr, r.node.Str); cmd == nil {
		t.Fatalf("no editor command: %s", e.status)
	}
	d.Send(externalDoneMsg{ptr: r.ptr, text: "line one\nline two\n"})
	d.Keys("ctrl+s")
	b, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !strings.Contains(string(b), `"description": "line one\nline two",`) {
		t.Errorf("saved:\n%s", b)
	}
	t.Setenv("EDITOR", "")
	if e.editExternal(r.ptr, "x") != nil || !strings.Contains(e.status, "$EDITOR") {
		t.Errorf("no editor: status %q", e.status)
	}
}

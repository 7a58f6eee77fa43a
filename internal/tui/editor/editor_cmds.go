package editor

import (
	"io/fs"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// Messages of the editor. Each carries the generation or pointer it answers,
// so that a late answer about an older state is dropped.
type (
	// validateTickMsg fires after the debounce delay following an edit.
	validateTickMsg struct{ gen int }
	// problemsMsg carries the whole-document problems for one generation.
	problemsMsg struct {
		gen      int
		problems []validate.Problem
	}
	// fieldInfoMsg carries the schema's help for one pointer.
	fieldInfoMsg struct {
		ptr  string
		info validate.FieldInfo
	}
	// fieldCheckMsg carries the per-keystroke check of the value being typed.
	fieldCheckMsg struct {
		seq      int
		problems []validate.Problem
	}
	// savedMsg reports the end of a save; quit asks to leave afterwards.
	savedMsg struct {
		data []byte
		err  error
		quit bool
	}
)

// debounce is how long the editor waits after an edit before re-validating
// the whole document.
const debounce = 120 * time.Millisecond

func validateTick(gen int) tea.Cmd {
	return tea.Tick(debounce, func(time.Time) tea.Msg { return validateTickMsg{gen} })
}

// validateCmd re-checks the document from memory: a pack manifest together
// with the files of its directory, any other kind as a standalone document.
func validateCmd(v *validate.Validator, gen int, name, dir string, kind kinds.Kind, data []byte) tea.Cmd {
	return func() tea.Msg {
		var reps []validate.FileReport
		var fsys fs.FS
		if dir != "" {
			// A file the pack's manifest names is read inside the pack
			// only; a directory that cannot be opened leaves the files out.
			fsys, _ = untrusted.DirFS(dir)
		}
		if kinds.IsPack(kind) {
			reps = v.PackFiles(name, fsys, data)
		} else {
			reps = []validate.FileReport{v.File(name, data, kind)}
		}
		var ps []validate.Problem
		for i, r := range reps {
			for _, list := range [][]validate.Problem{r.Errors, r.Warnings} {
				for _, p := range list {
					p.File = ""
					if i > 0 { // a referenced file: say which
						p.File = r.Path
						p.Message = r.Path + ": " + p.Message
						p.Pointer = ""
					}
					ps = append(ps, p)
				}
			}
		}
		sort.SliceStable(ps, func(i, j int) bool {
			a, b := ps[i], ps[j]
			if a.File != b.File {
				return a.File < b.File
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Column < b.Column
		})
		return problemsMsg{gen: gen, problems: ps}
	}
}

// fieldInfoCmd asks for the schema help of one field, from the schema of
// the document's kind under its spec version (v1 or v2).
func fieldInfoCmd(v *validate.Validator, spec kinds.Spec, kind kinds.Kind, ptr string) tea.Cmd {
	return func() tea.Msg {
		fi := v.FieldFor(spec, kind, ptr)
		fi.Description = v.HelpFor(spec, kind, ptr) // the wizard's words for the field
		return fieldInfoMsg{ptr: ptr, info: fi}
	}
}

func fieldCheckCmd(v *validate.Validator, spec kinds.Spec, kind kinds.Kind, seq int, ptr string, value any) tea.Cmd {
	return func() tea.Msg { return fieldCheckMsg{seq: seq, problems: v.CheckValueFor(spec, kind, ptr, value)} }
}

// saveCmd writes data to path atomically, refusing when the file no longer
// holds base (what the editor loaded or last saved): another program's
// change is never overwritten.
func saveCmd(path string, base, data []byte, quit bool) tea.Cmd {
	return func() tea.Msg {
		return savedMsg{data: data, err: atomicfile.ReplaceIf(path, data, base, 0o644), quit: quit}
	}
}

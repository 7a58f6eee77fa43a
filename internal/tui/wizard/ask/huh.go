package ask

import (
	"bytes"
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// maxFocusMoves bounds the walk through a form (the longest has ~15 fields).
const maxFocusMoves = 64

// FocusKey moves the form's focus forward to the field with the key, page
// by page, and reports whether it got there. It stops on a field it cannot
// leave (a page with an error) and never submits the form: when the key is
// not found on the last page, the form is left completed and the caller
// builds it again.
func FocusKey(f *huh.Form, key string) (found bool, seen []string) {
	for range maxFocusMoves {
		cur := f.GetFocusedField()
		if cur == nil || f.State != huh.StateNormal {
			return false, seen
		}
		if cur.GetKey() == key {
			return true, seen
		}
		seen = append(seen, cur.GetKey())
		f.NextField()
		if f.GetFocusedField() != cur {
			continue
		}
		f.NextGroup() // the last field of its page: the next page's first
		if f.State != huh.StateNormal || f.GetFocusedField() == cur {
			return false, seen
		}
	}
	return false, seen
}

// BestKey is the longest of the keys that is key itself or a prefix of it
// at a dot ("" when none is).
func BestKey(key string, keys []string) string {
	best := ""
	for _, k := range keys {
		if k != "" && (k == key || strings.HasPrefix(key, k+".")) && len(k) > len(best) {
			best = k
		}
	}
	return best
}

// EditorValue is the value huh's multi-line field reads back from $EDITOR
// (ctrl+e; huh's own message, of a type it does not export) without the
// final newline the editor adds to the file (issue 35, item 8: the system
// prompt got a trailing blank line); any other message as it is.
func EditorValue(msg tea.Msg) tea.Msg {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Uint8 ||
		v.Type().Name() != "updateValueMsg" || v.Type().PkgPath() != huhPkg {
		return msg
	}
	b := v.Bytes()
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	out := reflect.New(v.Type()).Elem()
	out.SetBytes(b)
	return out.Interface()
}

// huhPkg is the import path of huh, whose text field's message
// EditorValue reads.
var huhPkg = reflect.TypeOf(huh.Option[string]{}).PkgPath()

// OnSide reports whether the focused field is a yes/no already on the side
// the arrow key names (← Yes, → No).
func OnSide(f huh.Field, arrow string) bool {
	c, ok := f.(*huh.Confirm)
	return ok && c.GetValue() == (arrow == "left")
}

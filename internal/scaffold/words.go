package scaffold

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
)

// The validator words a problem for the document it reads ("declare it:
// \"variables\": [...]", "placeholderMapping", "expected.rubric"); an
// author answers questions instead. answerWords says the problems of the
// lint rules whose fix is another answer than the one they point at in
// the answers' words, and moves them to that answer: an undeclared
// {{name}} in a prompt's text is fixed in its variables, a rubric task
// without a rubric in its criteria. The validator's message is kept when
// it does not name what these words need.

var (
	slotName = lazyre.New(`\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}`)
	quoted   = lazyre.New(`"([^"]*)"`)
)

// answerWords returns fe in the answers' words (see above).
func answerWords(fe FieldError) FieldError {
	slot := ""
	if m := slotName.FindStringSubmatch(fe.Message); m != nil {
		slot = m[1]
	}
	name := ""
	if m := quoted.FindStringSubmatch(fe.Message); m != nil {
		name = m[1]
	}
	switch {
	case fe.Rule == "PR002" && strings.HasSuffix(fe.Field, ".text"): // a {{slot}} no variable declares
		fe.Field = strings.TrimSuffix(fe.Field, ".text") + ".variables"
		if slot != "" {
			fe.Message = fmt.Sprintf("the text uses {{%s}}, which is not one of the template's variables: hosts treat it as an optional input without a default", slot)
			fe.Hint = fmt.Sprintf("add a variable named %s, or take {{%s}} out of the text", slot, slot)
		}
	case fe.Rule == "EV002" && strings.HasSuffix(fe.Field, ".kind") && strings.Contains(fe.Message, "rubric task"):
		fe.Field = strings.TrimSuffix(fe.Field, ".kind") + ".criteria"
		fe.Message = fmt.Sprintf("task %q is a rubric task without criteria", name)
		fe.Hint = "give its rubric criteria (comma-separated), or make it a golden task"
	case fe.Rule == "EV002" && strings.HasSuffix(fe.Field, ".kind") && strings.Contains(fe.Message, "golden task"):
		fe.Field = strings.TrimSuffix(fe.Field, ".kind") + ".expected"
		fe.Message = fmt.Sprintf("task %q is a golden task without an expected answer", name)
		fe.Hint = "give the expected answer, or make it a rubric task"
	case fe.Rule == "CD002" && slot != "": // a {{slot}} no input fills
		fe.Message = fmt.Sprintf("the template uses {{%s}}, but the card has no input %s: the slot stays empty", slot, slot)
		fe.Hint = fmt.Sprintf("add an input with the id %s, or take {{%s}} out of the template", slot, slot)
	case fe.Rule == "CD003" && name != "": // an input the template never uses
		fe.Message = fmt.Sprintf("the template never uses the input %s: it has no {{%s}} slot", name, name)
		fe.Hint = fmt.Sprintf("put {{%s}} in the template, or remove the input", name)
	}
	return fe
}

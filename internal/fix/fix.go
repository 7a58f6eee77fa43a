// Package fix makes the fixes validate's problems carry (validate.Fix):
// the one place a fix becomes bytes, for the language server's quick fixes
// (internal/lsp, which offers each as an edit) and `wopkit validate --fix`
// (Run, which applies those that need no choice and writes them through
// the write door). It knows no rule: a fix is what its problem carries.
package fix

import (
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// Apply makes a fix's edits to text, in order, each by its JSON pointer
// through jsonedit (the other bytes stay); an error says that one no
// longer applies (its member is gone, or the text does not parse).
func Apply(text []byte, edits []validate.Edit) ([]byte, error) {
	for _, e := range edits {
		var err error
		switch {
		case e.Remove:
			text, err = jsonedit.Remove(text, e.Pointer)
		case e.Rename != "":
			text, err = jsonedit.Rename(text, e.Pointer, e.Rename)
		case e.After != "":
			text, err = jsonedit.SetAfter(text, e.Pointer, e.After, e.Value)
		case e.Append:
			text, err = jsonedit.Append(text, e.Pointer, e.Value)
		default:
			text, err = jsonedit.Set(text, e.Pointer, e.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	return text, nil
}

// The forms a created file's name and the strings put in its template
// must have.
var (
	plainRef   = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*$`)
	packName   = lazyre.New(`^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,15}$`)
	semverForm = lazyre.New(`^\d{1,9}\.\d{1,9}\.\d{1,9}(-[0-9A-Za-z.-]{1,64})?(\+[0-9A-Za-z.-]{1,64})?$`)
)

// Template is the text of the file a fix creates (validate.Fix.Create,
// ref) for the manifest member that names it, in the pack name at version
// (the scaffold's template, scaffold.RefFile). ok is false, and nothing is
// offered, when wopkit has no template for the member, when ref is not a
// plain name (letters, digits, . _ - /, no . or .. segment) whose
// extension fits the template (a prompt .md or .txt, a schema or suite
// .json), or when the name or version, which the template holds, lacks
// its schema's form: no stranger's string lands in a template raw.
func Template(member, ref, name, version string) ([]byte, bool) {
	if !plainRef.MatchString(ref) || !fitsTemplate(member, ref) || strings.Contains("/"+ref+"/", "/./") || strings.Contains("/"+ref+"/", "/../") {
		return nil, false
	}
	if name != "" && !packName.MatchString(name) || version != "" && !semverForm.MatchString(version) {
		return nil, false
	}
	data, ok, err := scaffold.RefFile(member, ref, name, version)
	if err != nil || !ok {
		return nil, false
	}
	return data, true
}

// fitsTemplate reports whether ref's extension is the type of the file
// scaffold.RefFile makes for member.
func fitsTemplate(member, ref string) bool {
	ext := strings.ToLower(path.Ext(ref))
	if member == "systemPromptRef" {
		return ext == ".md" || ext == ".txt"
	}
	return ext == ".json"
}

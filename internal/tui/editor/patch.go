package editor

import "github.com/openwop/wopkit/internal/jsonedit"

// patcher is what the editor needs to change a document's bytes at a JSON
// pointer while keeping everything else (key order, indentation, unknown
// fields) as written. It is a struct of functions so tests can make a change
// fail.
type patcher struct {
	Set    func(src []byte, ptr string, value any) ([]byte, error)
	Append func(src []byte, ptr string, value any) ([]byte, error)
	Remove func(src []byte, ptr string) ([]byte, error)
}

// patch is the editor's patcher: internal/jsonedit.
var patch = patcher{Set: jsonedit.Set, Append: jsonedit.Append, Remove: jsonedit.Remove}

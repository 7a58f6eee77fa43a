// Package editor is `wopkit edit`: a manifest editor for a pack.json, an
// agent, an eval suite or a tool manifest, with its tree of members, a
// detail pane, the validator's problems listed below and re-checked as the
// author types, edits spliced into the original bytes (undo and redo), and
// $EDITOR for a long value. The file is saved only on ctrl+s.
package editor

import (
	"context"
	"io"

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/validate"
)

// Options configure Run.
type Options struct {
	Path      string              // pack directory, pack.json, agent, eval suite or tool manifest
	Validator *validate.Validator // the checks; nil means those of validator(SchemaDir)
	SchemaDir string              // JSON Schemas that override the embedded ones by $id (--schemas)
	Plain     bool                // no colour (NO_COLOR)
	Input     io.Reader           // keys; nil means the terminal
	Screen    io.Writer           // where the UI is drawn; nil means stdout
}

// Run opens the manifest editor on a terminal and returns when the user
// quits. It refuses a file it cannot read or parse before the screen opens.
func Run(ctx context.Context, opts Options) error {
	v, err := validator(opts)
	if err != nil {
		return err
	}
	c := common.New(opts.Plain)
	ed, err := loadEditor(c, v, opts.Path)
	if err != nil {
		return err
	}
	return tui.Run(ctx, tui.NewApp(c, ed), opts.Input, opts.Screen)
}

// validator is the checks the editor lists: the problems `validate
// --strict` shows, the placeholders `wopkit new` writes to be replaced
// (PH001) among them, each at its own severity.
func validator(opts Options) (*validate.Validator, error) {
	if opts.Validator != nil {
		return opts.Validator, nil
	}
	return validate.New(validate.Options{SchemaDir: opts.SchemaDir, Placeholders: true})
}

package main

import (
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/openwop/wopkit/internal/tui/editor"
	"github.com/openwop/wopkit/internal/tui/styles"
	"github.com/openwop/wopkit/internal/werr"
)

// editOptions are the flags of `wopkit edit`.
type editOptions struct {
	SchemaDir string
}

func (o *editOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.SchemaDir, "schemas", "", "directory of JSON Schemas that override the embedded ones by $id")
}

// newEditCmd opens the interactive manifest editor.
func newEditCmd() *cobra.Command {
	o := &editOptions{}
	cmd := &cobra.Command{
		Use:   "edit PATH",
		Short: "Edit a pack, agent, eval suite or tool manifest in the terminal",
		Long: "Edit opens PATH (a pack directory, a pack.json, or an agent, eval suite or tool manifest) as a tree\n" +
			"of fields beside the schema's help for the selected one, with the validation problems listed below\n" +
			"and linked to their fields. Saving keeps the file's key order, indentation and every field wopkit\n" +
			"does not know, and replaces the file atomically. Quitting with unsaved changes asks first.\n" +
			"It writes only inside the file's folder: a pack.json (or file) that is, or links to, something\n" +
			"outside it is refused (path_outside_root), as migrate refuses it; a link inside the folder is\n" +
			"written through and stays a link.\n\n" +
			"Keys: arrows or j/k move, enter edits (or opens), E edits a text in $EDITOR, a adds (in an array\n" +
			"of objects, a copy of the last one), d removes, u undoes, ctrl+s saves, / finds a field by name\n" +
			"or pointer, tab moves to the problem list (enter jumps to the field), q quits. The mouse works too.",
		Example: "  wopkit edit ./my-pack\n  wopkit edit my-pack/pack.json\n  wopkit edit tool.json --schemas ./newer-schemas",
		Args:    usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
				return werr.New(werr.Env, "no_terminal", "wopkit edit needs a terminal").
					WithHint("run it in a terminal; to check a file without one, use `wopkit validate %s`", args[0])
			}
			return editor.Run(cmd.Context(), editor.Options{Path: args[0], SchemaDir: o.SchemaDir, Plain: styles.NoColor()})
		},
	}
	o.AddFlags(cmd)
	return cmd
}

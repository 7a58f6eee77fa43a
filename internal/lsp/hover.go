package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// view is an open document parsed, with what the schema help needs.
type view struct {
	doc  *document
	ls   *lines
	jd   *jsondoc.Doc // nil when the text does not parse
	kind kinds.Kind
	spec kinds.Spec
	name string
}

// viewOf parses the open document at u; nil when it is not open.
func (s *Server) viewOf(u protocol.DocumentURI) *view {
	path, ok := pathOf(u)
	if !ok {
		return nil
	}
	d := s.docs.get(path)
	if d == nil {
		return nil
	}
	w := &view{doc: d, ls: newLines(d.text), jd: parsed(d.text), name: filepath.ToSlash(path)}
	if w.jd != nil {
		w.kind = kinds.Detect(w.name, w.jd.Root)
		w.spec = s.v.SpecOf(w.kind, w.jd)
	} else if filepath.Base(path) == "pack.json" {
		w.kind = kinds.NodePack
	}
	return w
}

// help is the author-facing help of the member at pointer: the schema's
// description (the text the wizard shows beside the field), then the
// allowed values or form.
func (s *Server) help(w *view, pointer string) string {
	fi := s.v.FieldFor(w.spec, w.kind, pointer)
	if fi.SchemaURL == "" {
		return ""
	}
	var b strings.Builder
	toks := jsondoc.SplitPointer(pointer)
	name := "(document)"
	if len(toks) > 0 {
		name = toks[len(toks)-1]
	}
	fmt.Fprintf(&b, "**%s**", name)
	if fi.Type != "" {
		fmt.Fprintf(&b, " · %s", fi.Type)
	}
	if fi.Required {
		b.WriteString(" · required")
	}
	b.WriteString("\n\n")
	desc := s.describe(w, pointer, fi)
	if desc != "" {
		b.WriteString(desc + "\n\n")
	}
	switch {
	case len(fi.Enum) > 0:
		b.WriteString("Allowed: " + backticked(fi.Enum) + "\n\n")
	case fi.PatternHelp != "":
		b.WriteString("Form: " + fi.PatternHelp + " (`" + fi.Pattern + "`)\n\n")
	case fi.Pattern != "":
		b.WriteString("Form: `" + fi.Pattern + "`\n\n")
	}
	if fi.Format != "" {
		b.WriteString("Format: " + fi.Format + "\n\n")
	}
	if fi.Default != nil {
		fmt.Fprintf(&b, "Default: `%v`\n\n", fi.Default)
	}
	fmt.Fprintf(&b, "_%s %s schema_", w.kind, specName(w.spec))
	return b.String()
}

func specName(sp kinds.Spec) string {
	if sp == kinds.SpecAuto {
		return "v1"
	}
	return string(sp)
}

func backticked(vals []string) string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = "`" + v + "`"
	}
	return strings.Join(out, ", ")
}

// Hover shows the help of the member (key or value) under the cursor.
func (s *Server) Hover(_ context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	w := s.viewOf(p.TextDocument.URI)
	if w == nil || w.jd == nil {
		return nil, nil
	}
	t := targetAt(w.jd, w.ls.offset(p.Position))
	if t.pointer == "" {
		return nil, nil
	}
	text := s.help(w, t.pointer)
	if text == "" {
		return nil, nil
	}
	start, end := t.node.Start, t.node.End
	if t.member != nil && t.onKey {
		start, end = t.member.KeyStart, t.member.KeyEnd
	}
	r := w.ls.rangeOf(start, end)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &r}, nil
}

package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// scaffoldPack writes a v2 pack with one node and one agent (writer) into
// a new directory, as `wopkit new` does, and returns the directory.
func scaffoldPack(t *testing.T) string {
	t.Helper()
	return scaffoldPackIn(t, t.TempDir())
}

// scaffoldPackIn is scaffoldPack into parent/hello.
func scaffoldPackIn(t testing.TB, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "hello")
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = "vendor.acme.hello"
	ag := scaffold.NewAgent(0)
	ag.ID = "writer"
	ag.Persona = "Writer"
	a.Agents = []scaffold.AgentAnswers{ag}
	v, _ := validate.New(validate.Options{})
	plan, err := scaffold.PlanPack(a, v)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// want is one problem as `wopkit validate FILE` reports it, placed as an
// LSP position (the documents here are ASCII: a column is a UTF-16 unit).
type want struct {
	line, char uint32
	code, msg  string
	sev        protocol.DiagnosticSeverity
}

func (w want) String() string {
	return fmt.Sprintf("%d:%d %s %q (%v)", w.line, w.char, w.code, w.msg, w.sev)
}

// validateFile is what validate.Path (the CLI's `wopkit validate FILE`)
// reports on file itself.
func validateFile(t *testing.T, file string) []string {
	t.Helper()
	v, _ := validate.New(validate.Options{})
	rep, err := v.Path(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fr := range rep.Files {
		if filepath.Clean(fr.Path) != filepath.Clean(file) {
			continue
		}
		for _, p := range append(append([]validate.Problem{}, fr.Errors...), fr.Warnings...) {
			msg := p.Message
			if p.Hint != "" {
				msg += "\nhint: " + p.Hint
			}
			sev := protocol.DiagnosticSeverityError
			if p.Severity == validate.Warning {
				sev = protocol.DiagnosticSeverityWarning
			}
			out = append(out, want{uint32(p.Line - 1), uint32(p.Column - 1), p.Rule, msg, sev}.String())
		}
	}
	sort.Strings(out)
	return out
}

// published turns diagnostics into the same form (informations left out).
func published(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == protocol.DiagnosticSeverityInformation {
			continue
		}
		out = append(out, want{d.Range.Start.Line, d.Range.Start.Character, codeOf(d), d.Message, d.Severity}.String())
	}
	sort.Strings(out)
	return out
}

func hasCode(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if codeOf(ds[i]) == code {
			return &ds[i]
		}
	}
	return nil
}

func TestSessionAsAnEditorDrivesIt(t *testing.T) {
	t.Parallel()
	dir := scaffoldPack(t)
	pj := filepath.Join(dir, "pack.json")
	prompt := filepath.Join(dir, "prompts", "writer.md")
	if err := os.Remove(prompt); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(pj)
	if err != nil {
		t.Fatal(err)
	}
	c := startSession(t, dir, Options{})
	u := c.open(pj, string(text), 1)

	// Diagnostics: exactly validate's, on the value the pointer names.
	pub := c.waitDiags(u, "version 1", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 1 })
	if got, exp := published(pub.Diagnostics), validateFile(t, pj); strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Fatalf("diagnostics differ from wopkit validate:\n got %q\nwant %q", got, exp)
	}
	ow5 := hasCode(pub.Diagnostics, "OW005")
	if ow5 == nil {
		t.Fatalf("no OW005 for the missing prompt: %+v", pub.Diagnostics)
	}
	refStart := strings.Index(string(text), `"prompts/writer.md"`)
	ls := newLines(text)
	if ow5.Range != ls.rangeOf(refStart, refStart+len(`"prompts/writer.md"`)) || ow5.Source != "wopkit" ||
		ow5.CodeDescription == nil || !strings.HasPrefix(string(ow5.CodeDescription.Href), "https://github.com/openwop/wopkit/blob/main/docs/RULES.md#node-packs") ||
		!strings.Contains(ow5.Message, "\nhint: ") {
		t.Errorf("OW005 diagnostic: %+v", *ow5)
	}

	// The quick fix creates the file from the template; the diagnostic
	// clears when the client reports the file created.
	var acts []codeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: ow5.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*ow5}}}, &acts); err != nil {
		t.Fatal(err)
	}
	created := ""
	for _, a := range acts {
		if a.Title != "Create prompts/writer.md from the wopkit template" {
			continue
		}
		b, _ := json.Marshal(a.Edit)
		var e struct {
			DocumentChanges []struct {
				Kind         string `json:"kind"`
				URI          string `json:"uri"`
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				Edits []protocol.TextEdit `json:"edits"`
			} `json:"documentChanges"`
		}
		if err := json.Unmarshal(b, &e); err != nil || len(e.DocumentChanges) != 2 || e.DocumentChanges[0].Kind != "create" ||
			e.DocumentChanges[0].URI != string(uri.File(prompt)) || e.DocumentChanges[1].TextDocument.URI != string(uri.File(prompt)) {
			t.Fatalf("create edit: %s", b)
		}
		created = e.DocumentChanges[1].Edits[0].NewText
	}
	if created == "" {
		t.Fatalf("no create action among %+v", acts)
	}
	if err := os.WriteFile(prompt, []byte(created), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notifyServer(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{Type: protocol.FileChangeTypeCreated, URI: uri.File(prompt)}}})
	pub = c.waitDiags(u, "OW005 cleared", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW005") == nil })
	if got, exp := published(pub.Diagnostics), validateFile(t, pj); strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Fatalf("after the fix, diagnostics differ from wopkit validate:\n got %q\nwant %q", got, exp)
	}

	// Deleted again: back. Opened in the editor (not on disk): cleared.
	os.Remove(prompt)
	c.notifyServer(protocol.MethodWorkspaceDidChangeWatchedFiles, protocol.DidChangeWatchedFilesParams{Changes: []*protocol.FileEvent{{Type: protocol.FileChangeTypeDeleted, URI: uri.File(prompt)}}})
	c.waitDiags(u, "OW005 back", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW005") != nil })
	c.open(prompt, "You are a writer.\n", 1)
	c.waitDiags(u, "OW005 cleared by didOpen", func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, "OW005") == nil })

	// didChange: a broken version is reported at its value, as validate does.
	broken := strings.Replace(string(text), `"version": "0.1.0"`, `"version": "1.0"`, 1)
	c.change(u, broken, 2)
	pub = c.waitDiags(u, "version 2", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 2 })
	if err := os.WriteFile(pj, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(prompt, []byte("You are a writer.\n"), 0o644)
	if got, exp := published(pub.Diagnostics), validateFile(t, pj); strings.Join(got, "\n") != strings.Join(exp, "\n") || len(got) == 0 {
		t.Fatalf("after didChange, diagnostics differ from wopkit validate:\n got %q\nwant %q", got, exp)
	}

	// Hover: the schema's help for the member under the cursor.
	c.change(u, string(text), 3)
	c.waitDiags(u, "version 3", func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 3 })
	at := strings.Index(string(text), `"modelClass"`) + 3
	var h protocol.Hover
	if err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: ls.position(at)}}, &h); err != nil {
		t.Fatal(err)
	}
	v, _ := validate.New(validate.Options{})
	help := v.HelpFor(kinds.V2, kinds.NodePack, "/agents/0/modelClass")
	if help == "" || !strings.Contains(h.Contents.Value, help) || !strings.Contains(h.Contents.Value, "**modelClass**") {
		t.Errorf("hover on modelClass: %q; the wizard's help is %q", h.Contents.Value, help)
	}
	if fi := v.FieldFor(kinds.V2, kinds.NodePack, "/agents/0/modelClass"); len(fi.Enum) > 0 && !strings.Contains(h.Contents.Value, "`"+fi.Enum[0]+"`") {
		t.Errorf("hover on modelClass lists no allowed value: %q", h.Contents.Value)
	}

	// Completion: the required members an agent lacks come first.
	noModel := strings.Replace(string(text), `"modelClass"`, `"zzz"`, 1)
	c.change(u, noModel, 4)
	at = strings.Index(noModel, `"zzz"`)
	var cl protocol.CompletionList
	if err := c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: ls.position(at + 1)}}, &cl); err != nil {
		t.Fatal(err)
	}
	if len(cl.Items) == 0 || cl.Items[0].Label != "modelClass" || cl.Items[0].Detail == "" || !strings.HasPrefix(cl.Items[0].Detail, "required") {
		t.Errorf("completion at an agent's key: first items %v", labels(cl.Items, 5))
	}
	for _, it := range cl.Items {
		if it.Label == "persona" {
			t.Errorf("completion offers persona, which the agent already has")
		}
	}
	c.change(u, string(text), 5)

	// Completion of a value: the pack kinds.
	at = strings.Index(string(text), `"node"`) + 1
	if err := c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: ls.position(at)}}, &cl); err != nil {
		t.Fatal(err)
	}
	if !containsLabel(cl.Items, "workflow-chain") || !containsLabel(cl.Items, "connection") {
		t.Errorf("completion of kind: %v", labels(cl.Items, 20))
	}

	// Outline.
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range syms {
		for _, ch := range s.Children {
			names = append(names, s.Name+"/"+ch.Name)
		}
	}
	if strings.Join(names, ",") != "nodes/vendor.acme.hello.hello,agents/vendor.acme.hello.writer" {
		t.Errorf("outline: %v", names)
	}
	c.stop()
}

func labels(items []protocol.CompletionItem, n int) []string {
	var out []string
	for i, it := range items {
		if i == n {
			break
		}
		out = append(out, it.Label)
	}
	return out
}

func containsLabel(items []protocol.CompletionItem, l string) bool {
	for _, it := range items {
		if it.Label == l {
			return true
		}
	}
	return false
}

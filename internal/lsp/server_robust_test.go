package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/openwop/wopkit/internal/validate"
)

// A request whose handler panics gets an InternalError; the session goes on.
func TestPanicInAHandlerIsAnErrorNotADeadServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.beforeHandle = func(m string) {
		if m == protocol.MethodTextDocumentHover {
			panic("boom")
		}
	}
	c := startWith(t, s, dir)
	u := c.open(filepath.Join(dir, "pack.json"), `{"name": 1}`, 1)
	c.waitDiags(u, "any", func(protocol.PublishDiagnosticsParams) bool { return true })
	err = c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}}, &protocol.Hover{})
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.InternalError || !strings.Contains(je.Message, "boom") {
		t.Fatalf("hover that panics: %v", err)
	}
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms); err != nil {
		t.Fatalf("the session died after the panic: %v", err)
	}
	c.stop()
}

// Malformed, huge and binary documents are diagnostics; unknown methods and
// requests after shutdown are errors; an oversized message is skipped and
// said; the session survives all of them.
func TestHostileDocumentsAndRequests(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := maxMessage
	maxMessage = 1 << 20
	t.Cleanup(func() { maxMessage = old })
	c := startSession(t, dir, Options{})

	cases := []struct {
		name, text, code string
	}{
		{"pack.json", `{"name": "x",, }`, "json/syntax"},
		{"agent.json", "\ufeff{}", "json/encoding"},
		{"deep.json", strings.Repeat("[", 300) + strings.Repeat("]", 300), "json/too_deep"},
		{"dup.json", `{"a": 1, "a": 2}`, "json/duplicate_key"},
		{"huge.json", `{"x": "` + strings.Repeat("a", validate.MaxFileSize) + `"}`, "json/too_large"},
	}
	for _, tc := range cases {
		if tc.name == "huge.json" {
			maxMessage = 64 << 20
		}
		u := c.open(filepath.Join(dir, tc.name), tc.text, 1)
		p := c.waitDiags(u, tc.code, func(p protocol.PublishDiagnosticsParams) bool { return hasCode(p.Diagnostics, tc.code) != nil })
		if d := hasCode(p.Diagnostics, tc.code); d.Severity != protocol.DiagnosticSeverityError {
			t.Errorf("%s: %+v", tc.name, d)
		}
		maxMessage = 1 << 20
	}

	// A message over the bound is skipped unread, and the client is told.
	big := strings.Repeat("b", 2<<20)
	c.open(filepath.Join(dir, "big.json"), big, 1)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c.mu.Lock()
		n := len(c.msgs)
		c.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no showMessage for an oversized message")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(c.msgs[0].Message, "skipped a message") || c.msgs[0].Type != protocol.MessageTypeError {
		t.Errorf("showMessage: %+v", c.msgs[0])
	}

	err := c.call("textDocument/rename", map[string]any{}, nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.MethodNotFound {
		t.Errorf("unimplemented method: %v", err)
	}
	err = c.call(protocol.MethodTextDocumentHover, "not params", nil)
	if !errors.As(err, &je) {
		t.Errorf("malformed params: %v", err)
	}
	// Still alive: a hover on the scaffold-free pack.json answers.
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.open(filepath.Join(dir, "ok.json"), `{"suiteId": "a.evals.b", "tasks": []}`, 1)}}, &[]protocol.DocumentSymbol{}); err != nil {
		t.Fatalf("session after hostile input: %v", err)
	}
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	err = c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{}, nil)
	if !errors.As(err, &je) || je.Code != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v", err)
	}
	c.notifyServer(protocol.MethodExit, nil)
	if err := <-c.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// The server reads nothing outside the workspace: a pack.json outside the
// root is checked without its files (and says so), even when a reference
// would resolve on disk.
func TestReadsOnlyInsideTheWorkspace(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := scaffoldPack(t)
	c := startSession(t, root, Options{})
	text, err := os.ReadFile(filepath.Join(outside, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(outside, "prompts", "writer.md"))
	u := c.open(filepath.Join(outside, "pack.json"), string(text), 1)
	p := c.waitDiags(u, "published", func(protocol.PublishDiagnosticsParams) bool { return true })
	if hasCode(p.Diagnostics, "OW005") != nil {
		t.Errorf("a file outside the workspace was looked at: %+v", p.Diagnostics)
	}
	found := false
	for _, d := range p.Diagnostics {
		found = found || d.Severity == protocol.DiagnosticSeverityInformation && strings.Contains(d.Message, "outside the workspace")
	}
	if !found {
		t.Errorf("no note that the file is outside the workspace: %+v", p.Diagnostics)
	}
	c.stop()
}

// A request before initialize is refused, as the protocol says.
func TestRequestBeforeInitialize(t *testing.T) {
	t.Parallel()
	s, _ := New(Options{})
	c := connect(t, s)
	err := c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{}, nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.ServerNotInitialized {
		t.Errorf("hover before initialize: %v", err)
	}
}

package lsp

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// testClient is an LSP client on the other end of two pipes, framed by
// jsonrpc2's own stream (not the server's): what an editor does over stdio.
type testClient struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	mu     sync.Mutex
	diags  map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams
	msgs   []protocol.ShowMessageParams
	notify chan struct{}
	done   chan error
	srv    *Server
}

type pipeRWC struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeRWC) Close() error {
	for _, c := range p.closers {
		c.Close()
	}
	return nil
}

// startSession starts a server on pipes and a client talking to it, and
// initializes the session with root as its workspace folder.
func startSession(t testing.TB, root string, opts Options) *testClient {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return startWith(t, s, root)
}

func startWith(t testing.TB, s *Server, root string) *testClient {
	t.Helper()
	c := connect(t, s)
	var res protocol.InitializeResult
	params := map[string]any{"processId": 1, "rootUri": uri.File(root), "capabilities": map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}, "workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}},
	}, "workspaceFolders": []map[string]any{{"uri": uri.File(root), "name": "ws"}}}
	if err := c.call(protocol.MethodInitialize, params, &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo == nil || res.ServerInfo.Name != "wopkit" {
		t.Fatalf("initialize: serverInfo %+v", res.ServerInfo)
	}
	c.notifyServer(protocol.MethodInitialized, map[string]any{})
	return c
}

// connect starts s on pipes with a client on the other end.
func connect(t testing.TB, s *Server) *testClient {
	t.Helper()
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	c := &testClient{t: t, diags: map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{}, notify: make(chan struct{}, 1), done: make(chan error, 1), srv: s}
	go func() {
		c.done <- s.Serve(context.Background(), pipeRWC{Reader: sr, Writer: sw, closers: []io.Closer{sr, sw}}, sw)
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{Reader: cr, Writer: cw, closers: []io.Closer{cr, cw}}))
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() { c.conn.Close() })
	return c
}

func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
		}
		c.mu.Lock()
		c.diags[p.URI] = append(c.diags[p.URI], p)
		c.mu.Unlock()
		select {
		case c.notify <- struct{}{}:
		default:
		}
	case protocol.MethodWindowShowMessage:
		var p protocol.ShowMessageParams
		_ = json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.msgs = append(c.msgs, p)
		c.mu.Unlock()
	}
	// Reply off the read loop, as editors do: on synchronous pipes a reply
	// written from the loop waits for a server that may be writing too.
	go reply(ctx, nil, nil)
	return nil
}

func (c *testClient) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *testClient) notifyServer(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitDiags waits for a publication on u that satisfies ok, and returns it.
func (c *testClient) waitDiags(u protocol.DocumentURI, what string, ok func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	deadline := time.After(60 * time.Second)
	seen := 0
	for {
		c.mu.Lock()
		list := c.diags[u]
		c.mu.Unlock()
		for ; seen < len(list); seen++ {
			if ok(list[seen]) {
				return list[seen]
			}
		}
		select {
		case <-c.notify:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics on %s where %s; got %d publications, last %+v", u, what, len(list), last(list))
		}
	}
}

func last(l []protocol.PublishDiagnosticsParams) any {
	if len(l) == 0 {
		return nil
	}
	return l[len(l)-1]
}

func (c *testClient) open(path, text string, version int32) protocol.DocumentURI {
	u := uri.File(path)
	c.notifyServer(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "json", Version: version, Text: text}})
	return u
}

func (c *testClient) change(u protocol.DocumentURI, text string, version int32) {
	c.notifyServer(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}},
	})
}

// stop shuts the session down and checks that Serve returned cleanly.
func (c *testClient) stop() {
	c.t.Helper()
	if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	c.notifyServer(protocol.MethodExit, nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(30 * time.Second):
		c.t.Fatal("Serve did not return after exit")
	}
}

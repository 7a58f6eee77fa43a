// Package lsp is wopkit's language server (`wopkit lsp`): the checks of
// internal/validate, the schema's help, completion from the schema and the
// pack, and quick fixes (internal/migrate, internal/scaffold, jsonedit),
// served over the Language Server Protocol on stdio to any editor. The
// protocol types and JSON-RPC come from go.lsp.dev/protocol and
// go.lsp.dev/jsonrpc2; this package adds no check of its own.
//
// It never runs a pack's code (OW017 stays off), reads files only inside
// the workspace roots through internal/untrusted, and writes nothing: fixes
// are WorkspaceEdits the client applies, each built by checkedEdit, which
// keeps the write door's rules (edits.go).
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/openwop/wopkit/internal/validate"
)

// Options configure a server.
type Options struct {
	// Validator checks the documents (its options are `validate`'s; RunEntry
	// is forced off).
	Validator *validate.Validator
	// Version is the server's version, sent in serverInfo.
	Version string
	// Log receives one line per request that failed inside the server
	// (stderr for `wopkit lsp`); nil discards them.
	Log io.Writer
	// Registry is a registry checkout: a pack.json is compared with the
	// version it follows there, and publish's gates that need no release
	// run on it, as `validate --for-registry --registry` does ("": none).
	Registry string
}

// Server is one language-server session.
type Server struct {
	protocol.Server // the methods not listed in handled; never called

	v       *validate.Validator
	opts    Options
	client  protocol.Client
	conn    jsonrpc2.Conn
	docs    *store
	diags   *diagnostics
	mu      sync.Mutex
	roots   []string // absolute, clean workspace roots
	state   int      // stateNew, stateRunning, stateShutdown
	exited  bool
	watched bool // the client lets the server register file watchers

	// beforeHandle, when set (tests), runs first in every handler.
	beforeHandle func(method string)
}

const (
	stateNew = iota
	stateRunning
	stateShutdown
)

// handled are the methods the server implements; any other request gets
// MethodNotFound and any other notification is ignored.
var handled = map[string]bool{
	protocol.MethodInitialize: true, protocol.MethodInitialized: true, protocol.MethodShutdown: true, protocol.MethodExit: true,
	protocol.MethodTextDocumentDidOpen: true, protocol.MethodTextDocumentDidChange: true, protocol.MethodTextDocumentDidClose: true,
	protocol.MethodTextDocumentDidSave: true, protocol.MethodWorkspaceDidChangeWatchedFiles: true,
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: true,
	protocol.MethodTextDocumentHover:                  true, protocol.MethodTextDocumentCompletion: true,
	protocol.MethodTextDocumentDocumentSymbol: true,
}

// New returns a server; Serve runs it.
func New(opts Options) (*Server, error) {
	if opts.Validator == nil {
		v, err := validate.New(validate.Options{})
		if err != nil {
			return nil, err
		}
		opts.Validator = v
	}
	s := &Server{v: opts.Validator, opts: opts, docs: newStore()}
	s.diags = newDiagnostics(s)
	return s, nil
}

// Serve runs the session on r and w (stdin and stdout for an editor) until
// the client sends exit, the stream ends or ctx is done. It returns an error
// when the session ended without shutdown.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var c io.Closer
	if rc, ok := r.(io.Closer); ok {
		c = rc
	}
	s.conn = jsonrpc2.NewConn(newStream(r, w, c))
	s.client = protocol.ClientDispatcher(s.conn, zap.NewNop())
	go s.diags.run(ctx)
	s.conn.Go(ctx, s.handler())
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		s.conn.Close()
		<-s.conn.Done()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited && s.state != stateShutdown {
		return errors.New("the client sent exit without shutdown")
	}
	if err := s.conn.Err(); err != nil && !s.exited && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "closed") {
		return err
	}
	return nil
}

// handler routes each message, and turns a panic in any handler into an
// InternalError reply (the session goes on).
func (s *Server) handler() jsonrpc2.Handler {
	inner := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
		_, isCall := req.(*jsonrpc2.Call)
		defer func() {
			if r := recover(); r != nil {
				s.logf("wopkit lsp: %s failed: %v\n%s", req.Method(), r, debug.Stack())
				if isCall {
					err = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "wopkit lsp could not serve %s: %v", req.Method(), r))
				} else {
					err = nil
				}
			}
		}()
		m := req.Method()
		if s.beforeHandle != nil {
			s.beforeHandle(m)
		}
		s.mu.Lock()
		state := s.state
		s.mu.Unlock()
		switch {
		case m == tooLargeMethod:
			s.showMessage(ctx, protocol.MessageTypeError, "wopkit lsp skipped a message it could not read (more than "+fmt.Sprint(MaxMessage>>20)+" MiB, or not JSON-RPC): "+string(req.Params()))
			return nil
		case m == protocol.MethodExit:
		case state == stateNew && m != protocol.MethodInitialize:
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized"))
			}
			return nil
		case state == stateShutdown:
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down"))
			}
			return nil
		case m == protocol.MethodTextDocumentCodeAction:
			return s.handleCodeAction(ctx, reply, req)
		case !handled[m]:
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "wopkit lsp does not implement "+m))
			}
			return nil
		}
		return inner(ctx, reply, req)
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, format+"\n", args...)
	}
}

func (s *Server) showMessage(ctx context.Context, t protocol.MessageType, msg string) {
	if s.client != nil {
		_ = s.client.ShowMessage(ctx, &protocol.ShowMessageParams{Type: t, Message: msg})
	}
}

// Initialize records the workspace roots and states the capabilities.
func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateNew {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already sent")
	}
	for _, f := range p.WorkspaceFolders {
		if dir, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
			s.roots = append(s.roots, dir)
		}
	}
	// Clients older than workspace folders name the root by rootUri, or
	// rootPath before that: both are deprecated, and still sent.
	//lint:ignore SA1019 read only when the client sends no workspace folder
	if len(s.roots) == 0 && p.RootURI != "" {
		//lint:ignore SA1019 as above
		if dir, ok := pathOf(p.RootURI); ok {
			s.roots = append(s.roots, dir)
		}
	}
	//lint:ignore SA1019 as above
	if len(s.roots) == 0 && p.RootPath != "" && filepath.IsAbs(p.RootPath) {
		//lint:ignore SA1019 as above
		s.roots = append(s.roots, filepath.Clean(p.RootPath))
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.DidChangeWatchedFiles != nil {
		s.watched = ws.DidChangeWatchedFiles.DynamicRegistration
	}
	s.state = stateRunning
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true, Change: protocol.TextDocumentSyncKindFull, Save: &protocol.SaveOptions{},
			},
			HoverProvider:          true,
			CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{`"`, ":", "/", ".", "{"}},
			CodeActionProvider:     &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Source}},
			DocumentSymbolProvider: true,
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
			},
		},
		ServerInfo: &protocol.ServerInfo{Name: "wopkit", Version: s.opts.Version},
	}, nil
}

// Initialized asks the client to report changes to the files a document
// may reference, so that a document is re-checked when one appears.
func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	watched := s.watched
	s.mu.Unlock()
	if !watched {
		return nil
	}
	// A call from inside a handler would wait for its reply on the loop
	// that reads it: register from another goroutine.
	go func() {
		defer func() { _ = recover() }()
		_ = s.client.RegisterCapability(context.WithoutCancel(ctx), &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID: "wopkit-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles,
			RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/*"}}},
		}}})
	}()
	return nil
}

// Shutdown ends the session's work; only exit may follow.
func (s *Server) Shutdown(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = stateShutdown
	return nil
}

// Exit ends the session.
func (s *Server) Exit(context.Context) error {
	s.mu.Lock()
	s.exited = true
	s.mu.Unlock()
	s.diags.stop()
	return s.conn.Close()
}

// DidChangeWorkspaceFolders adds and removes workspace roots.
func (s *Server) DidChangeWorkspaceFolders(_ context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.Event.Removed {
		if dir, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
			for i, r := range s.roots {
				if r == dir {
					s.roots = append(s.roots[:i], s.roots[i+1:]...)
					break
				}
			}
		}
	}
	for _, f := range p.Event.Added {
		if dir, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
			s.roots = append(s.roots, dir)
		}
	}
	return nil
}

// rootOf returns the workspace root that holds path. With no root given
// (an editor opening a lone file), the file's own directory is its root.
func (s *Server) rootOf(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.roots) == 0 {
		return filepath.Dir(path), true
	}
	for _, r := range s.roots {
		if within(r, path) {
			return r, true
		}
	}
	return "", false
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator)) && !filepath.IsAbs(rel)
}

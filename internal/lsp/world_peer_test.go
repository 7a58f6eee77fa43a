package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// jsonLanguageServer finds vscode-json-language-server (npm
// vscode-langservers-extracted): $VSCODE_JSON_LS, the repository's
// .tools/vscode-ls (where .ci/run installs it), or PATH.
func jsonLanguageServer(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("VSCODE_JSON_LS"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	local := filepath.Join(filepath.Dir(file), "..", "..", ".tools", "vscode-ls", "node_modules", ".bin", "vscode-json-language-server")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if p, err := exec.LookPath("vscode-json-language-server"); err == nil {
		return p
	}
	t.Skip("vscode-json-language-server is not installed (npm vscode-langservers-extracted; .ci/run installs it into .tools/vscode-ls, or set VSCODE_JSON_LS): skipping the comparison with the peer server")
	return ""
}

type stdioRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (s stdioRWC) Close() error {
	s.WriteCloser.Close()
	return s.ReadCloser.Close()
}

// peerDoc is one pack.json handed to both servers.
type peerDoc struct {
	path, schema string
	text         []byte
}

// The peer server, given the same schema for each document, reports a
// subset of wopkit's diagnostics (by line) on every registry fixture
// pack.json and every scaffolded pack.
func TestPeerJSONLanguageServerIsASubset(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: skipping the peer server comparison")
	}
	ls := jsonLanguageServer(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: skipping the comparison with vscode-json-language-server")
	}
	v, _ := validate.New(validate.Options{})
	root := t.TempDir()
	var paths []string
	if _, ok := fixtures.Find(); ok {
		for i, tgz := range fixtures.Tarballs(t, "") {
			dir := filepath.Join(root, fmt.Sprintf("fixture%02d-%s", i, strings.TrimSuffix(filepath.Base(filepath.Dir(filepath.Dir(tgz))), ".tgz")))
			fixtures.Untar(t, tgz, dir)
			paths = append(paths, filepath.Join(dir, "pack.json"))
		}
	} else {
		t.Log("shared fixtures absent: comparing on scaffolded packs only")
	}
	for _, k := range []string{"workflow-chain", "prompt", "card", "form-content", "connection", "artifact-type"} {
		paths = append(paths, scaffoldKind(t, filepath.Join(root, "scaffold-"+k), k, "vendor.acme."+strings.ReplaceAll(k, "-", "")))
	}
	for _, spec := range []string{"v2", "v1"} {
		a := scaffold.PackAnswers{}.Defaults()
		a.Name, a.Spec = "vendor.acme.node"+spec, spec
		ag := scaffold.NewAgent(0)
		ag.ID = "writer"
		a.Agents = []scaffold.AgentAnswers{ag}
		p, err := scaffold.PlanPack(a, v)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(root, "scaffold-node-"+spec)
		if err := p.Write(dir, false); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Join(dir, "pack.json"))
	}
	// A control: a pack with an unknown member and a bad version, which the
	// peer must report (else it is not checking against the schema at all).
	control := filepath.Join(root, "control", "pack.json")
	{
		src, err := os.ReadFile(paths[len(paths)-2])
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(strings.Replace(string(src), `"version": "0.1.0"`, `"version": "1.0"`, 1), "{\n", "{\n  \"bogus\": 1,\n", 1)
		os.MkdirAll(filepath.Dir(control), 0o755)
		if err := os.WriteFile(control, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, control)
	}
	var docs []peerDoc
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// The published pack.json files are one line (canonical JSON):
		// indent them (key order kept), so that lines tell problems apart.
		if bytes.Count(text, []byte("\n")) < 3 {
			var buf bytes.Buffer
			if err := json.Indent(&buf, text, "", "  "); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			text = append(buf.Bytes(), '\n')
			if err := os.WriteFile(p, text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		jd, err := jsondoc.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		k := kinds.Detect("pack.json", jd.Root)
		id := kinds.SchemaIDFor(v.SpecOf(k, jd), k)
		if id == "" {
			t.Logf("%s: no schema for %s: not compared", p, k)
			continue
		}
		docs = append(docs, peerDoc{path: p, schema: id, text: text})
	}

	peer := runPeer(t, ls, root, v, docs)
	extra := 0
	for _, d := range docs {
		wopkit := map[uint32]bool{}
		fsys, err := untrusted.DirFS(filepath.Dir(d.path))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range v.Document(filepath.ToSlash(d.path), fsys, d.text).Problems() {
			if filepath.Clean(p.File) == d.path {
				wopkit[uint32(p.Line-1)] = true
			}
		}
		got := peer[d.path]
		if d.path == control && len(got) < 2 {
			t.Errorf("the peer reports %d problems on the control document (an unknown member, a bad version): it is not checking the schema", len(got))
		}
		for _, pd := range got {
			if os.Getenv("PEER_VERBOSE") != "" {
				t.Logf("  peer %d:%d sev %v %q", pd.Range.Start.Line+1, pd.Range.Start.Character+1, pd.Severity, pd.Message)
			}
			if pd.Severity == protocol.DiagnosticSeverityHint || pd.Severity == protocol.DiagnosticSeverityInformation {
				continue
			}
			if !wopkit[pd.Range.Start.Line] {
				extra++
				t.Errorf("%s:%d: vscode-json-language-server reports %q, wopkit nothing on that line", rel(root, d.path), pd.Range.Start.Line+1, pd.Message)
			}
		}
		t.Logf("%s (%s): peer %d, wopkit lines %d", rel(root, d.path), filepath.Base(d.schema), len(got), len(wopkit))
	}
	t.Logf("%d documents compared, %d peer diagnostics wopkit lacks", len(docs), extra)
}

func rel(root, p string) string {
	r, _ := filepath.Rel(root, p)
	return r
}

// runPeer opens every document in vscode-json-language-server, each
// associated with its schema (served from the validator's own set through
// the server's vscode/content request), and returns its diagnostics once
// it has published for every document and gone quiet.
func runPeer(t *testing.T, ls, root string, v *validate.Validator, docs []peerDoc) map[string][]protocol.Diagnostic {
	t.Helper()
	cmd := exec.Command(ls, "--stdio")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Skipf("vscode-json-language-server does not start (%v): skipping", err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var mu sync.Mutex
	diags := map[string][]protocol.Diagnostic{}
	last := time.Now()
	var schemas []map[string]any
	for _, d := range docs {
		schemas = append(schemas, map[string]any{"fileMatch": []string{"**/" + filepath.Base(filepath.Dir(d.path)) + "/pack.json"}, "url": d.schema})
	}
	settings := map[string]any{"validate": map[string]any{"enable": true}, "schemas": schemas, "schemaDownload": map[string]any{"enable": true}}
	handler := func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			var p protocol.PublishDiagnosticsParams
			_ = json.Unmarshal(req.Params(), &p)
			if path, ok := pathOf(p.URI); ok {
				mu.Lock()
				diags[path] = p.Diagnostics
				last = time.Now()
				mu.Unlock()
			}
		case "vscode/content":
			var u string
			if json.Unmarshal(req.Params(), &u) != nil {
				var us []string
				_ = json.Unmarshal(req.Params(), &us)
				if len(us) > 0 {
					u = us[0]
				}
			}
			id, _, _ := strings.Cut(u, "#")
			if b, ok := v.SchemaSource(id); ok {
				go reply(ctx, string(b), nil)
			} else {
				go reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no schema %s", u))
			}
			return nil
		case "workspace/configuration":
			var p protocol.ConfigurationParams
			_ = json.Unmarshal(req.Params(), &p)
			out := make([]any, len(p.Items))
			for i, it := range p.Items {
				if it.Section == "json" {
					out[i] = settings
				}
			}
			go reply(ctx, out, nil)
			return nil
		}
		go reply(ctx, nil, nil)
		return nil
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdioRWC{stdout, stdin}))
	conn.Go(context.Background(), handler)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var res map[string]any
	if _, err := conn.Call(ctx, protocol.MethodInitialize, map[string]any{
		"processId": os.Getpid(), "rootUri": uri.File(root),
		"capabilities":          map[string]any{"workspace": map[string]any{"configuration": true}, "textDocument": map[string]any{"publishDiagnostics": map[string]any{}}},
		"initializationOptions": map[string]any{"provideFormatter": false, "handledSchemaProtocols": []string{"file"}},
	}, &res); err != nil {
		t.Fatalf("initialize vscode-json-language-server: %v", err)
	}
	_ = conn.Notify(ctx, protocol.MethodInitialized, map[string]any{})
	_ = conn.Notify(ctx, protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": map[string]any{"json": settings}})
	for _, d := range docs {
		_ = conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: uri.File(d.path), LanguageID: "json", Version: 1, Text: string(d.text)}})
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		mu.Lock()
		n, quiet := len(diags), time.Since(last)
		mu.Unlock()
		if n >= len(docs) && quiet > 3*time.Second {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("vscode-json-language-server published for %d of %d documents", n, len(docs))
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	out := map[string][]protocol.Diagnostic{}
	for k, d := range diags {
		out[k] = d
	}
	keys := make([]string, 0, len(out))
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return out
}

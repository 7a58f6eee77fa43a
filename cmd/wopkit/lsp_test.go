package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// frame writes LSP messages with their Content-Length headers.
func frame(msgs ...string) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	return b.String()
}

// `wopkit lsp` answers initialize and shutdown on stdio and exits 0 after
// exit; an unknown --spec is a usage error.
func TestLspCommand(t *testing.T) {
	t.Parallel()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetIn(strings.NewReader(frame(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	)))
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs([]string{"lsp", "--stdio"})
	if err := root.Execute(); err != nil {
		t.Fatalf("wopkit lsp: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), `"serverInfo":{"name":"wopkit"`) || !strings.Contains(out.String(), `"result":null,"id":2}`) ||
		!strings.HasPrefix(out.String(), "Content-Length: ") {
		t.Errorf("stdout:\n%s", out.String())
	}
	if _, _, code := runCmd(t, "lsp", "--spec", "v9"); code != 2 {
		t.Errorf("--spec v9: exit %d, want 2", code)
	}
}

package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// TestWizardConnection: `new` offers a connection pack and asks what one
// needs: the provider, how connectors sign in (OAuth endpoints, issuer,
// read and write scope groups) and how hosts reach it; the answers typed
// are what pack.json holds, it validates strictly, the tarball verifies,
// and the summary ends with the next steps.
func TestWizardConnection(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	a := newAnswers()
	d, w := wizardOn(t, a, Options{DraftDir: dir})
	pickKind(t, d, a, scaffold.KindConnection, "A connection pack")
	d.Keys("enter", "enter", "type:acme", "enter", "type:conns", "enter")
	var seen []string
	step := func(keys ...string) {
		t.Helper()
		if len(seen) == 0 || seen[len(seen)-1] != w.at.pg.id {
			seen = append(seen, w.at.pg.id)
		}
		d.Keys(keys...)
	}
	for w.at.pg.id == pageIdentity {
		step("enter")
	}
	if w.at.pg.id != "provider" {
		t.Fatalf("after the identity: %s\n%s", w.at.pg.id, d.View())
	}
	step("type:github", "enter", "type:GitHub", "enter", "enter", "type:GitHub", "enter", "type:https://docs.github.com", "enter")
	if w.at.pg.id != "conn-auth" {
		t.Fatalf("after the provider: %s\n%s", w.at.pg.id, d.View())
	}
	step("enter", "enter", "enter", "type:https://github.com/login/oauth/authorize", "enter",
		"type:https://github.com/login/oauth/access_token", "enter", "enter", "type:https://github.com", "enter", "enter")
	step("type:repo-read", "enter", "type:Read your repositories", "enter", "type:repo, read:org", "enter")
	for w.at.pg.id != pageConnReach && w.at.pg.id != "review" {
		step("enter")
	}
	step("enter", "type:https://api.githubcopilot.com/mcp/", "enter", "enter")
	enterUntil(t, d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("review: %v %v\n%s", w.rev.Err, w.rev.Problems, d.View())
	}
	if got := strings.Join(seen, " "); got != "identity provider conn-auth read-group read-groups write-group write-groups conn-reach" {
		t.Errorf("pages: %s", got)
	}
	d.Keys("enter")
	if !w.finished || w.err != "" {
		t.Fatalf("not written: %q\n%s", w.err, d.View())
	}
	b, err := os.ReadFile(filepath.Join(dir, "conns", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind": "connection"`, `"id": "github"`, `"displayName": "GitHub"`, `"vendor": "GitHub"`,
		`"docsUrl": "https://docs.github.com"`, `"authorize": "https://github.com/login/oauth/authorize"`,
		`"token": "https://github.com/login/oauth/access_token"`, `"issuer": "https://github.com"`,
		`"key": "repo-read"`, `"label": "Read your repositories"`, `"repo",`, `"read:org"`,
		`"url": "https://api.githubcopilot.com/mcp/"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s missing:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), ".example") {
		t.Errorf("a placeholder address is left:\n%s", b)
	}
	signedAndValid(t, w, dir, "conns", "community.acme.conns-0.1.0.tgz")
	sum := strings.Join(w.done, "\n")
	if !strings.Contains(sum, "next:") || !strings.Contains(sum, "OAuth client") {
		t.Errorf("the summary names no next step for a connection:\n%s", sum)
	}
}

// TestConnectionPagesBindMappedAnswers: every field the connection pages
// bind is an answer the kind's pointer map takes to its place in pack.json
// and back, and a problem there leads to the page that asks it.
func TestConnectionPagesBindMappedAnswers(t *testing.T) {
	a := newAnswers()
	a.connectionPack().Provider.Auth.Write = append(a.connectionPack().Provider.Auth.Write, scaffold.ScopeGroupAnswers{Key: "admin"})
	_, w := wizardOn(t, a, Options{What: scaffold.KindConnection, DraftDir: t.TempDir()})
	m := wizardKinds[scaffold.KindConnection].Pointers
	n := 0
	for _, at := range walk(a) {
		if at.pg.each != "connection" || at.pg.list != nil {
			continue
		}
		for key := range w.titlesOf(a.clone(), at) {
			n++
			if ptr := m.Pointer(key); ptr == "" || m.Field(ptr) != key {
				t.Errorf("%s binds %s, at %q in pack.json", at.pg.id, key, ptr)
			}
			if got := owner(a, scaffold.FieldError{Field: key, File: "pack.json"}); !got.is(at) {
				t.Errorf("a problem with %s leads to %s/%d, not %s/%d", key, got.pg.id, got.j, at.pg.id, at.j)
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d fields bound", n)
	}
}

// TestConnectionFixIt: a connection problem is named by the page and field
// that ask it, and "fix it" opens that field with the problem shown.
func TestConnectionFixIt(t *testing.T) {
	a := newAnswers()
	a.Pack.Name = "community.acme.fixconn"
	a.connectionPack().Provider.Server = "http://mcp.acme.example/mcp"
	d, w, rev := reviewOf(t, a, scaffold.KindConnection)
	if !strings.Contains(rev, "How hosts reach it › MCP server address: ") {
		t.Errorf("the review does not name the field:\n%s", rev)
	}
	noJSONWords(t, rev, "provider.server", "/reach/mcp")
	d.Keys("enter")
	if f := w.form.GetFocusedField(); w.at.pg.id != pageConnReach || f.GetKey() != "provider.server" {
		t.Fatalf("fix it opened %s at %s\n%s", w.at.pg.id, f.GetKey(), d.View())
	}
	if v := strings.Join(strings.Fields(d.View()), " "); !strings.Contains(v, "✗ How hosts reach it › MCP server address") {
		t.Errorf("the page does not show the problem:\n%s", d.View())
	}
	d.Keys("ctrl+u", "type:https://mcp.acme.example/mcp", "enter")
	enterUntil(t, d, w, "review")
	if w.rev.Plan == nil {
		t.Fatalf("still: %v\n%s", w.rev.Problems, d.View())
	}
}

package scaffold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
)

// TestConnectionPackDefaults: the default connection pack is a v2 pack
// without runtime, one oauth2 provider reached over MCP with its issuer,
// strictly valid (CN001 and CN002 quiet), consumer nodes derived.
func TestConnectionPackDefaults(t *testing.T) {
	t.Parallel()
	a := ConnectionPackAnswers{}.Defaults()
	a.Name = "vendor.acme.connections.acme"
	p, err := PlanConnectionPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(p.Paths(), " "), "pack.json README.md .openwopignore LICENSE"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	pj := p.File("pack.json").Data
	var doc map[string]any
	if err := json.Unmarshal(pj, &doc); err != nil {
		t.Fatal(err)
	}
	pr := doc["provider"].(map[string]any)
	if doc["kind"] != "connection" || doc["runtime"] != nil || pr["auth"].(map[string]any)["issuer"] == nil ||
		pr["reach"].(map[string]any)["mcp"] == nil || len(pr["consumerNodes"].([]any)) != 2 {
		t.Errorf("pack.json:\n%s", pj)
	}
	for _, fr := range orDefault(nil).PackFiles("pack.json", p.FS(nil), pj) {
		if fr.Kind != kinds.ConnectionPack || fr.Spec != kinds.V2 || len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("%s %s: %v %v", fr.Kind, fr.Spec, fr.Errors, fr.Warnings)
		}
	}
}

// TestConnectionPackCheck: refused answers name the answer, in the
// validator's words (CN001, CN002 and the schema), and v1 is refused.
func TestConnectionPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() ConnectionPackAnswers {
		a := ConnectionPackAnswers{}.Defaults()
		a.Name = "vendor.acme.connections.acme"
		return a
	}, []answerCase[ConnectionPackAnswers]{
		{"no issuer", "provider.auth", "issuer", func(a *ConnectionPackAnswers) { a.Provider.Auth.Issuer = "" }},
		{"pkce unsupported", "provider.auth.pkce", "unsupported", func(a *ConnectionPackAnswers) { a.Provider.Auth.PKCE = "unsupported" }},
		{"http server", "provider.server", "http://", func(a *ConnectionPackAnswers) { a.Provider.Server = "http://mcp.acme.example" }},
		{"bad transport", "provider.transport", "stdio", func(a *ConnectionPackAnswers) { a.Provider.Transport = "stdio" }},
		{"bad category", "provider.category", "games", func(a *ConnectionPackAnswers) { a.Provider.Category = "games" }},
		{"bad id", "provider.id", "Acme", func(a *ConnectionPackAnswers) { a.Provider.ID = "Acme" }},
		{"bad endpoint", "provider.auth.token", "ftp://", func(a *ConnectionPackAnswers) { a.Provider.Auth.Token = "ftp://x.example/t" }},
		{"bad scope key", "provider.auth.read.0.key", "Read", func(a *ConnectionPackAnswers) { a.Provider.Auth.Read[0].Key = "Read" }},
		{"openapi without hosts", "provider.apiHosts", "apiHosts", func(a *ConnectionPackAnswers) {
			a.Provider.Reach, a.Provider.OpenAPI = "openapi", "https://api.acme.example/openapi.json"
		}},
		{"openapi without document", "provider.openapi", "needs its OpenAPI document", func(a *ConnectionPackAnswers) { a.Provider.Reach = "openapi" }},
		{"unknown reach", "provider.reach", "carrier-pigeon", func(a *ConnectionPackAnswers) { a.Provider.Reach = "carrier-pigeon" }},
		{"v1", "spec", "only in spec v2", func(a *ConnectionPackAnswers) { a.Spec = "v1" }},
	})
}

// TestConnectionPackKinds: an api_key provider drops the oauth2 defaults;
// openapi and integration reaches write their member and consumer nodes.
func TestConnectionPackKinds(t *testing.T) {
	t.Parallel()
	a := ConnectionPackAnswers{}.Defaults()
	a.Name = "vendor.acme.connections.acme"
	for _, kv := range [][2]string{{"provider.auth.kind", "api_key"}, {"provider.reach", "openapi"},
		{"provider.openapi", "https://api.acme.example/openapi.json"}, {"provider.apiHosts", "api.acme.example"}} {
		if err := Set(&a, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	p, err := PlanConnectionPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	pj := string(p.File("pack.json").Data)
	for _, want := range []string{`"kind": "api_key"`, `"ref": "https://api.acme.example/openapi.json"`, `"core.openwop.http.openapi-call"`, `"api.acme.example"`} {
		if !strings.Contains(pj, want) {
			t.Errorf("lacks %s:\n%s", want, pj)
		}
	}
	for _, gone := range []string{"endpoints", "issuer", "mcp", "pkce"} {
		if strings.Contains(pj, gone) {
			t.Errorf("an api_key openapi provider has %s:\n%s", gone, pj)
		}
	}
	b := ConnectionPackAnswers{}.Defaults()
	b.Name = "vendor.acme.connections.acme"
	b.Provider.Reach, b.Provider.Node = "integration", "core.openwop.integration.acme"
	p, err = PlanConnectionPack(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pj := string(p.File("pack.json").Data); !strings.Contains(pj, `"node": "core.openwop.integration.acme"`) || strings.Count(pj, "core.openwop.integration.acme") != 2 {
		t.Errorf("integration reach:\n%s", pj)
	}
	if got := strings.Join(ConnectionReaches(), ","); got != "mcp,openapi,integration" {
		t.Errorf("reaches %s", got)
	}
	if got := strings.Join(ConnectionAuthKinds(), ","); got != "oauth2,api_key,bearer,basic" {
		t.Errorf("auth kinds %s", got)
	}
	if len(ConnectionCategories()) < 10 || len(ConnectionTransports()) != 2 || len(ConnectionAuthFlows()) != 4 {
		t.Errorf("lists %v %v %v", ConnectionCategories(), ConnectionTransports(), ConnectionAuthFlows())
	}
}

// TestConnectionNotes: the plan's next steps name the placeholder
// addresses left under .example (only the chosen reach's), the credential
// the operator supplies, and how connectors name the provider.
func TestConnectionNotes(t *testing.T) {
	t.Parallel()
	a := ConnectionPackAnswers{}.Defaults()
	a.Name = "vendor.acme.conn"
	p, err := PlanConnectionPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, want := range []string{"(authorization, token, issuer, MCP server)", "register an OAuth client with Acme", `auth.provider "acme"`, `"vendor.acme.conn#acme"`} {
		if !strings.Contains(notes, want) {
			t.Errorf("%s missing from the notes:\n%s", want, notes)
		}
	}
	a.Provider.Auth = AuthAnswers{Kind: "api_key"}
	a.Provider.Reach, a.Provider.OpenAPI, a.Provider.APIHosts = "openapi", "https://api.acme.com/openapi.json", []string{"api.acme.com"}
	p, err = PlanConnectionPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(p.Notes, "\n"); strings.Contains(notes, ".example") || strings.Contains(notes, "OAuth") || !strings.Contains(notes, "credential (api_key)") {
		t.Errorf("an API-key provider with real addresses:\n%s", notes)
	}
}

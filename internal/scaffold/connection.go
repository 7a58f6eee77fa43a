package scaffold

import (
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// KindConnection is the pack.json "kind" of a connection pack.
const KindConnection = kinds.ConnectionName

// connectionPointers maps the answers to pack.json and back.
var connectionPointers = pointerMap(ConnectionPackAnswers{})

func init() {
	k := declKind(KindConnection, 40, "A connection pack (an OAuth or API-key provider that connectors sign in to, no code)",
		"pack/connection-README.md.tmpl", ConnectionPackAnswers{}.Defaults, func(a *ConnectionPackAnswers) *Identity { return &a.Identity }, PlanConnectionPack)
	k.Pointers = connectionPointers
	registerKind(k)
}

// ConnectionPackAnswers describe a new connection pack: a declarative pack
// (no runtime) holding one provider definition (endpoints, scope catalog,
// reach) that a connector's auth.provider resolves against (spec v2
// connection-packs.md, RFC 0095). Connection packs exist only in spec v2.
type ConnectionPackAnswers struct {
	Identity                 // Spec: v2 only, the registry has no v1 connection schema
	Provider ProviderAnswers `json:"provider"`
}

// ProviderAnswers describe the pack's provider.
type ProviderAnswers struct {
	ID          string      `json:"id"` // the bare provider id connectors name, e.g. github
	DisplayName string      `json:"displayName"`
	Category    string      `json:"category"` // ConnectionCategories()
	Vendor      string      `json:"vendor"`   // "" omits it
	DocsURL     string      `json:"docsUrl"`  // "" omits it
	Auth        AuthAnswers `json:"auth"`
	// Reach is how the provider is reached, one of ConnectionReaches():
	// mcp (Server, Transport), openapi (OpenAPI, APIHosts) or integration (Node).
	Reach     string `json:"reach"`
	Server    string `json:"server" doc:"reach/mcp/server/url"`          // mcp: the server's https URL
	Transport string `json:"transport" doc:"reach/mcp/server/transport"` // mcp: ConnectionTransports()
	OpenAPI   string `json:"openapi" doc:"reach/openapi/ref"`            // openapi: URL or in-pack path of the OpenAPI document
	Node      string `json:"node" doc:"reach/integration/node"`          // integration: a core.openwop.integration.* typeId
	// APIHosts are the hosts the credential may be sent to (required for openapi).
	APIHosts []string `json:"apiHosts"`
	// ConsumerNodes are the core node typeIds that use the credential;
	// empty: derived from the reach.
	ConsumerNodes []string `json:"consumerNodes"`
}

// AuthAnswers describe the provider's auth block. Endpoints, scopes,
// issuer, flow, scope model and pkce apply to oauth2 (the wizard asks them
// only for it); for another kind they are not written (Normalize), as the
// reach writes only the chosen reach's members.
type AuthAnswers struct {
	Kind       string              `json:"kind"`                                // ConnectionAuthKinds(): oauth2, api_key, bearer, basic
	Flow       string              `json:"flow" doc:"authFlow"`                 // authFlow: pkce, client_credentials, manual, none ("" omits)
	ScopeModel string              `json:"scopeModel"`                          // groups, coarse, capabilities ("" omits)
	Authorize  string              `json:"authorize" doc:"endpoints/authorize"` // https endpoints ("" omits)
	Token      string              `json:"token" doc:"endpoints/token"`
	Revoke     string              `json:"revoke" doc:"endpoints/revoke"`
	Issuer     string              `json:"issuer"`                   // the authorization server's issuer (RFC 0199; CN001)
	PKCE       string              `json:"pkce"`                     // S256 or unsupported ("" omits: hosts send S256)
	Read       []ScopeGroupAnswers `json:"read" doc:"scopes/read"`   // read scope groups
	Write      []ScopeGroupAnswers `json:"write" doc:"scopes/write"` // write scope groups (a separate re-consent)
}

// ScopeGroupAnswers describe one scope group.
type ScopeGroupAnswers struct {
	Key    string   `json:"key"`
	Label  string   `json:"label"`
	Scopes []string `json:"scopes"` // the provider's raw scope strings
}

// Defaults returns the answers of a new connection pack: an OAuth2 (PKCE)
// provider reached through its MCP server, with read and write scope
// groups and its issuer (placeholders under .example to replace).
func (ConnectionPackAnswers) Defaults() ConnectionPackAnswers {
	a := ConnectionPackAnswers{
		Identity: newIdentity(KindConnection),
		Provider: ProviderAnswers{
			ID: "acme", DisplayName: "Acme", Category: "other",
			Auth:  defaultOAuth(),
			Reach: "mcp", Server: "https://mcp.acme.example/mcp", Transport: "http",
			APIHosts: []string{}, ConsumerNodes: []string{},
		},
	}
	a.Description += " It carries no secret: the operator supplies the OAuth client host-side."
	return a
}

func defaultOAuth() AuthAnswers {
	return AuthAnswers{
		Kind: "oauth2", Flow: "pkce", ScopeModel: "groups",
		Authorize: "https://auth.acme.example/oauth/authorize", Token: "https://auth.acme.example/oauth/token",
		Issuer: "https://auth.acme.example",
		Read:   []ScopeGroupAnswers{{Key: "read", Label: "Read your data", Scopes: []string{"read"}}},
		Write:  []ScopeGroupAnswers{{Key: "write", Label: "Change your data", Scopes: []string{"write"}}},
	}
}

// consumerNodes are the core nodes that use a credential, by reach (the
// registry's github pack for mcp; the schema's openapi.ref description).
var consumerNodes = map[string][]string{
	"mcp":     {"core.openwop.mcp.invoke-tool", "core.openwop.mcp.read-resource"},
	"openapi": {"core.openwop.http.openapi-call"},
}

var (
	connListsOnce sync.Once
	connCats      []string
	connAuthKinds []string
	connFlows     []string
	connReaches   []string
	connTransport []string
)

func loadConnLists() {
	connListsOnce.Do(func() {
		v := orDefault(nil)
		f := func(ptr string) []string { return v.FieldFor(kinds.V2, kinds.ConnectionPack, ptr).Enum }
		connCats = f("/provider/category")
		connAuthKinds = f("/provider/auth/kind")
		connFlows = f("/provider/auth/authFlow")
		connTransport = f("/provider/reach/mcp/server/transport")
		// the reach object's members (exactly one is written): those of
		// the kinds scaffold knows how to write that the schema declares
		for _, name := range []string{"mcp", "openapi", "integration"} {
			if v.FieldFor(kinds.V2, kinds.ConnectionPack, "/provider/reach/"+name).SchemaURL != "" {
				connReaches = append(connReaches, name)
			}
		}
	})
}

// ConnectionCategories lists the provider categories (the schema's enum).
func ConnectionCategories() []string { loadConnLists(); return append([]string(nil), connCats...) }

// ConnectionAuthKinds lists the auth kinds (the schema's enum).
func ConnectionAuthKinds() []string { loadConnLists(); return append([]string(nil), connAuthKinds...) }

// ConnectionAuthFlows lists the auth flows (the schema's enum).
func ConnectionAuthFlows() []string { loadConnLists(); return append([]string(nil), connFlows...) }

// ConnectionReaches lists how a provider can be reached (the members of the
// schema's reach object).
func ConnectionReaches() []string { loadConnLists(); return append([]string(nil), connReaches...) }

// ConnectionTransports lists the MCP transports (the schema's enum).
func ConnectionTransports() []string { loadConnLists(); return append([]string(nil), connTransport...) }

// Normalize fills the engines range and the kind, drops the oauth2
// members from another auth kind, and derives the consumer nodes.
func (a *ConnectionPackAnswers) Normalize() error {
	if s := strings.ToLower(strings.TrimSpace(a.Spec)); s == "v1" || s == "1" {
		fe := fieldErrorf("spec", "connection packs exist only in spec v2: the registry has no v1 connection schema, and a v1 host has no connection packs")
		fe.Hint = "use --spec v2 (the default)"
		return FieldErrors{fe}
	}
	if err := a.normalize(KindConnection); err != nil {
		return err
	}
	if au := &a.Provider.Auth; au.Kind != "oauth2" { // what only OAuth has is not written for another kind
		*au = AuthAnswers{Kind: au.Kind}
	}
	if len(a.Provider.ConsumerNodes) == 0 {
		a.Provider.ConsumerNodes = consumerNodes[a.Provider.Reach]
		if a.Provider.Reach == "integration" && a.Provider.Node != "" {
			a.Provider.ConsumerNodes = []string{a.Provider.Node}
		}
	}
	return nil
}

// Check returns every problem of the answers, as PlanConnectionPack would
// refuse them (nil when the pack can be written). v may be nil.
func (a ConnectionPackAnswers) Check(v *validate.Validator) FieldErrors {
	_, err := PlanConnectionPack(a, v)
	return asFieldErrors(err)
}

// PlanConnectionPack computes the files of a new connection pack:
// pack.json, README.md, LICENSE and .openwopignore, validated in strict
// mode (the CN rules apply). Nothing is written.
func PlanConnectionPack(a ConnectionPackAnswers, v *validate.Validator) (*Plan, error) {
	if err := a.Normalize(); err != nil {
		return nil, err
	}
	doc := connectionPackDoc{packHead: a.head(nil), Provider: a.Provider.doc()}
	p, err := planDeclarative(&a.Identity, v, declarative{kind: KindConnection, hint: "use the answers of the other kind",
		doc: doc, view: a.view(), errs: a.precheck(), fieldOf: connectionPointers.Field})
	if err != nil {
		return nil, err
	}
	p.Notes = a.notes()
	return p, nil
}

// notes are the next steps of a connection pack: addresses still under
// .example to replace, the credential the operator supplies, and how
// connectors name the provider.
func (a *ConnectionPackAnswers) notes() []string {
	pr := a.Provider
	var out, example []string
	reach := map[string][2]string{"mcp": {"MCP server", pr.Server}, "openapi": {"OpenAPI document", pr.OpenAPI}}[pr.Reach] // the reach's own address
	for _, f := range []struct{ name, url string }{{"authorization", pr.Auth.Authorize}, {"token", pr.Auth.Token},
		{"revocation", pr.Auth.Revoke}, {"issuer", pr.Auth.Issuer}, {reach[0], reach[1]}, {"documentation", pr.DocsURL}} {
		if strings.Contains(f.url, ".example/") || strings.HasSuffix(f.url, ".example") {
			example = append(example, f.name)
		}
	}
	if len(example) > 0 {
		out = append(out, "replace the placeholder addresses under .example ("+strings.Join(example, ", ")+") with "+pr.DisplayName+"'s own before publishing")
	}
	if pr.Auth.Kind == "oauth2" {
		out = append(out, "register an OAuth client with "+pr.DisplayName+" for each host that connects: the host's operator gives it the client id and secret (the pack carries no secret)")
	} else {
		out = append(out, "the host's operator supplies the "+pr.DisplayName+" credential ("+pr.Auth.Kind+"): the pack carries no secret")
	}
	return append(out, "connectors sign in with auth.provider \""+pr.ID+"\" (or \""+a.Name+"#"+pr.ID+"\" for this pack's definition)")
}

// precheck refuses what the schema cannot see in the answers.
func (a *ConnectionPackAnswers) precheck() FieldErrors {
	var errs FieldErrors
	pr := a.Provider
	need := map[string][2]string{
		"mcp":         {"server", pr.Server},
		"openapi":     {"openapi", pr.OpenAPI},
		"integration": {"node", pr.Node},
	}
	if n, ok := need[pr.Reach]; !ok {
		fe := fieldErrorf("provider.reach", "reach %q is not one of: %s", pr.Reach, strings.Join(ConnectionReaches(), ", "))
		fe.Hint = "say how hosts reach the provider"
		errs = append(errs, fe)
	} else if n[1] == "" {
		what := map[string]string{"mcp": "its MCP server's address", "openapi": "its OpenAPI document", "integration": "its integration node"}[pr.Reach]
		fe := fieldErrorf("provider."+n[0], "a provider reached by %s needs %s", pr.Reach, what)
		fe.Hint = map[string]string{"mcp": "give the MCP server's https URL", "openapi": "give the OpenAPI document's URL or in-pack path",
			"integration": "give the core.openwop.integration.* node typeId"}[pr.Reach]
		errs = append(errs, fe)
	}
	return errs
}

// doc builds the provider block.
func (pr ProviderAnswers) doc() providerDoc {
	d := providerDoc{ID: pr.ID, DisplayName: pr.DisplayName, Category: pr.Category, Vendor: pr.Vendor,
		ConsumerNodes: pr.ConsumerNodes, DocsURL: pr.DocsURL, APIHosts: pr.APIHosts}
	au := pr.Auth
	d.Auth = authDoc{Kind: au.Kind, AuthFlow: au.Flow, ScopeModel: au.ScopeModel, Issuer: au.Issuer, PKCE: au.PKCE}
	if au.Authorize != "" || au.Token != "" || au.Revoke != "" {
		d.Auth.Endpoints = &endpointsDoc{Authorize: au.Authorize, Token: au.Token, Revoke: au.Revoke}
	}
	if len(au.Read) > 0 || len(au.Write) > 0 {
		d.Auth.Scopes = &scopesDoc{}
		for _, g := range au.Read {
			d.Auth.Scopes.Read = append(d.Auth.Scopes.Read, g.doc())
		}
		for _, g := range au.Write {
			d.Auth.Scopes.Write = append(d.Auth.Scopes.Write, g.doc())
		}
	}
	switch pr.Reach {
	case "mcp":
		d.Reach = obj{{"mcp", obj{{"server", obj{{"url", pr.Server}, {"transport", pr.Transport}}}}}}
	case "openapi":
		d.Reach = obj{{"openapi", obj{{"ref", pr.OpenAPI}}}}
	case "integration":
		d.Reach = obj{{"integration", obj{{"node", pr.Node}}}}
	default:
		d.Reach = obj{}
	}
	return d
}

// missingMember returns the pointer of the member a "missing required
// property" problem asks for (so that it goes to that answer, not to the
// object's), else the problem's pointer.
func missingMember(fe FieldError) string {
	const lead = "missing required property `"
	if rest, ok := strings.CutPrefix(fe.Message, lead); ok {
		if name, _, ok := strings.Cut(rest, "`"); ok && name != "" {
			return jsondoc.Child(fe.Pointer, name)
		}
	}
	return fe.Pointer
}

func (g ScopeGroupAnswers) doc() scopeGroupDoc {
	d := scopeGroupDoc(g)
	if d.Scopes == nil {
		d.Scopes = []string{}
	}
	return d
}

// connectionView is what templates/pack/connection-README.md.tmpl sees.
type connectionView struct {
	declView
	Provider ProviderAnswers
}

func (a *ConnectionPackAnswers) view() connectionView {
	return connectionView{declView: a.Identity.view(), Provider: a.Provider}
}

// The pack.json of a connection pack, as ordered Go values (the registry's
// github pack's key order).

type connectionPackDoc struct {
	packHead
	Provider providerDoc `json:"provider"`
}

type providerDoc struct {
	ID            string   `json:"id"`
	DisplayName   string   `json:"displayName"`
	Category      string   `json:"category"`
	Vendor        string   `json:"vendor,omitempty"`
	Auth          authDoc  `json:"auth"`
	Reach         obj      `json:"reach"`
	ConsumerNodes []string `json:"consumerNodes,omitempty"`
	DocsURL       string   `json:"docsUrl,omitempty"`
	APIHosts      []string `json:"apiHosts,omitempty"`
}

type authDoc struct {
	Kind       string        `json:"kind"`
	AuthFlow   string        `json:"authFlow,omitempty"`
	ScopeModel string        `json:"scopeModel,omitempty"`
	Endpoints  *endpointsDoc `json:"endpoints,omitempty"`
	Scopes     *scopesDoc    `json:"scopes,omitempty"`
	Issuer     string        `json:"issuer,omitempty"`
	PKCE       string        `json:"pkce,omitempty"`
}

type endpointsDoc struct {
	Authorize string `json:"authorize,omitempty"`
	Token     string `json:"token,omitempty"`
	Revoke    string `json:"revoke,omitempty"`
}

type scopesDoc struct {
	Read  []scopeGroupDoc `json:"read,omitempty"`
	Write []scopeGroupDoc `json:"write,omitempty"`
}

type scopeGroupDoc struct {
	Key    string   `json:"key"`
	Label  string   `json:"label"`
	Scopes []string `json:"scopes"`
}

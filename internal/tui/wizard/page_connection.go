package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A connection pack: the pack's identity (the identity page), then its
// provider: who it is, how a connector signs in (the auth kind and, for
// OAuth, the endpoints, issuer and the read and write scope groups, a page
// per group and a list page each), and how hosts reach it (an MCP server,
// an OpenAPI document or a core integration node). The scaffold's
// ConnectionPackAnswers hold the provider; the identity answers are the
// pack's. Fields are checked where the scaffold's pointer map puts them.

const pageConnReach = "conn-reach"

func init() {
	askKind(scaffold.KindConnection, "")
	registerList("connection", func(a *answers) int {
		if a.What != scaffold.KindConnection {
			return 0
		}
		return 1
	})
	oauth := func(a *answers, _ pos) bool { return a.connectionPack().Provider.Auth.Kind == "oauth2" }
	groupPage := func(id, title string, write bool) *page {
		return &page{id: id, title: title, order: declOrder, doc: docPack, each: "connection", when: oauth,
			sub: func(a *answers, _ int) int { return len(*connScopes(a, write)) },
			owns: func(at pos) []string {
				return []string{fmt.Sprintf("provider.auth.%s.%d", scopeSide(write), at.j)}
			},
			groups: func(w *wizard, at pos) []*huh.Group { return connScopeGroups(w, at, write) }}
	}
	groupList := func(id, title, entry string, write bool) *page {
		side := scopeSide(write)
		return &page{id: id, title: title, order: declOrder, doc: docPack, each: "connection", when: oauth,
			owns: paths("provider.auth." + side), groups: listGroups,
			list: entryList(side+" scope group", side+" scope groups", entry, 0, func(a *answers, _ int) *[]scaffold.ScopeGroupAnswers {
				return connScopes(a, write)
			},
				func(gs *[]scaffold.ScopeGroupAnswers) int { return len(*gs) },
				func(gs *[]scaffold.ScopeGroupAnswers, k int) string { return (*gs)[k].Key },
				func(gs *[]scaffold.ScopeGroupAnswers) {
					n := fmt.Sprintf("%s%d", side, len(*gs)+1)
					*gs = append(*gs, scaffold.ScopeGroupAnswers{Key: n, Label: n, Scopes: []string{n}})
				},
				func(gs *[]scaffold.ScopeGroupAnswers, k int) { *gs = removeAt(*gs, k) })}
	}
	register(&page{id: "provider", title: "provider", order: declOrder, doc: docPack, each: "connection",
		owns:   paths("provider.id", "provider.displayName", "provider.category", "provider.vendor", "provider.docsUrl"),
		groups: providerGroups})
	register(&page{id: "conn-auth", title: "how connectors sign in", order: declOrder, doc: docPack, each: "connection",
		owns: paths("provider.auth"), groups: connAuthGroups})
	register(groupPage("read-group", "read scope group", false))
	register(groupList("read-groups", "read scope groups", "read-group", false))
	register(groupPage("write-group", "write scope group", true))
	register(groupList("write-groups", "write scope groups", "write-group", true))
	register(&page{id: pageConnReach, title: "how hosts reach it", order: declOrder, doc: docPack, each: "connection",
		owns: paths("provider.reach", "provider.server", "provider.transport", "provider.openapi", "provider.node",
			"provider.apiHosts", "provider.consumerNodes"), groups: reachGroups})
}

// connectionPack is the answers of a connection pack.
func (a *answers) connectionPack() *scaffold.ConnectionPackAnswers {
	return declaredOf[scaffold.ConnectionPackAnswers](a, scaffold.KindConnection)
}

func scopeSide(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

// connScopes is the read or write scope groups.
func connScopes(a *answers, write bool) *[]scaffold.ScopeGroupAnswers {
	au := &a.connectionPack().Provider.Auth
	if write {
		return &au.Write
	}
	return &au.Read
}

// connText is an input for the connection answer field, checked where the
// scaffold's pointer map puts it in pack.json.
func connText(k ask.Asker) func(key, title string, tv ask.TextValue) *huh.Input {
	return ask.Pointed(k, kinds.ConnectionPack, wizardKinds[scaffold.KindConnection].Pointers.Pointer)
}

// connHelp is the schema's help of a connection answer field.
func connHelp(k ask.Asker, field string) string {
	return k.Help(kinds.ConnectionPack, wizardKinds[scaffold.KindConnection].Pointers.Pointer(field))
}

// connOptional is an optional connection answer (empty leaves it out).
func connOptional(k ask.Asker, field, title string, v *string) *huh.Input {
	return k.Optional(field, title, v, kinds.ConnectionPack, wizardKinds[scaffold.KindConnection].Pointers.Pointer(field)).
		Placeholder("(optional)")
}

// schemaOptions lists the v2 connection schema's enum at ptr, the current
// answer added when it is not one of them.
func schemaOptions(k ask.Asker, ptr, cur string) []huh.Option[string] {
	return huh.NewOptions(ask.WithCurrent(k.V.FieldFor(kinds.V2, kinds.ConnectionPack, ptr).Enum, cur)...)
}

func providerGroups(w *wizard, _ pos) []*huh.Group {
	k, pr := w.k, &w.a.connectionPack().Provider
	text := connText(k)
	return []*huh.Group{w.k.Group(
		text("provider.id", "Provider id", ask.Str{P: &pr.ID, Def: pr.ID}).
			Description("the short name connectors use to sign in to it, e.g. github"),
		text("provider.displayName", "Display name", ask.Str{P: &pr.DisplayName, Def: pr.DisplayName}).
			Description("shown to people when they connect, e.g. GitHub"),
		k.Choose(ask.Choice{Key: "provider.category", Title: "Category",
			Desc: connHelp(k, "provider.category"),
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.ConnectionCategories(), pr.Category)...),
			Acc:  huh.NewPointerAccessor(&pr.Category)}),
		connOptional(k, "provider.vendor", "Vendor", &pr.Vendor),
		connOptional(k, "provider.docsUrl", "Documentation address", &pr.DocsURL),
	)}
}

// connAuthGroups ask the auth kind, then, for OAuth, its flow, endpoints,
// issuer and PKCE (hidden for another kind).
func connAuthGroups(w *wizard, _ pos) []*huh.Group {
	k, au := w.k, &w.a.connectionPack().Provider.Auth
	text := connText(k)
	kind := w.k.Group(k.Choose(ask.Choice{Key: "provider.auth.kind", Title: "How connectors sign in",
		Desc: "oauth2: people sign in at the provider and grant scopes; api_key, bearer, basic: the operator supplies a credential",
		Opts: huh.NewOptions(ask.WithCurrent(scaffold.ConnectionAuthKinds(), au.Kind)...),
		Acc:  huh.NewPointerAccessor(&au.Kind)}))
	endpoints := w.k.Group(
		k.Choose(ask.Choice{Key: "provider.auth.flow", Title: "OAuth flow",
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.ConnectionAuthFlows(), au.Flow)...),
			Acc:  huh.NewPointerAccessor(&au.Flow)}),
		k.Choose(ask.Choice{Key: "provider.auth.scopeModel", Title: "Scope model",
			Desc: "groups: read and write scope groups people consent to; coarse: one read-or-write choice; capabilities: a fixed set granted in the provider's developer portal",
			Opts: schemaOptions(k, "/provider/auth/scopeModel", au.ScopeModel),
			Acc:  huh.NewPointerAccessor(&au.ScopeModel)}),
		text("provider.auth.authorize", "Authorization address", ask.Str{P: &au.Authorize, Def: au.Authorize}).
			Description("the provider's https page where people sign in and consent"),
		text("provider.auth.token", "Token address", ask.Str{P: &au.Token, Def: au.Token}).
			Description("the provider's https endpoint that issues tokens"),
		connOptional(k, "provider.auth.revoke", "Revocation address", &au.Revoke),
	)
	issuer := w.k.Group(
		text("provider.auth.issuer", "Issuer", ask.Str{P: &au.Issuer, Def: au.Issuer}).
			Description("the authorization server's issuer, an https address (hosts need it for a provider reached over MCP)"),
		k.Choose(ask.Choice{Key: "provider.auth.pkce", Title: "PKCE",
			Desc: "S256 unless the provider cannot do PKCE (then hosts refuse it over MCP)",
			Opts: schemaOptions(k, "/provider/auth/pkce", au.PKCE),
			Acc:  huh.NewPointerAccessor(&au.PKCE)}),
	)
	notOAuth := func() bool { return au.Kind != "oauth2" }
	return []*huh.Group{kind, w.hideWhen(endpoints, notOAuth), w.hideWhen(issuer, notOAuth)}
}

// connScopeGroups ask one read or write scope group.
func connScopeGroups(w *wizard, at pos, write bool) []*huh.Group {
	k, g := w.k, &(*connScopes(w.a, write))[at.j]
	key := func(f string) string { return fmt.Sprintf("provider.auth.%s.%d.%s", scopeSide(write), at.j, f) }
	text := connText(k)
	return []*huh.Group{w.k.Group(
		text(key("key"), "Group key", ask.Str{P: &g.Key, Def: g.Key}).Description(k.Fit("a short name for the group, e.g. repo-read", ask.DescInset)),
		text(key("label"), "Label", ask.Str{P: &g.Label, Def: g.Label}).Description(k.Fit("what people are asked to allow, e.g. Read your repositories", ask.DescInset)),
		text(key("scopes"), "Provider scopes", ask.List{P: &g.Scopes, Def: g.Scopes}).
			Description("the provider's own scope strings the group asks for, comma-separated"),
	)}
}

// reachGroups ask how hosts reach the provider, then what that needs.
func reachGroups(w *wizard, _ pos) []*huh.Group {
	k, pr := w.k, &w.a.connectionPack().Provider
	text := connText(k)
	reach := w.k.Group(k.Choose(ask.Choice{Key: "provider.reach", Title: "Reached through",
		Desc: "mcp: its MCP server; openapi: its HTTP API, described by an OpenAPI document; integration: a core integration node",
		Opts: huh.NewOptions(ask.WithCurrent(scaffold.ConnectionReaches(), pr.Reach)...),
		Acc:  huh.NewPointerAccessor(&pr.Reach)}))
	mcp := w.k.Group(
		text("provider.server", "MCP server address", ask.Str{P: &pr.Server, Def: pr.Server}).Description(k.Fit("the server's https address", ask.DescInset)),
		k.Choose(ask.Choice{Key: "provider.transport", Title: "Transport",
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.ConnectionTransports(), pr.Transport)...),
			Acc:  huh.NewPointerAccessor(&pr.Transport)}),
	)
	openapi := w.k.Group(
		text("provider.openapi", "OpenAPI document", ask.Str{P: &pr.OpenAPI, Def: pr.OpenAPI}).
			Description(k.Fit("its https address, or its path in the pack", ask.DescInset)),
	)
	node := w.k.Group(
		text("provider.node", "Integration node", ask.Str{P: &pr.Node, Def: pr.Node}).
			Description(k.Fit("the typeId of the core integration node, e.g. core.openwop.integration.slack", ask.DescInset)),
	)
	return []*huh.Group{reach,
		w.hideWhen(mcp, func() bool { return pr.Reach != "mcp" }),
		w.hideWhen(openapi, func() bool { return pr.Reach != "openapi" }),
		w.hideWhen(node, func() bool { return pr.Reach != "integration" }),
		// asked whatever the reach: required for openapi, and the schema
		// lets any provider name where its credential may go
		w.k.Group(text("provider.apiHosts", "API hosts", ask.List{P: &pr.APIHosts, Def: pr.APIHosts}).
			Description(k.Fit("the hosts the credential may be sent to, comma-separated, e.g. api.acme.com (needed for openapi)", ask.DescInset))),
	}
}

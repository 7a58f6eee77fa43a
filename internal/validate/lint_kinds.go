package validate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
)

// Lint rules for the declarative pack kinds (uniqueness the schemas state
// in prose only) and for every v2 pack manifest (the registry's v2 checks).

func checkCardTypeIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/cards"), "cardTypeId", "cardTypeId",
		"give each card its own cardTypeId: hosts register cards by it")
}

func checkTemplateIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/templates"), "templateId", "templateId",
		"give each form template its own templateId")
}

func checkFormFieldIDsUnique(c *lintCtx) {
	for _, t := range c.items("/templates") {
		c.uniqueStrings(childItems(t, "fields"), "id", "field id",
			"give each field of the template its own id: answers are keyed by it")
	}
}

func checkPromptTemplateIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/prompts"), "templateId", "prompt templateId",
		"give each prompt template its own templateId")
}

func checkArtifactTypeIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/artifactTypes"), "artifactTypeId", "artifactTypeId",
		"give each artifact type its own artifactTypeId")
}

// PK001: the engines range admits protocol major 2: always for a v2
// document; for a v1 pack only with --for-registry, where the registry's
// check-pack-engines-admit-major refuses a source whose range stops at
// major 1 (a v1 version manifest is already published: never).
func checkEnginesAdmit2(c *lintCtx) {
	if c.spec != kinds.V2 && (!c.opts.ForRegistry || c.opts.FrozenV1 || c.kind == kinds.VersionManifest) {
		return
	}
	r := c.doc.Lookup("/engines/openwop")
	if r == nil || r.Kind != jsondoc.String || kinds.AdmitsMajor2(r.Str) {
		return
	}
	// The fix writes the ceiling <3.0.0, keeping a ">=" floor below 3.
	floor := "1.0.0"
	if v := LowestVersion(r.Str); v != "" && strings.HasPrefix(strings.TrimSpace(r.Str), ">=") {
		if major, err := strconv.Atoi(v[:strings.IndexByte(v, '.')]); err == nil && major < 3 {
			floor = v
		}
	}
	fix := setFix(fmt.Sprintf("Write %q", ">="+floor+" <3.0.0"), "/engines/openwop", ">="+floor+" <3.0.0")
	if c.spec != kinds.V2 {
		c.reportFix("/engines/openwop", false, fmt.Sprintf("engines.openwop %q does not admit protocol major 2: the registry's check-pack-engines-admit-major refuses a pack whose range stops at major 1", r.Str),
			`write an explicit ceiling that admits 2, such as ">=1.0.0 <3.0.0" (the pack then reads as v2: see `+"`wopkit migrate`"+`)`, fix)
		return
	}
	c.reportFix("/engines/openwop", false, fmt.Sprintf("engines.openwop %q does not admit protocol major 2: hosts read a missing ceiling as <2.0.0 and the v2 registry refuses the pack", r.Str),
		`write an explicit ceiling that admits 2, such as ">=1.0.0 <3.0.0"`, fix)
}

var firstVersion = lazyre.New(`(\d+)\.(\d+)\.(\d+)`)

// LowestVersion is the first MAJOR.MINOR.PATCH of a range such as "^1.2.0"
// or ">=1.2.0 <2.0.0" (the lowest version those admit; "" for a range
// with no floor or with alternatives).
func LowestVersion(r string) string {
	r = strings.TrimSpace(r)
	if strings.HasPrefix(r, "<") || strings.Contains(r, "||") {
		return ""
	}
	return firstVersion.FindString(r)
}

//go:embed data/declaration-families.json
var declarationJSON []byte

var declaration = sync.OnceValue(func() (d struct {
	Families []struct{ Key, Anchor string }
	Aliases  []PeerAliasRow
	keys     map[string]bool
	deleted  map[string]bool
	aliases  map[string]PeerAliasRow
	list     []string
}) {
	if err := json.Unmarshal(declarationJSON, &d); err != nil {
		panic("validate: embedded declaration-families.json: " + err.Error()) // a build defect
	}
	d.keys, d.deleted, d.aliases = map[string]bool{}, map[string]bool{}, map[string]PeerAliasRow{}
	for _, f := range d.Families {
		if f.Anchor == "deleted" {
			d.deleted[f.Key] = true
			continue
		}
		d.keys[f.Key] = true
		d.list = append(d.list, f.Key)
	}
	for _, r := range d.Aliases {
		if !d.keys[r.Family] {
			panic("validate: embedded alias " + r.Alias + " names the undeclared family " + r.Family) // a build defect
		}
		d.aliases[r.Alias] = r
	}
	sort.Strings(d.list)
	return d
})

// PeerFamily reports whether key is a v2 peer-dependency family (a
// families[].key of spec/v2/declaration.json whose anchor is not deleted).
func PeerFamily(key string) bool { return declaration().keys[key] }

// PeerFamilyDeleted reports whether key is a family spec/v2/declaration.json
// marks deleted: no v2 identifier replaces it.
func PeerFamilyDeleted(key string) bool { return declaration().deleted[key] }

// PeerAliasRow is one row of the overlap alias table (RFC 0177 §B.2): the
// v1 peer-dependency key Alias is the v2 family Family, with Facets going
// to peerDependenciesMeta.<Family>.facets.
type PeerAliasRow struct {
	Alias  string   `json:"alias"`
	Family string   `json:"family"`
	Facets []string `json:"facets,omitempty"`
}

// PeerAlias returns the alias table's row for a v1 peer-dependency key.
func PeerAlias(key string) (PeerAliasRow, bool) {
	r, ok := declaration().aliases[key]
	return r, ok
}

// GuessPeerFamily guesses the family an old-style key meant, for advice
// only: the alias table's family, else the last dotted segment that is a
// family ("openwop.agents.x" → "agents"), else "".
func GuessPeerFamily(key string) string { return familyFor(key) }

// familyFor guesses the family an old-style key meant ("host.agentRuntime",
// "openwop.agents.memoryBackends" → "agents"), or "".
func familyFor(key string) string {
	d := declaration()
	if r, ok := d.aliases[key]; ok {
		return r.Family
	}
	parts := strings.Split(key, ".")
	for i := len(parts) - 1; i >= 0; i-- {
		if d.keys[parts[i]] {
			return parts[i]
		}
	}
	return ""
}

// PK002: peerDependencies keys are declaration families.
func checkPeerFamilies(c *lintCtx) {
	peers := c.doc.Lookup("/peerDependencies")
	if peers == nil || peers.Kind != jsondoc.Object {
		return
	}
	for _, m := range peers.Members {
		if PeerFamily(m.Key) {
			continue
		}
		hint := "use a family key of spec/v2/declaration.json, such as \"aiProviders\", \"agents\" or \"webResearch\"; put facets in peerDependenciesMeta.<family>.facets"
		if f := familyFor(m.Key); f != "" {
			hint = fmt.Sprintf("write the family %q (facets go in peerDependenciesMeta.%s.facets); `wopkit migrate` rewrites v1 keys", f, f)
		}
		c.reportFix(jsondoc.Child("/peerDependencies", m.Key), true,
			fmt.Sprintf("peerDependencies key %q is not a v2 capability family: hosts refuse it (pack_peer_dependency_undefined)", m.Key), hint,
			peerFamilyFix(c.doc, m.Key))
	}
}

// peerFamilyFix renames a peerDependencies key to the family guessed for
// it, with its peerDependenciesMeta entry, or the alias's facets there
// when the family has no entry yet (nil: no family, or it is taken).
func peerFamilyFix(doc *jsondoc.Doc, key string) *Fix {
	fam := familyFor(key)
	if fam == "" || fam == key || doc.Lookup(jsondoc.Child("/peerDependencies", fam)) != nil {
		return nil
	}
	fix := &Fix{Title: fmt.Sprintf("Rename the peer dependency %q to the family %q", key, fam),
		Edits: []Edit{{Pointer: jsondoc.Child("/peerDependencies", key), Rename: fam}}}
	if _, alias := declaration().aliases[key]; !alias {
		fix.choice("the family is a guess from the key's name (the registry's alias table, which wopkit migrate follows, has no row for it)")
	}
	meta := doc.Lookup("/peerDependenciesMeta")
	switch {
	case meta.Get(key) != nil && meta.Get(fam) == nil:
		fix.Edits = append(fix.Edits, Edit{Pointer: jsondoc.Child("/peerDependenciesMeta", key), Rename: fam})
	case meta.Get(fam) == nil:
		if row, ok := PeerAlias(key); ok && len(row.Facets) > 0 {
			if meta == nil {
				fix.Edits = append(fix.Edits, Edit{Pointer: "/peerDependenciesMeta", After: "peerDependencies", Value: map[string]any{fam: map[string]any{"facets": row.Facets}}})
			} else if meta.Kind == jsondoc.Object {
				fix.Edits = append(fix.Edits, Edit{Pointer: jsondoc.Child("/peerDependenciesMeta", fam), Value: map[string]any{"facets": row.Facets}})
			}
		}
	}
	return fix
}

// PK003: the signing block is exactly {keyId, scheme}, in that order.
func checkSigningBlock(c *lintCtx) {
	sg := c.doc.Lookup("/signing")
	if sg == nil || sg.Kind != jsondoc.Object {
		return
	}
	keys := make([]string, len(sg.Members))
	for i, m := range sg.Members {
		keys[i] = m.Key
	}
	if strings.Join(keys, ",") == "keyId,scheme" {
		return
	}
	// The fix keeps both values; without them there is none.
	var fix *Fix
	if key, scheme := sg.Get("keyId"), sg.Get("scheme"); key != nil && scheme != nil && key.Kind == jsondoc.String && scheme.Kind == jsondoc.String {
		// encoding/json writes a map's keys sorted: keyId, then scheme.
		fix = setFix("Write the signing block as {keyId, scheme}", "/signing", map[string]any{"keyId": key.Str, "scheme": scheme.Str})
	}
	c.reportFix("/signing", false, fmt.Sprintf("the v2 signing block must be exactly {keyId, scheme} in that order; it has {%s}", strings.Join(keys, ", ")),
		`write "signing": {"keyId": "<your key id>", "scheme": "ed25519-canonical-json"}, or leave it out of a source pack.json: the build writes it`, fix)
}

// PK004: runtime.entry equals runtime.mcpServer.remotes[0].url (RFC 0203).
func checkMcpEntry(c *lintCtx) {
	url := c.doc.Lookup("/runtime/mcpServer/remotes/0/url")
	if url == nil || url.Kind != jsondoc.String {
		return
	}
	entry := c.doc.Lookup("/runtime/entry")
	if entry.Text() == url.Str {
		return
	}
	ptr := "/runtime/entry"
	if entry == nil {
		ptr = "/runtime"
	}
	c.reportFix(ptr, false, fmt.Sprintf("runtime.entry is %s but runtime.mcpServer.remotes[0].url is %q; RFC 0203 requires them equal", describeValue(entry), url.Str),
		fmt.Sprintf("set runtime.entry to %q", url.Str), setFix(fmt.Sprintf("Set runtime.entry to %q", url.Str), "/runtime/entry", url.Str))
}

// PK005: runtime.mcpServer is in the spec's node schema but not in the
// registry's vendored copy (openwop-registry schemas/v2 @c725049), which
// refuses it today: a warning, an error with --for-registry.
func checkMcpRegistry(c *lintCtx) {
	if c.doc.Lookup("/runtime/mcpServer") == nil {
		return
	}
	c.report("/runtime/mcpServer", true, "runtime.mcpServer (RFC 0203) is in the spec's v2 node schema, but the registry's vendored node schema does not admit it yet; "+c.refusal("its vendored node-pack-manifest.schema.json @c725049"),
		"keep it for hosts that read it, and publish once the registry's schema admits it")
}

// cardPlaceholder is a {{name}} slot of a card's prompt template.
var cardPlaceholder = lazyre.New(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// CD002/CD003/CD004: a card's template slots, placeholderMapping and inputs agree.
func checkCardPlaceholders(c *lintCtx) {
	for _, card := range c.items("/cards") {
		prompt := card.n.Get("prompt")
		tmpl := prompt.Get("template")
		mapping := prompt.Get("placeholderMapping")
		if tmpl == nil || tmpl.Kind != jsondoc.String || mapping == nil || mapping.Kind != jsondoc.Object {
			continue
		}
		used := map[string]bool{}
		for _, m := range cardPlaceholder.FindAllStringSubmatch(tmpl.Str, -1) {
			if used[m[1]] {
				continue
			}
			used[m[1]] = true
			if mapping.Get(m[1]) == nil && c.rule.ID == "CD002" {
				// The fix maps the slot to the card's input of the same id,
				// when it declares one.
				var fix *Fix
				for _, in := range childItems(card, "inputs") {
					if in.n.Get("id").Text() == m[1] {
						fix = setFix(fmt.Sprintf(`Map {{%s}} to "inputs.%s"`, m[1], m[1]), jsondoc.Child(card.ptr()+"/prompt/placeholderMapping", m[1]), "inputs."+m[1])
					}
				}
				c.reportFix(card.ptr()+"/prompt/template", false, fmt.Sprintf("the template uses {{%s}} but placeholderMapping has no %q: the slot stays empty", m[1], m[1]),
					fmt.Sprintf(`add "%s": "inputs.<id>" to prompt.placeholderMapping`, m[1]), fix)
			}
		}
		inputs := map[string]bool{}
		for _, in := range childItems(card, "inputs") {
			if id := in.n.Get("id").Text(); id != "" {
				inputs[id] = true
			}
		}
		for _, m := range mapping.Members {
			ptr := jsondoc.Child(card.ptr()+"/prompt/placeholderMapping", m.Key)
			switch c.rule.ID {
			case "CD003":
				if !used[m.Key] {
					c.reportFix(ptr, true, fmt.Sprintf("placeholderMapping maps %q, which the template never uses as {{%s}}", m.Key, m.Key),
						"use the slot in prompt.template, or remove the mapping", removeFix(fmt.Sprintf("Remove the unused mapping %q", m.Key), ptr).choice("the template may be what lacks the slot"))
				}
			case "CD004":
				in, ok := strings.CutPrefix(m.Value.Text(), "inputs.")
				if ok && !inputs[in] {
					c.report(ptr, false, fmt.Sprintf("placeholderMapping %q reads inputs.%s, but the card declares no input %q", m.Key, in, in),
						fmt.Sprintf("add an input with id %q to the card's inputs, or map the slot to a declared one", in))
				}
			}
		}
	}
}

// CD005: input ids are unique within a card.
func checkCardInputIDsUnique(c *lintCtx) {
	for _, card := range c.items("/cards") {
		c.uniqueStrings(childItems(card, "inputs"), "id", "input id",
			"give each input of the card its own id: placeholderMapping reads inputs by it")
	}
}

// promptVar is a Mustache {{varName}} of a prompt template's text (sections,
// inverted sections and comments start with #, ^, / or ! and are not variables).
var promptVar = lazyre.New(`\{\{\{?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}?\}\}`)

// PR002: a {{varName}} with no variables[] entry ("hosts SHOULD warn at
// install time", prompt-template.schema.json variables).
func checkPromptVarsDeclared(c *lintCtx) {
	for _, p := range c.items("/prompts") {
		text := p.n.Get("text")
		if text == nil || text.Kind != jsondoc.String {
			continue
		}
		declared := map[string]bool{}
		for _, v := range childItems(p, "variables") {
			declared[v.n.Get("name").Text()] = true
		}
		seen := map[string]bool{}
		for _, m := range promptVar.FindAllStringSubmatch(text.Str, -1) {
			if declared[m[1]] || seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			decl := map[string]any{"name": m[1], "type": "string", "required": true}
			c.reportFix(p.ptr()+"/text", false, fmt.Sprintf("{{%s}} has no variables[] entry: hosts treat it as an optional input without a default and warn at install", m[1]),
				fmt.Sprintf(`declare it: "variables": [{"name": %q, "type": "string", "required": true}]`, m[1]),
				&Fix{Title: fmt.Sprintf("Declare %q in variables[]", m[1]), Edits: []Edit{{Pointer: p.ptr() + "/variables", Value: decl, Append: true}}})
		}
	}
}

// PR003: variable names are unique within a prompt template.
func checkPromptVarNamesUnique(c *lintCtx) {
	for _, p := range c.items("/prompts") {
		c.uniqueStrings(childItems(p, "variables"), "name", "variable name",
			"give each variable of the template its own name: bindings are keyed by it")
	}
}

// CN001: a host MUST NOT authorize a reach.mcp + oauth2 provider whose
// manifest omits auth.issuer (connection schema, RFC 0199 §A.4/§B.3).
func checkMcpOAuthIssuer(c *lintCtx) {
	if c.doc.Lookup("/provider/reach/mcp") == nil || c.doc.Lookup("/provider/auth/kind").Text() != "oauth2" {
		return
	}
	if c.doc.Lookup("/provider/auth/issuer") != nil {
		return
	}
	c.report("/provider/auth", false, "the provider is reached as an MCP server with oauth2 but declares no auth.issuer: hosts refuse to authorize it (connection_auth_metadata_mismatch, RFC 0199)",
		`add "issuer": the authorization server's issuer identifier, e.g. "https://auth.example.com"`)
}

// CN002: a host MUST NOT authorize a provider with pkce "unsupported" when
// it is reached as an MCP server (connection schema, RFC 0199 §B.2).
func checkMcpPKCE(c *lintCtx) {
	pkce := c.doc.Lookup("/provider/auth/pkce")
	if c.doc.Lookup("/provider/reach/mcp") == nil || pkce.Text() != "unsupported" {
		return
	}
	c.reportFix("/provider/auth/pkce", false, `pkce "unsupported" on a provider reached as an MCP server: hosts refuse to authorize it (RFC 0199 §B.2)`,
		`remove "pkce" (hosts then send PKCE S256) or set it to "S256"`, setFix(`Set auth.pkce to "S256"`, "/provider/auth/pkce", "S256"))
}

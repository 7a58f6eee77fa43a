package validate

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
)

// at is one value of the document being linted. Its JSON pointer is
// parent, or parent/i for an array item (i >= 0): it is built only when a
// rule reports, so walking the document costs no string building.
type at struct {
	parent string
	i      int
	n      *jsondoc.Node
}

// ptr returns the value's JSON pointer.
func (a at) ptr() string {
	if a.i < 0 {
		return a.parent
	}
	return jsondoc.Index(a.parent, a.i)
}

// itemsOf returns the items of array n at pointer ptr (none when n is not
// an array).
func itemsOf(ptr string, n *jsondoc.Node) []at {
	if n == nil || n.Kind != jsondoc.Array || len(n.Items) == 0 {
		return nil
	}
	out := make([]at, len(n.Items))
	for i, it := range n.Items {
		out[i] = at{ptr, i, it}
	}
	return out
}

// items returns the items of the array at ptr (none when it is not an array).
func (c *lintCtx) items(ptr string) []at { return itemsOf(ptr, c.doc.Lookup(ptr)) }

// childItems returns the items of the array member key of a (none when
// absent), without looking a's pointer up again.
func childItems(a at, key string) []at {
	n := a.n.Get(key)
	if n == nil {
		return nil
	}
	return itemsOf(jsondoc.Child(a.ptr(), key), n)
}

// agents returns the agent manifests of the document: the items of a pack's
// agents[], or the document itself when it is a standalone agent.
func (c *lintCtx) agents() []at {
	if c.kind == kinds.Agent {
		return []at{{"", -1, c.doc.Root}}
	}
	var out []at
	for _, a := range c.items("/agents") {
		if a.n.Kind == jsondoc.Object {
			out = append(out, a)
		}
	}
	return out
}

// lineOf returns the line of the value at ptr, for messages that point back
// at an earlier occurrence.
func (c *lintCtx) lineOf(ptr string) int {
	l, _ := c.doc.Position(c.doc.Locate(ptr, false))
	return l
}

// quoteList renders up to max names as "a", "b", ... for hints.
func quoteList(names []string, max int) string {
	q := make([]string, 0, max+1)
	for i, n := range names {
		if i == max {
			q = append(q, fmt.Sprintf("and %d more", len(names)-max))
			break
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}

// uniqueStrings reports every repeat of the string member key among items,
// naming the first occurrence. what names the field in messages.
func (c *lintCtx) uniqueStrings(list []at, key, what, hint string) {
	seen := make(map[string]at, len(list))
	for _, it := range list {
		v := it.n.Get(key)
		if v == nil || v.Kind != jsondoc.String {
			continue
		}
		if first, dup := seen[v.Str]; dup {
			fp := jsondoc.Child(first.ptr(), key)
			c.report(jsondoc.Child(it.ptr(), key), false, fmt.Sprintf("%s %q is already used at %s (line %d)", what, v.Str, fp, c.lineOf(fp)), hint)
			continue
		}
		seen[v.Str] = it
	}
}

func checkTypeIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/nodes"), "typeId", "node typeId",
		"give each node its own typeId, or remove the duplicate node")
}

func checkAgentIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/agents"), "agentId", "agentId",
		"give each agent its own agentId, or remove the duplicate agent")
}

// nodeTypeIDs returns the set and the sorted list of nodes[].typeId.
func (c *lintCtx) nodeTypeIDs() (map[string]bool, []string) {
	set := map[string]bool{}
	var list []string
	for _, n := range c.items("/nodes") {
		if id := n.n.Get("typeId").Text(); id != "" && !set[id] {
			set[id] = true
			list = append(list, id)
		}
	}
	sort.Strings(list)
	return set, list
}

func checkConnectorResolves(c *lintCtx) {
	conn := c.doc.Lookup("/connector")
	if conn == nil {
		return
	}
	set, list := c.nodeTypeIDs()
	hint := func(id string) string {
		if len(list) == 0 {
			return fmt.Sprintf("add a node with typeId %q to nodes[]", id)
		}
		return fmt.Sprintf("add a node with typeId %q to nodes[], or use one of %s", id, quoteList(list, 5))
	}
	for _, a := range c.items("/connector/actions") {
		v := a.n.Get("typeId")
		if v == nil || v.Kind != jsondoc.String || set[v.Str] {
			continue
		}
		c.report(a.ptr()+"/typeId", false, fmt.Sprintf("connector action typeId %q names no node of this pack (connector_action_unresolved)", v.Str), hint(v.Str))
	}
	for _, t := range c.items("/connector/triggers") {
		if t.n.Kind != jsondoc.String || set[t.n.Str] {
			continue
		}
		c.report(t.ptr(), false, fmt.Sprintf("connector trigger %q names no node of this pack (connector_action_unresolved)", t.n.Str), hint(t.n.Str))
	}
}

func checkAgentPrefix(c *lintCtx) {
	name := c.doc.Root.Get("name").Text()
	if name == "" {
		return
	}
	for _, a := range c.agents() {
		id := a.n.Get("agentId").Text()
		if id == "" || strings.HasPrefix(id, name+".") && len(id) > len(name)+1 {
			continue
		}
		suffix := id[strings.LastIndexByte(id, '.')+1:]
		if suffix == "" {
			suffix = "default"
		}
		c.reportFix(a.ptr()+"/agentId", false,
			fmt.Sprintf("agentId %q does not start with the pack name %q followed by a dot; registries refuse the pack (RFC 0003)", id, name),
			fmt.Sprintf("rename the agent to %q", name+"."+suffix),
			setFix(fmt.Sprintf("Rename the agent to %q", name+"."+suffix), a.ptr()+"/agentId", name+"."+suffix).choice("renaming an agent changes the id its users name; the suffix is a guess"))
	}
}

func checkAgentOnlyRemote(c *lintCtx) {
	if len(c.agents()) == 0 || len(c.items("/nodes")) > 0 {
		return
	}
	lang := c.doc.Lookup("/runtime/language")
	if lang.Text() == "remote" {
		return
	}
	ptr := "/runtime/language"
	if lang == nil {
		ptr = "/runtime"
		if c.doc.Lookup(ptr) == nil {
			return // the schema reports the missing runtime
		}
	}
	c.reportFix(ptr, false, fmt.Sprintf("the pack ships agents and no nodes, but runtime.language is %s, not \"remote\"", describeValue(lang)),
		`agents are interpreted by the host: set "runtime": {"language": "remote", "entry": "pack.json"}`,
		setFix(`Set "runtime": {"language": "remote", "entry": "pack.json"}`, "/runtime", map[string]any{"language": "remote", "entry": "pack.json"}))
}

// describeValue renders a JSON value briefly for messages.
func describeValue(n *jsondoc.Node) string {
	switch {
	case n == nil:
		return "missing"
	case n.Kind == jsondoc.String:
		return fmt.Sprintf("%q", n.Str)
	}
	return n.Kind.String()
}

func checkSecretProvider(c *lintCtx) {
	for _, node := range c.items("/nodes") {
		for _, s := range childItems(node, "requiresSecrets") {
			kind := s.n.Get("kind").Text()
			prov := s.n.Get("provider")
			id := s.n.Get("id").Text()
			switch {
			case kind == "ai-provider" && prov == nil:
				c.report(s.ptr(), false, fmt.Sprintf("secret %q has kind \"ai-provider\" but no provider", id),
					`add "provider": the AI provider id the host resolves the key for, such as "anthropic" or "openai"`)
			case kind != "" && kind != "ai-provider" && prov != nil:
				c.reportFix(s.ptr()+"/provider", true, fmt.Sprintf("secret %q has a provider but its kind is %q; provider applies only to \"ai-provider\" secrets", id, kind),
					`remove "provider", or set "kind": "ai-provider" if this is an AI provider key`, removeFix(`Remove "provider"`, s.ptr()+"/provider").choice(`the secret's kind may be what is wrong ("ai-provider")`))
			}
		}
	}
}

func checkNameScope(c *lintCtx) {
	name := c.doc.Root.Get("name").Text()
	scope, _, _ := strings.Cut(name, ".")
	switch {
	case scope == "core":
		c.report("/name", false, fmt.Sprintf("pack name %q uses the core.* scope, which is reserved to the OpenWOP working group", name),
			"publish under vendor.<org>.* or community.<author>.* unless the working group owns this pack")
	case (scope == "private" || scope == "local") && c.opts.ForRegistry:
		c.report("/name", false, fmt.Sprintf("pack name %q uses the %s.* scope, which is never published to a registry", name, scope),
			"rename the pack to vendor.<org>.* or community.<author>.* before publishing")
	}
}

// semverPattern is the node pack schema's pattern for version: the schema
// reports versions that miss it, this rule the finer SemVer violations.
var semverPattern = lazyre.New(`^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)

// rangeCache remembers the verdict on the first semver ranges seen: the
// editor re-lints the same few ranges on every keystroke.
var (
	rangeCache  sync.Map // range → error (nil when it parses)
	rangeCached atomic.Int32
)

// parseRange checks an npm-style semver range.
func parseRange(s string) error {
	if e, ok := rangeCache.Load(s); ok {
		if e == nil {
			return nil
		}
		return e.(error)
	}
	_, err := semver.NewConstraint(s)
	if rangeCached.Add(1) <= 1024 {
		rangeCache.Store(s, err)
	}
	return err
}

func checkVersions(c *lintCtx) {
	if r := c.doc.Lookup("/engines/openwop"); r != nil && r.Kind == jsondoc.String {
		if err := parseRange(r.Str); err != nil {
			c.report("/engines/openwop", false, fmt.Sprintf("engines.openwop %q is not a semver range: %v", r.Str, err),
				`write an npm-style range such as ">=1.0.0 <2.0.0" or "^1.1"`)
		}
	}
	if v := c.doc.Lookup("/version"); v != nil && v.Kind == jsondoc.String && semverPattern.MatchString(v.Str) {
		if _, err := semver.StrictNewVersion(v.Str); err != nil {
			c.report("/version", false, fmt.Sprintf("version %q is not SemVer 2.0.0: %v", v.Str, err), "write MAJOR.MINOR.PATCH without leading zeros, such as 1.0.0")
		}
	}
	for _, n := range c.items("/nodes") {
		v := n.n.Get("version")
		if v == nil || v.Kind != jsondoc.String {
			continue
		}
		if _, err := semver.StrictNewVersion(v.Str); err != nil {
			c.report(n.ptr()+"/version", false, fmt.Sprintf("node version %q is not SemVer 2.0.0: %v", v.Str, err),
				"write MAJOR.MINOR.PATCH without leading zeros, such as 1.0.0")
		}
	}
}

func checkDependencyRanges(c *lintCtx) {
	deps := c.doc.Lookup("/dependencies")
	if deps == nil || deps.Kind != jsondoc.Object {
		return
	}
	for _, m := range deps.Members {
		if m.Value.Kind != jsondoc.String {
			continue
		}
		if err := parseRange(m.Value.Str); err != nil {
			c.report(jsondoc.Child("/dependencies", m.Key), false, fmt.Sprintf("dependency %q has range %q, which is not a semver range: %v", m.Key, m.Value.Str, err),
				`write an npm-style range such as "^1.2.0" or ">=1.0.0 <2.0.0"`)
		}
	}
}

func checkPeerDeps(c *lintCtx) {
	peers := c.doc.Lookup("/peerDependencies")
	if peers != nil && peers.Kind == jsondoc.Object {
		for _, m := range peers.Members {
			if m.Value.Kind == jsondoc.String && strings.TrimSpace(m.Value.Str) == "" {
				c.reportFix(jsondoc.Child("/peerDependencies", m.Key), false, fmt.Sprintf("peerDependencies %q has an empty value", m.Key),
					`say what the pack needs from the host, such as "supported"`,
					setFix(fmt.Sprintf(`Write "supported" for %q`, m.Key), jsondoc.Child("/peerDependencies", m.Key), "supported"))
			}
		}
	}
	meta := c.doc.Lookup("/peerDependenciesMeta")
	if meta == nil || meta.Kind != jsondoc.Object {
		return
	}
	for _, m := range meta.Members {
		if peers.Get(m.Key) != nil {
			continue
		}
		c.reportFix(jsondoc.Child("/peerDependenciesMeta", m.Key), true, fmt.Sprintf("peerDependenciesMeta names %q, which is not in peerDependencies", m.Key),
			fmt.Sprintf("add %q to peerDependencies, or remove its peerDependenciesMeta entry", m.Key),
			removeFix(fmt.Sprintf("Remove the peerDependenciesMeta entry %q", m.Key), jsondoc.Child("/peerDependenciesMeta", m.Key)).choice("the peer it describes may be what is missing"))
	}
}

// toolRefPattern is the <scope>:<tool-id> form of tool references: scope
// openwop, mcp, or a dotted <vendor>.<host>; the tool id may use "*"
// wildcards ("mcp:github/*").
var toolRefPattern = lazyre.New(`^(openwop|mcp|[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+):([A-Za-z0-9_][A-Za-z0-9._/@:+*-]*|\*)$`)

// toolRefHint explains the tool reference form.
var toolRefHint = "write " + ToolRefForm + `, such as "` + strings.Join(ToolRefExamples[:2], `", "`) + `" or "` + ToolRefExamples[2] + `"`

// ToolRefForm is the form of a tool reference in words, with examples that
// ToolRef accepts (the wizard's help says it; a test holds them to it).
const ToolRefForm = "<scope>:<tool-id>"

// ToolRefExamples are tool references the check accepts, as its hint names them.
var ToolRefExamples = []string{"openwop:core.openwop.http.fetch", "mcp:github/create_issue", "acme.example:search"}

// ToolRef says whether s is of the form <scope>:<tool-id>, as the
// toolAllowlist rule checks it.
func ToolRef(s string) bool { return toolRefPattern.MatchString(s) }

func checkToolAllowlist(c *lintCtx) {
	for _, a := range c.agents() {
		for _, t := range childItems(a, "toolAllowlist") {
			if t.n.Kind == jsondoc.String && t.n.Str != "" && !toolRefPattern.MatchString(t.n.Str) {
				c.report(t.ptr(), false, fmt.Sprintf("toolAllowlist entry %q is not of the form <scope>:<tool-id>", t.n.Str), toolRefHint)
			}
		}
	}
}

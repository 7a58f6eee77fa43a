package validate

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// Lint rules for workflow-chain packs (spec v2 core/workflow-chain-packs.md,
// RFC 0013/0133/0177; the registry's check-pack-chain-params-declared.mjs).

func checkChainIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/chains"), "chainId", "chainId",
		"give each chain its own chainId: hosts register chains by it")
}

func checkChainNodeIDsUnique(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		c.uniqueStrings(childItems(at{ch.ptr() + "/dag", -1, ch.n.Get("dag")}, "nodes"), "id", "chain node id",
			"give each node of the chain's dag its own id: edges name nodes by it")
	}
}

// dagNodes returns the chain's dag node ids, the sorted list, and the dag.
func dagNodes(ch at) (map[string]bool, []string, at) {
	dag := at{ch.ptr() + "/dag", -1, ch.n.Get("dag")}
	ids := map[string]bool{}
	var list []string
	for _, n := range childItems(dag, "nodes") {
		if id := n.n.Get("id"); id != nil && id.Kind == jsondoc.String && !ids[id.Str] {
			ids[id.Str] = true
			list = append(list, id.Str)
		}
	}
	sort.Strings(list)
	return ids, list, dag
}

// edgeNode resolves an edge endpoint ("nodeId" or "nodeId.port") to a
// declared node id; "" when it names none.
func edgeNode(ids map[string]bool, end string) string {
	if ids[end] {
		return end
	}
	for i := strings.LastIndexByte(end, '.'); i > 0; i = strings.LastIndexByte(end[:i], '.') {
		if ids[end[:i]] {
			return end[:i]
		}
	}
	return ""
}

func checkChainEdges(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		ids, list, dag := dagNodes(ch)
		if dag.n == nil {
			continue
		}
		for _, e := range childItems(dag, "edges") {
			for _, end := range []string{"from", "to"} {
				v := e.n.Get(end)
				if v == nil || v.Kind != jsondoc.String || edgeNode(ids, v.Str) != "" {
					continue
				}
				hint := "declare the node in dag.nodes[], or fix the edge"
				if len(list) > 0 {
					hint = fmt.Sprintf("use one of %s (optionally with .port)", quoteList(list, 5))
				}
				c.report(jsondoc.Child(e.ptr(), end), false, fmt.Sprintf("edge %s %q names no node of this chain's dag", end, v.Str), hint)
			}
		}
	}
}

func checkChainAcyclic(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		ids, _, dag := dagNodes(ch)
		if dag.n == nil {
			continue
		}
		next := map[string][]string{}
		edgeAt := map[[2]string]string{}
		for _, e := range childItems(dag, "edges") {
			from, to := edgeNode(ids, e.n.Get("from").Text()), edgeNode(ids, e.n.Get("to").Text())
			if from == "" || to == "" {
				continue
			}
			next[from] = append(next[from], to)
			if _, ok := edgeAt[[2]string{from, to}]; !ok {
				edgeAt[[2]string{from, to}] = e.ptr()
			}
		}
		if cyc := findCycle(next); cyc != nil {
			ptr := edgeAt[[2]string{cyc[len(cyc)-2], cyc[len(cyc)-1]}]
			c.report(ptr, false, fmt.Sprintf("the chain's dag has a cycle: %s", strings.Join(cyc, " → ")),
				"a chain fragment is a DAG: remove one edge of the cycle (loops belong in a loop node)")
		}
	}
}

// findCycle returns one cycle of the graph as a path whose last element
// equals its first, or nil. Nodes are visited in sorted order so the
// report is stable.
func findCycle(next map[string][]string) []string {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(n string) []string
	visit = func(n string) []string {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range next[n] {
			switch color[m] {
			case grey:
				for i, s := range stack {
					if s == m {
						return append(append([]string(nil), stack[i:]...), m)
					}
				}
			case white:
				if cyc := visit(m); cyc != nil {
					return cyc
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return nil
	}
	keys := make([]string, 0, len(next))
	for k := range next {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if color[k] == white {
			if cyc := visit(k); cyc != nil {
				return cyc
			}
		}
	}
	return nil
}

// paramRef is the registry's placeholder grammar (check-pack-chain-params-declared.mjs).
var paramRef = lazyre.New(`\{\{params\.([A-Za-z0-9_]+)\}\}`)

// paramUse is one {{params.x}} in a chain: the name and where it is.
type paramUse struct{ name, ptr string }

func paramUses(ptr string, n *jsondoc.Node, out []paramUse) []paramUse {
	switch n.Kind {
	case jsondoc.String:
		for _, m := range paramRef.FindAllStringSubmatch(n.Str, -1) {
			out = append(out, paramUse{m[1], ptr})
		}
	case jsondoc.Object:
		for _, m := range n.Members {
			if strings.Contains(m.Key, "{{params.") {
				for _, k := range paramRef.FindAllStringSubmatch(m.Key, -1) {
					out = append(out, paramUse{k[1], jsondoc.Child(ptr, m.Key)})
				}
			}
			out = paramUses(jsondoc.Child(ptr, m.Key), m.Value, out)
		}
	case jsondoc.Array:
		for i, it := range n.Items {
			out = paramUses(jsondoc.Index(ptr, i), it, out)
		}
	}
	return out
}

func declaredParams(ch at) (map[string]bool, []string) {
	set := map[string]bool{}
	var list []string
	if props := ch.n.Get("parameters").Get("properties"); props != nil && props.Kind == jsondoc.Object {
		for _, m := range props.Members {
			set[m.Key] = true
			list = append(list, m.Key)
		}
	}
	sort.Strings(list)
	return set, list
}

func checkChainParamsDeclared(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		if ch.n.Kind != jsondoc.Object {
			continue
		}
		declared, list := declaredParams(ch)
		reported := map[string]bool{}
		uses := paramUses(ch.ptr(), ch.n, nil)
		for _, u := range uses {
			if declared[u.name] || reported[u.name] {
				continue
			}
			reported[u.name] = true
			hint := fmt.Sprintf("declare %q in the chain's parameters.properties (and in required when the chain cannot run without it)", u.name)
			if len(list) > 0 {
				hint += fmt.Sprintf("; declared: %s", quoteList(list, 5))
			}
			c.reportFix(u.ptr, false, fmt.Sprintf("{{params.%s}} is used but the chain declares no parameter %q: it resolves to nothing", u.name, u.name), hint,
				declareParamsFix(ch, declared, uses, u.ptr))
		}
	}
}

// declareParamsFix declares, as strings, every parameter the value at ptr
// uses that the chain ch does not declare.
func declareParamsFix(ch at, declared map[string]bool, uses []paramUse, ptr string) *Fix {
	var names []string
	for _, u := range uses {
		if u.ptr == ptr && !declared[u.name] && !slices.Contains(names, u.name) {
			names = append(names, u.name)
		}
	}
	fix := &Fix{}
	hasParams := ch.n.Get("parameters") != nil
	for i, n := range names {
		if i == 0 && !hasParams {
			fix.Edits = append(fix.Edits, Edit{Pointer: ch.ptr() + "/parameters", Value: map[string]any{"type": "object", "properties": map[string]any{n: map[string]any{"type": "string"}}}})
			continue
		}
		fix.Edits = append(fix.Edits, Edit{Pointer: ch.ptr() + "/parameters/properties" + jsondoc.Pointer(n), Value: map[string]any{"type": "string"}})
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	fix.Title = "Declare parameter " + strings.Join(quoted, ", ") + " in parameters.properties"
	return fix
}

func checkChainParamsUsed(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		if ch.n.Kind != jsondoc.Object {
			continue
		}
		used := map[string]bool{}
		for _, u := range paramUses(ch.ptr(), ch.n, nil) {
			used[u.name] = true
		}
		props := ch.n.Get("parameters").Get("properties")
		if props == nil || props.Kind != jsondoc.Object {
			continue
		}
		for _, m := range props.Members {
			if !used[m.Key] {
				// The fix removes its parameters.required entries (last
				// first, so that the indexes hold), then the declaration.
				ptr := jsondoc.Child(ch.ptr()+"/parameters/properties", m.Key)
				fix := &Fix{Title: fmt.Sprintf("Remove the unused parameter %q", m.Key)}
				var req []*jsondoc.Node
				if r := ch.n.Get("parameters").Get("required"); r != nil && r.Kind == jsondoc.Array {
					req = r.Items
				}
				for i := len(req) - 1; i >= 0; i-- {
					if it := req[i]; it.Kind == jsondoc.String && it.Str == m.Key {
						fix.Edits = append(fix.Edits, Edit{Pointer: ch.ptr() + "/parameters/required/" + strconv.Itoa(i), Remove: true})
					}
				}
				fix.Edits = append(fix.Edits, Edit{Pointer: ptr, Remove: true})
				c.reportFix(ptr, true,
					fmt.Sprintf("parameter %q is declared but no {{params.%s}} uses it", m.Key, m.Key),
					"use it in a node's config or inputs, or remove the declaration", fix.choice("a step may be what lacks the parameter"))
			}
		}
	}
}

// chainTypeID is the <pack>.<node> form of a chain step's typeId, with an
// optional exact pin @MAJOR.MINOR.PATCH (RFC 0177 §E.1).
var (
	chainTypeID = lazyre.New(`^[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`)
	exactPin    = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`)
)

func checkChainTypeIDs(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		_, _, dag := dagNodes(ch)
		if dag.n == nil {
			continue
		}
		for _, n := range childItems(dag, "nodes") {
			t := n.n.Get("typeId")
			if t == nil || t.Kind != jsondoc.String || t.Str == "" {
				continue
			}
			id, pin, pinned := strings.Cut(t.Str, "@")
			ptr := n.ptr() + "/typeId"
			switch {
			case !chainTypeID.MatchString(id):
				c.report(ptr, false, fmt.Sprintf("node typeId %q is not of the form <pack>.<node>", id),
					`name the node type with its pack's name and the node's id, such as "core.ai.callPrompt" or "vendor.acme.tools.echo"`)
			case pinned && !exactPin.MatchString(pin):
				c.report(ptr, false, fmt.Sprintf("node typeId %q pins %q, which is not an exact version", t.Str, pin),
					"a chain reference pins one exact version @MAJOR.MINOR.PATCH (RFC 0177 §E.1): hosts refuse ranges at register")
			}
		}
	}
}

// WC010: a v2 chain's node reference carries its exact pin (RFC 0177
// §E.1: the host refuses an unpinned reference at register). A pin that is
// not exact is WC007's (and the schema's) to refuse.
func checkChainTypeIDsPinned(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		_, _, dag := dagNodes(ch)
		for _, n := range childItems(dag, "nodes") {
			t := n.n.Get("typeId")
			if t == nil || t.Kind != jsondoc.String || strings.Contains(t.Str, "@") || !chainTypeID.MatchString(t.Str) {
				continue
			}
			c.reportFix(n.ptr()+"/typeId", true, fmt.Sprintf("node typeId %q is not pinned: a v2 host refuses an unpinned chain reference at register", t.Str),
				fmt.Sprintf("pin the exact version of the node the chain was written against, such as %q (RFC 0177 §E.1: @MAJOR.MINOR.PATCH, never a range)", t.Str+"@1.0.0"),
				pinFix(c.doc.Root.Get("dependencies"), n.ptr()+"/typeId", t.Str))
		}
	}
}

// pinFix pins typeID to the lowest version that the range of the
// dependency providing it (the dependency whose name prefixes it) admits:
// the version the chain was written against (nil: no such dependency).
func pinFix(deps *jsondoc.Node, ptr, typeID string) *Fix {
	if deps == nil || deps.Kind != jsondoc.Object {
		return nil
	}
	for _, m := range deps.Members {
		if !strings.HasPrefix(typeID, m.Key+".") {
			continue
		}
		if v := LowestVersion(m.Value.Text()); v != "" {
			return setFix(fmt.Sprintf("Pin %s@%s", typeID, v), ptr, typeID+"@"+v)
		}
	}
	return nil
}

func checkSubChains(c *lintCtx) {
	chainIDs := map[string]bool{}
	for _, ch := range c.items("/chains") {
		if id := ch.n.Get("chainId").Text(); id != "" {
			chainIDs[id] = true
		}
	}
	for _, ch := range c.items("/chains") {
		refs := map[string]bool{}
		for _, s := range childItems(ch, "subChains") {
			ref := s.n.Get("ref")
			switch {
			case ref == nil:
			case ref.Kind == jsondoc.String:
				refs[ref.Str] = true
				if !chainIDs[ref.Str] {
					c.report(s.ptr()+"/ref", false, fmt.Sprintf("sub-chain ref %q names no chainId of this pack (sub_chain_unresolved)", ref.Str),
						"name a sibling chain's chainId, or use the object form {packName, chainId, version} for a chain of another pack")
				}
			case ref.Kind == jsondoc.Object:
				refs[ref.Get("chainId").Text()] = true
			}
		}
		_, _, dag := dagNodes(ch)
		for _, n := range childItems(dag, "nodes") {
			r := n.n.Get("config").Get("subChainRef")
			if r == nil || r.Kind != jsondoc.String || refs[r.Str] {
				continue
			}
			c.report(n.ptr()+"/config/subChainRef", false, fmt.Sprintf("config.subChainRef %q is not declared in the chain's subChains[] (sub_chain_unresolved)", r.Str),
				fmt.Sprintf("add {\"ref\": %q} to the chain's subChains", r.Str))
		}
	}
}

// WC009: a dag of more than one node declares its edges (the schema's
// description: "Required when nodes.length > 1").
func checkChainEdgesPresent(c *lintCtx) {
	for _, ch := range c.items("/chains") {
		_, _, dag := dagNodes(ch)
		if dag.n == nil || dag.n.Get("edges") != nil {
			continue
		}
		if n := dag.n.Get("nodes"); n != nil && n.Kind == jsondoc.Array && len(n.Items) > 1 {
			c.report(dag.ptr(), false, fmt.Sprintf("the chain's dag has %d nodes and no edges", len(n.Items)),
				`add "edges": [{"from": "<node id>", "to": "<node id>"}, ...]: a fragment of more than one node says how they connect`)
		}
	}
}

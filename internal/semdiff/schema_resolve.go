package semdiff

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
)

// The work budget of one comparison (both packs, every schema): each
// pair of schemas compared, each value read to tell whether two are the
// same and each change found spends from it. Past it the comparison
// stops with "could not prove compatible: the schemas are too large to
// compare". BenchmarkQuadratic measures what the budget costs at most.
const (
	workBudget = 4_000_000
	maxChanges = 20_000
)

// spend takes n steps from the budget and reports whether it is spent.
func (d *differ) spend(n int) bool {
	if d.over {
		return true
	}
	d.steps += int64(n)
	if d.steps > d.budget || len(d.res.Changes) > maxChanges {
		d.over = true
	}
	return d.over
}

// reach is where a reference leads.
type reach int

const (
	inPack     reach = iota + 1 // a schema of the pack
	outside                     // an absolute URL no file of the pack is (the node's ptr holds the URL)
	unresolved                  // nothing: a file, $id, $anchor or pointer the pack does not hold
)

// refIndex is where a pack's references lead: every schema resource (a
// file, a schema with an $id) by its absolute URI, and every $anchor and
// $dynamicAnchor by URI#name.
type refIndex struct {
	resources map[string]loc
	anchors   map[string]loc
	// rootBase is each file's base URI at its root; nested marks the
	// files with an $id below the root (their base changes inside).
	rootBase map[string]*url.URL
	nested   map[string]bool
}

func fileURI(rel string) *url.URL {
	return &url.URL{Scheme: "file", Path: "/pack/" + rel}
}

// index builds (once) the pack's reference index.
func (p *Pack) index() *refIndex {
	if p.refs != nil {
		return p.refs
	}
	ix := &refIndex{resources: map[string]loc{}, anchors: map[string]loc{}, rootBase: map[string]*url.URL{}, nested: map[string]bool{}}
	names := make([]string, 0, len(p.Files))
	for name := range p.Files {
		if strings.HasSuffix(name, ".json") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		doc := p.JSON(name)
		if doc == nil {
			continue
		}
		u := fileURI(name)
		ix.add(ix.resources, u.String(), loc{name, ""})
		ix.rootBase[name] = u
		if m, ok := doc.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok {
				if b, err := u.Parse(id); err == nil {
					b.Fragment, b.RawFragment = "", ""
					ix.rootBase[name] = b
				}
			}
		}
		ix.walk(doc, name, "", u)
	}
	p.refs = ix
	return ix
}

func (ix *refIndex) add(m map[string]loc, k string, l loc) {
	if _, dup := m[k]; !dup {
		m[k] = l
	}
}

// single, lists and maps are the keywords that hold subschemas: one, a
// list of them, an object of them (draft 2020-12 and draft-07).
var (
	singleSub = map[string]bool{"not": true, "if": true, "then": true, "else": true, "items": true, "contains": true,
		"additionalProperties": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true,
		"additionalItems": true, "contentSchema": true}
	listSub = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	mapSub  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentSchemas": true, "dependencies": true}
)

// walk records the resources and anchors of the schema v at ptr in file,
// read with the base URI base.
func (ix *refIndex) walk(v any, file, ptr string, base *url.URL) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if id, ok := m["$id"].(string); ok {
		if u, err := base.Parse(id); err == nil {
			u.Fragment, u.RawFragment = "", ""
			base = u
			ix.add(ix.resources, u.String(), loc{file, ptr})
			if ptr != "" {
				ix.nested[file] = true
			}
		}
	}
	for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := m[kw].(string); ok {
			ix.add(ix.anchors, base.String()+"#"+a, loc{file, ptr})
		}
	}
	for k, sub := range m {
		at := ptr + "/" + escape(k)
		switch list, isList := sub.([]any); {
		case listSub[k] && isList:
			for i, s := range list {
				ix.walk(s, file, at+"/"+itoa(i), base)
			}
		case singleSub[k]:
			ix.walk(sub, file, at, base)
		case mapSub[k]:
			subs, _ := sub.(map[string]any)
			for kk, s := range subs {
				ix.walk(s, file, at+"/"+escape(kk), base)
			}
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// baseOf is the base URI of the schema at place l of p: the file's URI,
// changed by every $id on the way down to it (its own included).
func (p *Pack) baseOf(l loc) *url.URL {
	ix := p.index()
	if !ix.nested[l.file] {
		return ix.rootBase[l.file]
	}
	base := fileURI(l.file)
	v := p.JSON(l.file)
	toks := []string{}
	if l.ptr != "" {
		toks = strings.Split(l.ptr[1:], "/")
	}
	for i := 0; ; i++ {
		if m, ok := v.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok {
				if u, err := base.Parse(id); err == nil {
					u.Fragment, u.RawFragment = "", ""
					base = u
				}
			}
		}
		if i == len(toks) {
			return base
		}
		var ok bool
		if v, ok = pointerGet(v, "/"+toks[i]); !ok {
			return base
		}
	}
}

// resolve finds the target of ref, written in the schema at: a file of
// the pack (relative to the schema's base URI), an $id of a pack schema,
// then a JSON pointer (percent-decoded, ~0 and ~1 unescaped) or an
// $anchor in it. A reference to an absolute URL that no pack schema is
// leads outside (the node's ptr is the URL); any other that leads nowhere
// is unresolved.
func (d *differ) resolve(at node, ref string) (node, reach) {
	d.spend(8)
	k := resolveKey{at.p, at.place(), ref}
	if r, ok := d.resolved[k]; ok {
		return r.n, r.r
	}
	n, r := d.resolveOnce(at, ref)
	d.resolved[k] = resolution{n, r}
	return n, r
}

type resolveKey struct {
	p   *Pack
	at  loc
	ref string
}

type resolution struct {
	n node
	r reach
}

func (d *differ) resolveOnce(at node, ref string) (node, reach) {
	base := at.p.baseOf(at.place())
	var u *url.URL
	var frag string
	if strings.HasPrefix(ref, "#") {
		// A fragment only: the base itself (url.Parse would do the same,
		// slower).
		f, err := url.PathUnescape(ref[1:])
		if err != nil {
			return node{}, unresolved
		}
		c := *base
		u, frag = &c, f
	} else {
		var err error
		if u, err = base.Parse(ref); err != nil {
			return node{}, unresolved
		}
		frag = u.Fragment
	}
	u.Fragment, u.RawFragment = "", ""
	ix := at.p.index()
	res, ok := ix.resources[u.String()]
	if !ok {
		if u.Scheme == "file" || !strings.Contains(ref, ":") {
			return node{}, unresolved
		}
		return node{ptr: u.String() + "#" + frag}, outside
	}
	d.referenced[res.file] = true
	target := res
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if target, ok = ix.anchors[u.String()+"#"+frag]; !ok {
			return node{}, unresolved
		}
		frag = ""
	}
	rv, ok := pointerGet(at.p.JSON(target.file), target.ptr)
	if !ok {
		return node{}, unresolved
	}
	v, ok := pointerGet(rv, frag)
	if !ok {
		return node{}, unresolved
	}
	return node{p: at.p, file: target.file, ptr: target.ptr + frag, v: v}, inPack
}

// sameRoot reports whether two whole schemas are the same, references
// followed (a $dynamicRef too: from the same start it leads to the same
// place).
func (c *schemaCmp) sameRoot(o, n node) bool { return c.same(o, n, true) }

// sameKey is a pair of places (interned: see placeID) for the memo of
// same.
type sameKey struct {
	o, n int32
	dyn  bool
}

// placeID is the number of the place l of side p (interned, so that the
// memos hold small keys however long the pointers).
func (d *differ) placeID(p *Pack, l loc) int32 {
	ids := d.newIDs
	if p == d.old {
		ids = d.oldIDs
	}
	id, ok := ids[l]
	if !ok {
		id = int32(len(ids))
		ids[l] = id
	}
	return id
}

// same reports whether o and n are the same schema: the same JSON, where
// every $ref (and $dynamicRef whose target has no $dynamicAnchor, or any
// when dyn) leads to the same schema in turn, or to the same URL outside
// the pack. Equal text is not enough: what a reference leads to may have
// changed. The answer is kept for the pair, and for each pair of
// reference targets met on the way; a pair of targets met again while it
// is being compared is taken as the same (a recursive schema), and an
// answer that rests on that is kept only once the walk's first pair is
// known to be the same.
func (c *schemaCmp) same(o, n node, dyn bool) bool {
	r, _ := c.sameTarget(o, n, dyn)
	return r
}

// sameTarget is same for a pair of places that is memoised.
func (c *schemaCmp) sameTarget(o, n node, dyn bool) (same, assumed bool) {
	if c.d.spend(3) {
		return false, false
	}
	k := sameKey{c.d.placeID(o.p, o.place()), c.d.placeID(n.p, n.place()), dyn}
	if r, ok := c.d.sameDone[k]; ok {
		return r, false
	}
	top := c.d.sameDepth == 0
	if !top {
		if r, ok := c.d.sameLocal[k]; ok {
			return r, true
		}
	}
	c.d.sameLocal[k] = true
	c.d.sameDepth++
	saved := c.path
	c.path = nil
	r, assumed := c.sameVal(o, n, o.v, n.v, dyn, posSchema)
	c.path = saved
	c.d.sameDepth--
	switch {
	case top:
		for kk, vv := range c.d.sameLocal {
			if r || !vv {
				c.d.sameDone[kk] = vv
			}
		}
		c.d.sameDone[k] = r
		clear(c.d.sameLocal)
	case !assumed || !r:
		delete(c.d.sameLocal, k)
		c.d.sameDone[k] = r
	default:
		c.d.sameLocal[k] = r
	}
	return r, assumed
}

// pos is what a value is in a schema: a schema, a list or an object of
// schemas, or data (the value of const, enum, default, examples or of an
// unknown keyword), compared as JSON: a "$ref" member in data is no
// reference.
type pos uint8

const (
	posSchema pos = iota
	posList
	posMap
	posData
)

// keywordPos is what the value v of the keyword k of a schema object is.
func keywordPos(k string, v any) pos {
	_, isList := v.([]any)
	switch {
	case listSub[k] && isList:
		return posList
	case singleSub[k]:
		return posSchema
	case mapSub[k]:
		return posMap
	}
	return posData
}

// sameVal compares the values ov (at o's place) and nv (at n's), which
// are at in the schema.
func (c *schemaCmp) sameVal(o, n node, ov, nv any, dyn bool, at pos) (bool, bool) {
	if c.d.spend(1) {
		return false, false
	}
	switch x := ov.(type) {
	case map[string]any:
		y, ok := nv.(map[string]any)
		if !ok || len(x) != len(y) {
			return false, false
		}
		assumed := false
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				return false, assumed
			}
			if xs, ok := xv.(string); ok && at == posSchema && (k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef") {
				ys, ok := yv.(string)
				if !ok {
					return false, assumed
				}
				r, a := c.sameRef(c.here(o), c.here(n), xs, ys, k != "$ref" && !dyn, dyn)
				assumed = assumed || a
				if !r {
					return false, assumed
				}
				continue
			}
			if c.d.spend(len(k) / 32) {
				return false, assumed
			}
			sub := posData
			switch at {
			case posSchema:
				sub = keywordPos(k, xv)
			case posMap:
				sub = posSchema
			}
			c.path = append(c.path, escape(k))
			r, a := c.sameVal(o, n, xv, yv, dyn, sub)
			c.path = c.path[:len(c.path)-1]
			assumed = assumed || a
			if !r {
				return false, assumed
			}
		}
		return true, assumed
	case []any:
		y, ok := nv.([]any)
		if !ok || len(x) != len(y) {
			return false, false
		}
		sub := posData
		if at == posList {
			sub = posSchema
		}
		assumed := false
		for i := range x {
			c.path = append(c.path, itoa(i))
			r, a := c.sameVal(o, n, x[i], y[i], dyn, sub)
			c.path = c.path[:len(c.path)-1]
			assumed = assumed || a
			if !r {
				return false, assumed
			}
		}
		return true, assumed
	case string, float64, bool, nil, json.Number:
		return ov == nv, false
	}
	return false, false
}

// here is the place the walk of sameVal has reached from x: x's place
// and the tokens of c.path.
func (c *schemaCmp) here(x node) node {
	if len(c.path) == 0 {
		return x
	}
	return node{p: x.p, file: x.file, ptr: x.ptr + "/" + strings.Join(c.path, "/")}
}

// sameRef compares two references written at o's and n's places.
// strict: a $dynamicRef whose target holds a $dynamicAnchor is never the
// same (where it leads depends on where validation started).
func (c *schemaCmp) sameRef(o, n node, oref, nref string, strict, dyn bool) (bool, bool) {
	ot, or := c.d.resolve(o, oref)
	nt, nr := c.d.resolve(n, nref)
	switch {
	case or == inPack && nr == inPack:
		if strict && (dynamic(ot) || dynamic(nt)) {
			return false, false
		}
		return c.sameTarget(ot, nt, dyn)
	case or == outside && nr == outside:
		return ot.ptr == nt.ptr, false
	}
	return false, false
}

// Subschemas says what the value of the keyword k of a schema object holds
// (isList: the value is an array): one schema, a list of schemas, an
// object whose members are schemas, or none of these (then it is data: a
// "$ref" or "$id" inside it is no reference). `bump` walks schemas with it.
func Subschemas(k string, isList bool) (one, list, object bool) {
	return singleSub[k] && !(isList && listSub[k]), listSub[k] && isList, mapSub[k]
}

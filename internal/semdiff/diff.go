package semdiff

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/ecmare"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/packref"
)

// differ walks two versions of a pack.
type differ struct {
	old, new *Pack
	res      *Result
	// referenced are the files (of either side) a manifest or a schema
	// reaches: they are compared through what references them.
	referenced map[string]bool

	// The schema comparisons' work budget (schema_resolve.go): steps spent,
	// whether it is spent and said so.
	steps, budget  int64
	over, overSaid bool
	// emitted are the schema changes listed (by old and by new place).
	emitted map[emitKey]bool
	// sameDone memoises which pairs of places are the same schema;
	// sameLocal holds the answers of the walk under way that rest on a
	// pair taken as the same while it is compared.
	sameDone, sameLocal map[sameKey]bool
	sameDepth           int // the pairs of targets being compared by same
	oldIDs, newIDs      map[loc]int32
	resolved            map[resolveKey]resolution
	regexps             map[string]*ecmare.Regexp
	keys                map[keysAt][]string
}

func (d *differ) add(lv Level, rule, file, ptr, format string, args ...any) {
	d.res.Changes = append(d.res.Changes, Change{Level: lv, File: file, Pointer: ptr, Message: fmt.Sprintf(format, args...), Rule: rule})
}

// field is how a member is compared, by its name.
type field int

const (
	fStrict      field = iota // no rule: any change could not be proved compatible
	fText                     // wording: a fix
	fInputRef                 // a file reference to an input schema
	fOutputRef                // a file reference to an output schema
	fBothRef                  // a file reference to a schema both read and written
	fInputSchema              // an inline input schema
	fWordingRef               // a file of wording (a prompt, an eval suite)
	fRequires                 // a list of what the host must provide
	fConsent                  // a list of what consumers consented to
	fOffers                   // a list of what the entry offers
	fVariables                // a prompt's variables
	fIgnore                   // not compared here (the id, the version of the pack)
)

var fields = map[string]field{
	"label": fText, "description": fText, "title": fText, "displayName": fText, "persona": fText, "category": fText,
	"keywords": fText, "tags": fText, "homepage": fText, "repository": fText, "author": fText, "license": fText,
	"docsUrl": fText, "vendor": fText, "summary": fText, "icon": fText, "examples": fText, "$comment": fText,
	"bugs": fText, "contributors": fText, "meta": fText, "version": fText, "text": fText, "prompt": fText,
	"dag": fText, "$schema": fText, "modelHints": fText, "confidence": fText, "rendering": fText,
	"configSchemaRef": fInputRef, "inputSchemaRef": fInputRef, "taskSchemaRef": fInputRef,
	"outputSchemaRef": fOutputRef, "returnSchemaRef": fOutputRef,
	"schemaRef": fBothRef, "envelopeContractRef": fBothRef,
	"parameters":      fInputSchema,
	"systemPromptRef": fWordingRef, "evalSuiteRef": fWordingRef,
	"requiresSecrets": fRequires, "requiredCredentials": fRequires, "requiredModelCapabilities": fRequires,
	"requiresCapabilities": fRequires, "requiredScopes": fRequires,
	"toolAllowlist": fConsent, "apiHosts": fConsent, "scopes": fConsent,
	"capabilities": fOffers, "outputs": fOffers, "producedVariables": fOffers, "exportFormats": fOffers, "consumerNodes": fOffers,
	"variables": fVariables,
}

// manifest compares the two pack.json documents.
func (d *differ) manifest() {
	om, nm := d.old.manifest, d.new.manifest
	const pj = pack.ManifestFile
	d.referenced[pj] = true
	for _, k := range unionKeys(om, nm) {
		ptr := "/" + escape(k)
		ov, nv := om[k], nm[k]
		if canon(ov) == canon(nv) && k != "runtime" && !hasFileRef(k, ov) {
			continue
		}
		if c, ok := kinds.ContentOf(k); ok {
			d.entries(c, pj, ptr, ov, nv, "")
			continue
		}
		switch k {
		case "version", "integrity", "publishedAt", "tarballUrl", "signatureUrl":
			// the version itself, and what a registry adds to a version manifest
		case "kind":
			if ok, nk := d.old.kind(), d.new.kind(); ok != nk {
				d.add(Breaking, RuleValueChanged, pj, ptr, "could not prove compatible: the pack kind changed from %s to %s", ok, nk)
			}
		case "name":
			d.add(Breaking, RulePackRenamed, pj, ptr, "the pack was renamed from %q to %q: consumers install and pin it by name", ov, nv)
		case "signing":
			if ok, nk := signer(ov), signer(nv); nv == nil {
				d.res.Notes = append(d.res.Notes, "the new version is not signed yet (the old one names "+ok+"): signing is not a code change")
			} else if ok != nk {
				d.res.Notes = append(d.res.Notes, "the signing key changed ("+ok+" → "+nk+"): not a code change, but check the registry grants the new key this namespace")
			} else {
				d.res.Notes = append(d.res.Notes, "the signing block changed, with the same key ("+nk+"): not a code change")
			}
		case "engines":
			d.ranges(pj, ptr, ov, nv, "the engine range", false)
		case "peerDependencies":
			d.ranges(pj, ptr, ov, nv, "peer dependency", true)
		case "runtime":
			d.runtime(ptr, ov, nv)
		default:
			d.member("the pack", pj, ptr, k, ov, nv)
		}
	}
	d.needs()
}

// signer is the key a signing block names (v2 keyId, v1 publicKeyRef).
func signer(v any) string {
	m, _ := v.(map[string]any)
	for _, k := range []string{"keyId", "publicKeyRef"} {
		if s, ok := m[k].(string); ok {
			return s
		}
	}
	if m == nil {
		return "unsigned"
	}
	return "no key named"
}

// runtime compares the runtime block: its entry is the pack's code (a
// fix when it changes); the language, format and runtime version are
// what a host must run.
func (d *differ) runtime(ptr string, ov, nv any) {
	om, _ := ov.(map[string]any)
	nm, _ := nv.(map[string]any)
	for _, side := range []struct {
		p *Pack
		m map[string]any
	}{{d.old, om}, {d.new, nm}} {
		if e, ok := side.m["entry"].(string); ok && side.m["language"] != "remote" {
			if p, err := packref.Path(e); err == nil && p != "" {
				d.referenced[p] = true
				side.p.entry = p
			}
		}
	}
	if d.old.entry != "" && d.new.entry != "" && !bytes.Equal(d.old.Files[d.old.entry], d.new.Files[d.new.entry]) {
		d.add(Fix, RuleFileChanged, d.new.entry, "", "the runtime code (%s) changed: what consumers see of it is the nodes' schemas, compared above", d.new.entry)
	}
	for _, k := range unionKeys(om, nm) {
		if k == "entry" || canon(om[k]) == canon(nm[k]) {
			continue
		}
		d.add(Breaking, RuleValueChanged, pack.ManifestFile, ptr+"/"+escape(k), "could not prove compatible: runtime %s changed from %s to %s (what a host must run)", k, short(om[k]), short(nm[k]))
	}
}

// entries compares an array of entries (or one entry) by id.
func (d *differ) entries(c kinds.Content, file, ptr string, ov, nv any, owner string) {
	type entry struct {
		ptr string
		v   map[string]any
	}
	index := func(v any) (map[string]entry, []string) {
		out, order := map[string]entry{}, []string{}
		if c.Object {
			if m, ok := v.(map[string]any); ok {
				id, _ := m[c.IDKey].(string)
				out[id], order = entry{ptr, m}, append(order, id)
			}
			return out, order
		}
		list, _ := v.([]any)
		for i, x := range list {
			m, _ := x.(map[string]any)
			id, _ := m[c.IDKey].(string)
			if _, dup := out[id]; dup || m == nil {
				continue
			}
			out[id], order = entry{fmt.Sprintf("%s/%d", ptr, i), m}, append(order, id)
		}
		return out, order
	}
	olds, oldOrder := index(ov)
	news, newOrder := index(nv)
	for _, id := range oldOrder {
		if _, ok := news[id]; !ok {
			d.add(Breaking, RuleEntryRemoved, file, olds[id].ptr, "%s%s %s was removed or renamed: consumers that use it stop working", owner, c.Noun, quoteID(id))
		}
	}
	for _, id := range newOrder {
		o, ok := olds[id]
		if !ok {
			d.add(Feature, RuleEntryAdded, file, news[id].ptr, "%s%s %s was added", owner, c.Noun, quoteID(id))
			continue
		}
		n := news[id]
		what := owner + c.Noun + " " + id
		for _, k := range unionKeys(o.v, n.v) {
			if k == c.IDKey {
				continue
			}
			d.member(what, file, n.ptr+"/"+escape(k), k, o.v[k], n.v[k])
		}
	}
}

func quoteID(id string) string {
	if id == "" {
		return "(without an id)"
	}
	return id
}

// member compares the member k of what (at ptr in file) by its rule.
func (d *differ) member(what, file, ptr, k string, ov, nv any) {
	if canon(ov) == canon(nv) && !hasFileRef(k, ov) {
		return
	}
	switch f := fields[k]; f {
	case fIgnore:
	case fText:
		d.add(Fix, RuleTextChanged, file, ptr, "%s: %s changed", what, k)
	case fInputRef, fOutputRef, fBothRef:
		d.schemaRef(what+" "+refNoun(k), map[field]Role{fInputRef: Input, fOutputRef: Output, fBothRef: Both}[f], file, ptr, ov, nv)
	case fInputSchema:
		d.compareSchemas(what+" "+k, Input, node{p: d.old, file: file, ptr: ptr, v: ov}, node{p: d.new, file: file, ptr: ptr, v: nv})
	case fWordingRef:
		d.wordingRef(what, k, file, ptr, ov, nv)
	case fRequires:
		d.set(setChange{what, k, file, ptr, ov, nv}, requirements)
	case fConsent:
		d.set(setChange{what, k, file, ptr, ov, nv}, consents)
	case fOffers:
		if k == "capabilities" {
			ov, nv = d.sideEffectful(what, file, ptr, ov, nv)
		}
		d.set(setChange{what, k, file, ptr, ov, nv}, offers)
	case fVariables:
		d.variables(what, file, ptr, ov, nv)
	default:
		om, oIsObj := ov.(map[string]any)
		nm, nIsObj := nv.(map[string]any)
		if oIsObj && nIsObj {
			for _, kk := range unionKeys(om, nm) {
				d.member(what, file, ptr+"/"+escape(kk), kk, om[kk], nm[kk])
			}
			return
		}
		switch {
		case ov == nil:
			d.add(Breaking, RuleValueChanged, file, ptr, "%s: could not prove compatible: %s %s was added", what, k, short(nv))
		case nv == nil:
			d.add(Breaking, RuleValueChanged, file, ptr, "%s: could not prove compatible: %s %s was removed", what, k, short(ov))
		default:
			d.add(Breaking, RuleValueChanged, file, ptr, "%s: could not prove compatible: %s changed from %s to %s", what, k, short(ov), short(nv))
		}
	}
}

// hasFileRef reports whether the member k with value v is, or holds, a
// reference to a file of the pack: equal text may then name changed files.
func hasFileRef(k string, v any) bool {
	if _, ok := packref.RoleOf(k); ok {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		for kk, vv := range x {
			if hasFileRef(kk, vv) {
				return true
			}
		}
	case []any:
		for _, vv := range x {
			if hasFileRef("", vv) {
				return true
			}
		}
	}
	return false
}

// refNoun is what a schema reference describes, in words.
func refNoun(k string) string {
	switch k {
	case "configSchemaRef":
		return "config"
	case "inputSchemaRef":
		return "input"
	case "outputSchemaRef":
		return "output"
	case "taskSchemaRef":
		return "task"
	case "returnSchemaRef":
		return "return value"
	case "envelopeContractRef":
		return "envelope contract"
	}
	return "schema"
}

// schemaRef compares the schemas two file references name.
func (d *differ) schemaRef(what string, role Role, file, ptr string, ov, nv any) {
	o := d.refNode(d.old, ov)
	n := d.refNode(d.new, nv)
	for _, side := range []struct {
		name string
		n    node
		ref  any
	}{{"the old version", o, ov}, {"the new version", n, nv}} {
		bothMissing := o.v == nil && n.v == nil && canon(ov) == canon(nv)
		if s, ok := side.ref.(string); ok && side.n.v == nil && !packref.IsURL(s) && !bothMissing {
			d.add(Breaking, RuleSchemaUndecided, file, ptr, "%s: could not prove compatible: %s references %q, which is not a JSON file of the pack", what, side.name, s)
			return
		}
	}
	if o.file == "" && n.file == "" && canon(ov) != canon(nv) && (ov != nil && nv != nil) {
		d.add(Breaking, RuleSchemaUndecided, file, ptr, "%s: could not prove compatible: the reference %s became %s, and neither is a JSON file of the pack", what, short(ov), short(nv))
		return
	}
	if n.file == "" {
		n.file, n.ptr = file, ptr
	}
	if o.file == "" {
		o.file, o.ptr = file, ptr
	}
	d.compareSchemas(what, role, o, n)
}

// refNode is the schema a reference names (its value nil when there is
// none, or it is not JSON).
func (d *differ) refNode(p *Pack, v any) node {
	s, ok := v.(string)
	if !ok {
		return node{p: p}
	}
	rel, err := packref.Path(s)
	if err != nil || rel == "" {
		return node{p: p}
	}
	d.referenced[rel] = true
	doc := p.JSON(rel)
	if doc == nil {
		return node{p: p}
	}
	return node{p: p, file: rel, v: doc}
}

// wordingRef compares a referenced file of wording (a system prompt, an
// eval suite): a fix when it changes.
func (d *differ) wordingRef(what, k, file, ptr string, ov, nv any) {
	read := func(p *Pack, v any) ([]byte, string) {
		s, _ := v.(string)
		rel, err := packref.Path(s)
		if err != nil || rel == "" {
			return nil, ""
		}
		d.referenced[rel] = true
		return p.Files[rel], rel
	}
	ob, _ := read(d.old, ov)
	nb, rel := read(d.new, nv)
	if canon(ov) == canon(nv) && bytes.Equal(ob, nb) {
		return
	}
	if rel == "" {
		rel = file
	}
	d.add(Fix, RuleTextChanged, rel, "", "%s: %s (%s) changed: wording, not what consumers send or read", what, k, short(nv))
}

// setChange is a list member of what (k, at ptr in file) on both sides.
type setChange struct {
	what, k, file, ptr string
	ov, nv             any
}

// setRule is what a list's members added or dropped mean: the level,
// rule and words of each.
type setRule struct {
	addLevel, dropLevel Level
	addRule, dropRule   string
	addWords, dropWords string
}

// The lists compared as sets: what the host must provide, what consumers
// consented to, what the entry offers.
var (
	requirements = setRule{Breaking, Feature, RuleRequirementAdded, RuleRequirementDrop, "the host must now provide", "no longer needed"}
	consents     = setRule{Breaking, Fix, RuleConsentWidened, RuleConsentNarrowed, "widened (consumers consented to the old ones)", "no longer used"}
	offers       = setRule{Feature, Breaking, RuleOfferAdded, RuleOfferRemoved, "added", "removed (consumers may rely on it)"}
)

// set compares two lists as sets of their members (objects by their
// canonical JSON; a tool's scopes as resource:action).
func (d *differ) set(c setChange, r setRule) {
	os, ns := members(c.ov), members(c.nv)
	if added := setDiff(ns, os); len(added) > 0 {
		d.add(r.addLevel, r.addRule, c.file, c.ptr, "%s: %s %s: %s", c.what, c.k, r.addWords, strings.Join(added, ", "))
	}
	if dropped := setDiff(os, ns); len(dropped) > 0 {
		d.add(r.dropLevel, r.dropRule, c.file, c.ptr, "%s: %s %s: %s", c.what, c.k, r.dropWords, strings.Join(dropped, ", "))
	}
}

// sideEffectful compares the capability side-effectful, which is no offer:
// hosts that see it stop caching the node and enforce idempotency, and
// chains that replayed it as free of effects now run one. Gained, it is
// a requirement on every host (breaking); lost, one dropped (a feature).
// The lists are returned without it.
func (d *differ) sideEffectful(what, file, ptr string, ov, nv any) (any, any) {
	const se = "side-effectful"
	o, n := members(ov)[se], members(nv)[se]
	switch {
	case n && !o:
		d.add(Breaking, RuleRequirementAdded, file, ptr, "%s: capabilities gained %s: hosts stop caching it and enforce idempotency, and chains that replayed it as free of effects now run one", what, se)
	case o && !n:
		d.add(Feature, RuleRequirementDrop, file, ptr, "%s: capabilities lost %s: hosts may cache and replay it", what, se)
	}
	drop := func(v any) any {
		l, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, 0, len(l))
		for _, x := range l {
			if x != se {
				out = append(out, x)
			}
		}
		return out
	}
	return drop(ov), drop(nv)
}

// members is a list (or an object of lists, as read/write scope groups)
// as a set of words.
func members(v any) map[string]bool {
	s := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(prefix, e)
			}
		case map[string]any:
			res, hasRes := x["resource"].(string)
			acts, hasActs := x["actions"].([]any)
			if hasRes && hasActs {
				for _, a := range acts {
					s[prefix+res+":"+canonWord(a)] = true
				}
				return
			}
			if prefix == "" && allLists(x) {
				for k, e := range x {
					walk(k+" ", e)
				}
				return
			}
			s[prefix+canon(x)] = true
		case nil:
		default:
			s[prefix+canonWord(x)] = true
		}
	}
	walk("", v)
	return s
}

func allLists(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.([]any); !ok {
			return false
		}
	}
	return len(m) > 0
}

func canonWord(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return canon(v)
}

// variables compares a prompt's variables by name: one added that is
// required without a default breaks every consumer that does not bind it.
func (d *differ) variables(what, file, ptr string, ov, nv any) {
	index := func(v any) map[string]map[string]any {
		out := map[string]map[string]any{}
		list, _ := v.([]any)
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				if name, ok := m["name"].(string); ok {
					out[name] = m
				}
			}
		}
		return out
	}
	olds, news := index(ov), index(nv)
	needed := func(m map[string]any) bool { _, def := m["default"]; return m["required"] == true && !def }
	names := make([]string, 0, len(olds)+len(news))
	for k := range olds {
		names = append(names, k)
	}
	for k := range news {
		if olds[k] == nil {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		o, n := olds[name], news[name]
		switch {
		case o == nil && needed(n):
			d.add(Breaking, RuleVariableRequired, file, ptr, "%s: variable %q was added as required without a default: consumers that do not bind it fail", what, name)
		case o == nil:
			d.add(Feature, RuleVariableOptional, file, ptr, "%s: optional variable %q was added", what, name)
		case n == nil:
			d.add(Breaking, RuleEntryRemoved, file, ptr, "%s: variable %q was removed: consumers that bind it may be refused", what, name)
		case needed(n) && !needed(o):
			d.add(Breaking, RuleVariableRequired, file, ptr, "%s: variable %q is now required without a default", what, name)
		case needed(o) && !needed(n):
			d.add(Feature, RuleVariableOptional, file, ptr, "%s: variable %q is no longer required", what, name)
		case canon(o["type"]) != canon(n["type"]):
			d.add(Breaking, RuleValueChanged, file, ptr, "%s: variable %q changed type from %s to %s", what, name, short(o["type"]), short(n["type"]))
		case canon(o) != canon(n):
			d.add(Fix, RuleTextChanged, file, ptr, "%s: variable %q's description or default changed", what, name)
		}
	}
}

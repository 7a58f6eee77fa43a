package migrate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// peerMove is what happens to one peerDependencies key: renamed to its
// family, or removed when an earlier key already stands for that family
// with the same value.
type peerMove struct {
	key, family string
	remove      bool
}

// peers rewrites peerDependencies keys to v2 families (C10.6): a family
// key stays; a row of the overlap alias table becomes its family, and the
// row's facets go to peerDependenciesMeta.<family>.facets; anything else
// is a finding (migrate never guesses an alias). peerDependenciesMeta
// entries follow their key.
func (r *rewriter) peers() []edit {
	pd := r.doc.Root.Get("peerDependencies")
	if pd == nil || pd.Kind != jsondoc.Object {
		return nil
	}
	meta := r.doc.Root.Get("peerDependenciesMeta")
	values := map[string]string{} // family → the JSON of the value it got first
	var moves []peerMove
	var families []string           // families that gain facets, in first-seen order
	facets := map[string][]string{} // family → facets to add
	for _, m := range pd.Members {
		p := jsondoc.Child("/peerDependencies", m.Key)
		family := m.Key
		if !validate.PeerFamily(m.Key) {
			row, ok := validate.PeerAlias(m.Key)
			switch {
			case ok:
				family = row.Family
				for _, f := range row.Facets {
					if !slices.Contains(facets[family], f) {
						if len(facets[family]) == 0 {
							families = append(families, family)
						}
						facets[family] = append(facets[family], f)
					}
				}
			case validate.PeerFamilyDeleted(m.Key):
				r.refuse(p, "peer_deleted", "remove it: spec/v2/declaration.json deleted this family and no v2 identifier replaces it",
					"peerDependencies key %q names a deleted capability family: there is no v2 identifier for it", m.Key)
				continue
			default:
				hint := "use a family key of spec/v2/declaration.json (facets go in peerDependenciesMeta.<family>.facets)"
				if g := validate.GuessPeerFamily(m.Key); g != "" {
					hint = fmt.Sprintf("if you mean the family %q, rename the key yourself (facets go in peerDependenciesMeta.%s.facets): migrate rewrites only the rows of the registry's alias table, never a guess", g, g)
				}
				r.refuse(p, "peer_unknown", hint,
					"peerDependencies key %q is neither a v2 capability family nor a row of the alias table (a v2 host refuses it with pack_peer_dependency_undefined)", m.Key)
				continue
			}
		}
		v, _ := json.Marshal(m.Value.Value())
		prev, dup := values[family]
		switch {
		case dup && prev != string(v):
			r.refuse(p, "peer_conflict", "keep one of the two keys, with the value you mean",
				"peerDependencies key %q is the family %q, which an earlier key already declares with another value (%s, not %s)", m.Key, family, prev, v)
		case dup:
			moves = append(moves, peerMove{key: m.Key, family: family, remove: true})
		default:
			values[family] = string(v)
			if family != m.Key {
				moves = append(moves, peerMove{key: m.Key, family: family})
			}
		}
	}
	var edits []edit
	// Removals first, so that a rename never meets the key it replaces.
	for _, mv := range moves {
		if mv.remove {
			p := jsondoc.Child("/peerDependencies", mv.key)
			edits = append(edits, edit{Change{p, fmt.Sprintf("peerDependencies[%q] dropped: the family %q is already declared with the same value", mv.key, mv.family)},
				func(b []byte) ([]byte, error) { return jsonedit.Remove(b, p) }})
		}
	}
	for _, mv := range moves {
		if !mv.remove {
			p := jsondoc.Child("/peerDependencies", mv.key)
			edits = append(edits, edit{Change{p, fmt.Sprintf("peerDependencies[%q] → %q", mv.key, mv.family)},
				func(b []byte) ([]byte, error) { return jsonedit.Rename(b, p, mv.family) }})
		}
	}
	metaEdits, entries := r.metaMoves(meta, moves)
	edits = append(edits, metaEdits...)
	return append(edits, r.facetEdits(meta, entries, families, facets)...)
}

// metaMoves moves the peerDependenciesMeta entry of each rewritten key to
// its family. It returns the edits and, per family, the entry the family
// has once they are made (nil when none).
func (r *rewriter) metaMoves(meta *jsondoc.Node, moves []peerMove) ([]edit, map[string]*jsondoc.Node) {
	entries := map[string]*jsondoc.Node{}
	if meta == nil || meta.Kind != jsondoc.Object {
		return nil, entries
	}
	for _, m := range meta.Members {
		entries[m.Key] = m.Value
	}
	var edits []edit
	for _, mv := range moves {
		e := meta.Get(mv.key)
		if e == nil || mv.key == mv.family {
			continue
		}
		p := jsondoc.Child("/peerDependenciesMeta", mv.key)
		if entries[mv.family] != nil {
			r.refuse(p, "peer_meta_merge", fmt.Sprintf("merge it into peerDependenciesMeta.%s yourself, then migrate again", mv.family),
				"peerDependenciesMeta has entries for both %q and its family %q: migrate does not merge them", mv.key, mv.family)
			continue
		}
		entries[mv.family] = e
		delete(entries, mv.key)
		edits = append(edits, edit{Change{p, fmt.Sprintf("peerDependenciesMeta[%q] → %q", mv.key, mv.family)},
			func(b []byte) ([]byte, error) { return jsonedit.Rename(b, p, mv.family) }})
	}
	return edits, entries
}

// facetEdits adds the alias table's facets to peerDependenciesMeta.<family>.facets,
// creating what is missing (peerDependenciesMeta goes right after
// peerDependencies), keeping the facets already there.
func (r *rewriter) facetEdits(meta *jsondoc.Node, entries map[string]*jsondoc.Node, families []string, facets map[string][]string) []edit {
	if len(families) == 0 {
		return nil
	}
	if meta != nil && meta.Kind != jsondoc.Object {
		r.refuse("/peerDependenciesMeta", "peer_meta_invalid", "make peerDependenciesMeta an object of family → {facets: [...]}",
			"peerDependenciesMeta is not an object: migrate cannot add the facets of %s to it", strings.Join(families, ", "))
		return nil
	}
	summary := func(f string, add []string) Change {
		return Change{jsondoc.Pointer("peerDependenciesMeta", f, "facets"), fmt.Sprintf("peerDependenciesMeta.%s.facets + [%s]", f, strings.Join(add, ", "))}
	}
	if meta == nil {
		var obj strings.Builder
		obj.WriteByte('{')
		var changes []Change
		for i, f := range families {
			if i > 0 {
				obj.WriteByte(',')
			}
			k, _ := json.Marshal(f)
			v, _ := json.Marshal(facets[f])
			fmt.Fprintf(&obj, `%s:{"facets":%s}`, k, v)
			changes = append(changes, summary(f, facets[f]))
		}
		obj.WriteByte('}')
		raw := json.RawMessage(obj.String())
		edits := []edit{{Change{}, func(b []byte) ([]byte, error) {
			return jsonedit.SetAfter(b, "/peerDependenciesMeta", "peerDependencies", raw)
		}}}
		for _, c := range changes {
			edits = append(edits, edit{c, func(b []byte) ([]byte, error) { return b, nil }})
		}
		return edits
	}
	var edits []edit
	for _, f := range families {
		entry := entries[f]
		fp := jsondoc.Pointer("peerDependenciesMeta", f)
		switch {
		case entry == nil:
			v, _ := json.Marshal(map[string][]string{"facets": facets[f]})
			edits = append(edits, edit{summary(f, facets[f]), func(b []byte) ([]byte, error) {
				return jsonedit.Set(b, fp, json.RawMessage(v))
			}})
		case entry.Kind != jsondoc.Object:
			r.refuse(fp, "peer_meta_invalid", "make it an object such as {\"facets\": [...]}",
				"peerDependenciesMeta.%s is not an object: migrate cannot add the facets %s", f, strings.Join(facets[f], ", "))
		case entry.Get("facets") == nil:
			v, _ := json.Marshal(facets[f])
			edits = append(edits, edit{summary(f, facets[f]), func(b []byte) ([]byte, error) {
				return jsonedit.Set(b, fp+"/facets", json.RawMessage(v))
			}})
		case entry.Get("facets").Kind != jsondoc.Array:
			r.refuse(fp+"/facets", "peer_meta_invalid", "make it an array of facet names",
				"peerDependenciesMeta.%s.facets is not an array: migrate cannot add %s", f, strings.Join(facets[f], ", "))
		default:
			var add []string
			for _, x := range facets[f] {
				if !slices.ContainsFunc(entry.Get("facets").Items, func(n *jsondoc.Node) bool { return n.Kind == jsondoc.String && n.Str == x }) {
					add = append(add, x)
				}
			}
			if len(add) == 0 {
				continue
			}
			edits = append(edits, edit{summary(f, add), func(b []byte) ([]byte, error) {
				for _, x := range add {
					var err error
					if b, err = jsonedit.Append(b, fp+"/facets", x); err != nil {
						return nil, err
					}
				}
				return b, nil
			}})
		}
	}
	return edits
}

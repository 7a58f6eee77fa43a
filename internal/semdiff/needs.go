package semdiff

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/registry"
)

// need is something a pack's chains need from the host: a node type
// (a DAG node's typeId) or a chain (a subChains ref) the pack does not
// itself provide, or the model capability.
type need struct {
	chain string // the chain that needs it first
	ptr   string // where, in pack.json
}

// modelTypes are the node types that run a language model: a chain that
// uses one needs the host to provide a model (docs/RULES.md).
const modelTypes = "core.ai."

// modelNeed is the key of the model capability among the needs.
const modelNeed = "capability:model"

// needsOf is what p's chains need from the host, by "node type ID",
// "chain ID" or modelNeed: every chain that needs it, in order.
func needsOf(p *Pack) map[string][]need {
	chains, _ := p.manifest["chains"].([]any)
	provided := map[string]bool{}
	if nodes, ok := p.manifest["nodes"].([]any); ok {
		for _, n := range nodes {
			if id, ok := n.(map[string]any)["typeId"].(string); ok {
				provided["node type "+id] = true
			}
		}
	}
	for _, c := range chains {
		if id, ok := c.(map[string]any)["chainId"].(string); ok {
			provided["chain "+id] = true
		}
	}
	out := map[string][]need{}
	for i, c := range chains {
		cm, _ := c.(map[string]any)
		id, _ := cm["chainId"].(string)
		base := fmt.Sprintf("/chains/%d", i)
		seen := map[string]bool{}
		add := func(key, ptr string) {
			if !seen[key] && !provided[key] {
				seen[key] = true
				out[key] = append(out[key], need{id, ptr})
			}
		}
		var walk func(v any, ptr string)
		walk = func(v any, ptr string) {
			switch x := v.(type) {
			case map[string]any:
				for _, k := range unionKeys(x, nil) {
					at := ptr + "/" + escape(k)
					if t, ok := x[k].(string); ok && k == "typeId" {
						add("node type "+t, at)
						if strings.HasPrefix(t, modelTypes) {
							add(modelNeed, at)
						}
						continue
					}
					walk(x[k], at)
				}
			case []any:
				for j, e := range x {
					walk(e, fmt.Sprintf("%s/%d", ptr, j))
				}
			}
		}
		walk(cm["dag"], base+"/dag")
		subs, _ := cm["subChains"].([]any)
		for j, s := range subs {
			if ref, ok := s.(map[string]any)["ref"].(string); ok {
				add("chain "+ref, fmt.Sprintf("%s/subChains/%d/ref", base, j))
			}
		}
	}
	return out
}

// chainIDs are the ids of p's chains.
func chainIDs(p *Pack) map[string]bool {
	out := map[string]bool{}
	chains, _ := p.manifest["chains"].([]any)
	for _, c := range chains {
		if id, ok := c.(map[string]any)["chainId"].(string); ok {
			out[id] = true
		}
	}
	return out
}

// needs compares what the chains of the two versions need from the host:
// a node type, sub-chain or model that a chain present in the old version
// now needs, which neither the pack nor any old chain's needs already
// brought, is a new requirement on every host (breaking, naming the pack
// that provides the type); a need only new chains have belongs to them
// (their addition is a feature); one no longer needed is a fix.
func (d *differ) needs() {
	on, nn := needsOf(d.old), needsOf(d.new)
	oldChains := chainIDs(d.old)
	keys := make([]string, 0, len(on)+len(nn))
	for k := range nn {
		keys = append(keys, k)
	}
	for k := range on {
		if _, ok := nn[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// The need each key is charged to: the first chain of the old version
	// that needs it.
	charged := map[string]need{}
	var named []string
	for _, k := range keys {
		if _, inOld := on[k]; inOld {
			continue
		}
		for _, x := range nn[k] {
			if oldChains[x.chain] {
				charged[k] = x
				if k != modelNeed {
					named = append(named, k[strings.LastIndex(k, " ")+1:])
				}
				break
			}
		}
	}
	providers := d.providers(named)
	for _, k := range keys {
		o, inOld := on[k]
		_, inNew := nn[k]
		n, found := charged[k]
		switch {
		case inOld && inNew:
		case inNew && !found:
			// Only chains new in this version need it: part of their addition.
		case inNew && k == modelNeed:
			d.add(Breaking, RuleRequirementAdded, pack.ManifestFile, n.ptr, "chain %s: its DAG now runs a model (node type %s): the host must now provide a model", n.chain, nodeType(d.new, n.ptr))
		case inNew:
			d.add(Breaking, RuleRequirementAdded, pack.ManifestFile, n.ptr, "chain %s: its DAG now needs %s, which the pack does not provide%s: the host must now have it", n.chain, k, providers(k))
		case k == modelNeed:
			d.add(Fix, RuleTextChanged, pack.ManifestFile, o[0].ptr, "chain %s: its DAG no longer runs a model", o[0].chain)
		default:
			d.add(Fix, RuleTextChanged, pack.ManifestFile, o[0].ptr, "chain %s: its DAG no longer needs %s", o[0].chain, k)
		}
	}
}

// providers looks up the packs that provide ids (node types, chains) in
// the index of the registry the sides were read from (v2 tree, then v1)
// and returns the words that name the provider of a need key ("node type
// T", "chain C") to follow it in a line. The index is read once per
// registry and process (providedIn), not once per comparison.
func (d *differ) providers(ids []string) func(k string) string {
	reg := d.new.registry
	if reg == "" {
		reg = d.old.registry
	}
	var found map[string]registry.IndexedPack
	if reg != "" && len(ids) > 0 {
		found = providedIn(reg)
	}
	return func(k string) string {
		switch p, ok := found[k[strings.LastIndex(k, " ")+1:]]; {
		case reg == "":
			return " (which pack provides it is not resolved: no registry was given)"
		case ok:
			return " (provided by " + p.Name + "@" + p.LatestVersion + ")"
		}
		return " (no pack of the registry's index lists it)"
	}
}

// provided holds, per registry directory, the ids its index lists with
// their providing pack, read at the first comparison that needs them: a
// registry checkout does not change during one run of wopkit.
var provided sync.Map // string -> func() map[string]registry.IndexedPack

// providedIn is the id -> providing pack map of the registry at reg (v2
// entries over v1), empty when it cannot be opened or has no index.
func providedIn(reg string) map[string]registry.IndexedPack {
	f, _ := provided.LoadOrStore(reg, sync.OnceValue(func() map[string]registry.IndexedPack {
		found := map[string]registry.IndexedPack{}
		root, err := registry.Open(reg)
		if err != nil {
			return found
		}
		defer root.Close()
		for _, tree := range []string{registry.TreeV1, registry.TreeV2} {
			got, _ := root.Provided(tree)
			maps.Copy(found, got) // v2, read last, wins
		}
		return found
	}))
	return f.(func() map[string]registry.IndexedPack)()
}

// nodeType is the typeId at ptr in p's manifest.
func nodeType(p *Pack, ptr string) string {
	v, _ := pointerGet(p.manifest, ptr)
	s, _ := v.(string)
	return s
}

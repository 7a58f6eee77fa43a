package semdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDAGNeeds: a chain whose DAG starts needing a node type the pack
// does not provide is a new requirement on every host (breaking, naming
// the type); a type the pack provides itself is none; a type no longer
// needed is a fix; the first core.ai.* type is a model the host must
// provide (issue 33, item 3: core.openwop.workflows.support 1.0.4 → 1.0.5
// and it-support 1.1.0 → 1.2.0).
func TestDAGNeeds(t *testing.T) {
	t.Parallel()
	chain := func(types ...string) map[string]any {
		nodes := arr{}
		for _, ty := range types {
			nodes = append(nodes, obj{"id": ty, "typeId": ty})
		}
		return obj{"chainId": "acme.flow", "label": "F", "dag": obj{"nodes": nodes}}
	}
	mk := func(version string, own arr, types ...string) *Pack {
		m := obj{"name": "acme.wf", "version": version, "chains": arr{chain(types...)}}
		if own != nil {
			m["nodes"] = own
		}
		return mkPack(t, packFiles(m, nil, nil))
	}
	r := Compare(mk("1.0.4", nil, "core.flow.router", "core.openwop.integration.notification-push"), mk("1.0.5", nil, "core.flow.router", "feature.notifications.nodes.notify"))
	var br, fix []string
	for _, c := range r.Changes {
		switch c.Level {
		case Breaking:
			br = append(br, c.Rule+" "+c.Pointer+" "+c.Message)
		case Fix:
			fix = append(fix, c.Message)
		}
	}
	if len(br) != 1 || !strings.Contains(br[0], RuleRequirementAdded+" /chains/0/dag/nodes/1/typeId chain acme.flow: its DAG now needs node type feature.notifications.nodes.notify, which the pack does not provide") || r.VersionOK {
		t.Errorf("breaking: %q (%s)", br, r.Verdict)
	}
	if !strings.Contains(strings.Join(fix, "\n"), "its DAG no longer needs node type core.openwop.integration.notification-push") {
		t.Errorf("fixes: %q", fix)
	}
	// A type the pack itself provides is no requirement.
	own := arr{obj{"typeId": "acme.wf.step"}}
	if r := Compare(mk("1.0.0", own, "core.flow.router"), mk("1.0.1", own, "core.flow.router", "acme.wf.step")); len(r.Breaking()) != 0 {
		t.Errorf("own type: %+v", r.Breaking())
	}
	// The first model node: the type and the model are both new needs.
	r = Compare(mk("1.1.0", nil, "core.flow.router"), mk("1.2.0", nil, "core.flow.router", "core.ai.structuredOutput"))
	msgs := []string{}
	for _, c := range r.Breaking() {
		msgs = append(msgs, c.Message)
	}
	if len(msgs) != 2 || !strings.Contains(strings.Join(msgs, "\n"), "its DAG now runs a model (node type core.ai.structuredOutput): the host must now provide a model") {
		t.Errorf("model: %q", msgs)
	}
	// Another model node where one was needed already: only the type.
	r = Compare(mk("1.1.0", nil, "core.ai.chatCompletion"), mk("1.2.0", nil, "core.ai.chatCompletion", "core.ai.structuredOutput"))
	if len(r.Breaking()) != 1 || strings.Contains(r.Breaking()[0].Message, "runs a model") {
		t.Errorf("second model node: %+v", r.Breaking())
	}
	// A sub-chain the pack does not hold.
	sub := func(v string, refs ...string) *Pack {
		c := chain("core.flow.router")
		subs := arr{}
		for _, ref := range refs {
			subs = append(subs, obj{"ref": ref})
		}
		c["subChains"] = subs
		return mkPack(t, packFiles(obj{"name": "acme.wf", "version": v, "chains": arr{c}}, nil, nil))
	}
	r = Compare(sub("1.0.0"), sub("1.0.1", "other.batch"))
	found := false
	for _, c := range r.Breaking() {
		found = found || c.Rule == RuleRequirementAdded && strings.Contains(c.Message, "its DAG now needs chain other.batch")
	}
	if !found {
		t.Errorf("sub-chain: %+v", r.Breaking())
	}
}

// Issue 42.7: a need counts only for a chain present in the old version
// (a new chain's needs are part of its addition, a feature), and the line
// names the pack that provides the type (from the registry's index when
// the sides were read with a registry).
func TestDAGNeedsOfOldChainsOnly(t *testing.T) {
	t.Parallel()
	chain := func(id string, types ...string) map[string]any {
		nodes := arr{}
		for _, ty := range types {
			nodes = append(nodes, obj{"id": ty, "typeId": ty})
		}
		return obj{"chainId": id, "label": "F", "dag": obj{"nodes": nodes}}
	}
	mk := func(version string, chains ...any) *Pack {
		return mkPack(t, packFiles(obj{"name": "acme.wf", "version": version, "chains": arr(chains)}, nil, nil))
	}
	old := mk("1.0.0", chain("acme.a", "core.flow.router"))
	// A new chain needing new types and a model: a feature, no requirement.
	r := Compare(old, mk("1.1.0", chain("acme.a", "core.flow.router"), chain("acme.b", "feature.notifications.nodes.notify", "core.ai.chat")))
	if len(r.Breaking()) != 0 || r.Required != BumpMinor {
		t.Errorf("a new chain's needs: %+v (%s)", r.Breaking(), r.Required)
	}
	// The old chain needing it: breaking, the provider named from the index.
	reg := t.TempDir()
	for name, data := range map[string]string{
		".well-known/openwop-registry.json": `{"signingKeys": []}`,
		"v1/index.json":                     `{"packs": [{"name": "feature.notifications", "latestVersion": "2.1.0", "typeIds": ["feature.notifications.nodes.notify"]}]}`,
	} {
		p := filepath.Join(reg, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nw := mk("1.1.0", chain("acme.a", "core.flow.router", "feature.notifications.nodes.notify"), chain("acme.b", "feature.notifications.nodes.notify"))
	nw.registry = reg
	r = Compare(old, nw)
	if br := r.Breaking(); len(br) != 1 || br[0].Pointer != "/chains/0/dag/nodes/1/typeId" || !strings.Contains(br[0].Message, "chain acme.a: its DAG now needs node type feature.notifications.nodes.notify, which the pack does not provide (provided by feature.notifications@2.1.0)") {
		t.Errorf("the old chain's new need: %+v", br)
	}
	// The index is read once per registry and process (issue 42's speed):
	// a second comparison names the provider without reading it again.
	if err := os.Remove(filepath.Join(reg, "v1", "index.json")); err != nil {
		t.Fatal(err)
	}
	if br := Compare(old, nw).Breaking(); len(br) != 1 || !strings.Contains(br[0].Message, "(provided by feature.notifications@2.1.0)") {
		t.Errorf("the second comparison read the index again: %+v", br)
	}
}

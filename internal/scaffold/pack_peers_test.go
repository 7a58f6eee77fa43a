package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/validate"
)

func peersOf(t *testing.T, dir string) (map[string]string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		PeerDependencies map[string]string `json:"peerDependencies"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m.PeerDependencies, string(b)
}

// A v2 pack with agents declares the peer dependencies its agents need, keyed
// by v2 declaration families (the registry's check-pack-peer-dependencies:
// a key must be a family of spec/v2/declaration.json); a node-only v2 pack
// and every v1 pack declare none; adding an agent to a v2 pack adds the
// families it lacks, after engines, and keeps what it declares.
func TestV2AgentPeerDependencies(t *testing.T) {
	for k := range AgentPeersV2 {
		if !validate.PeerFamily(k) {
			t.Errorf("%q is not a v2 peer-dependency family", k)
		}
	}
	write := func(spec string, agents bool) string {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "p")
		a := PackAnswers{}.Defaults()
		a.Name, a.Spec = "vendor.acme.p", spec
		if agents {
			a.Agents = []AgentAnswers{AgentAnswers{}.Defaults()}
		}
		p, err := PlanPack(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(dir, false); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if got, _ := peersOf(t, write(SpecV2, true)); len(got) != 2 || got["aiProviders"] != "supported" || got["agentRuntime"] != "supported" {
		t.Errorf("v2 pack with an agent: peerDependencies %v", got)
	}
	if got, _ := peersOf(t, write(SpecV1, true)); got != nil {
		t.Errorf("v1 pack with an agent: peerDependencies %v", got)
	}
	nodeOnly := write(SpecV2, false)
	if got, _ := peersOf(t, nodeOnly); got != nil {
		t.Errorf("node-only v2 pack: peerDependencies %v", got)
	}

	add := func(dir string) {
		t.Helper()
		src, err := OpenPack(dir)
		if err != nil {
			t.Fatal(err)
		}
		ag := AgentAnswers{}.Defaults()
		ag.ID = "helper"
		p, err := PlanAgent(src, ag, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(dir, true); err != nil {
			t.Fatal(err)
		}
	}
	add(nodeOnly)
	got, text := peersOf(t, nodeOnly)
	if len(got) != 2 || !strings.Contains(text, "  },\n  \"peerDependencies\": {") || strings.Index(text, `"peerDependencies"`) < strings.Index(text, `"engines"`) {
		t.Errorf("agent added to a node-only v2 pack: %v\n%s", got, text)
	}
	// A pack that declares one of them keeps its value and gains the other.
	pj := filepath.Join(nodeOnly, "pack.json")
	b, _ := os.ReadFile(pj)
	os.WriteFile(pj, []byte(strings.Replace(string(b), `"agentRuntime": "supported",`+"\n    ", "", 1)), 0o644)
	b, _ = os.ReadFile(pj)
	os.WriteFile(pj, []byte(strings.Replace(string(b), `"aiProviders": "supported"`, `"aiProviders": "optional"`, 1)), 0o644)
	if got, _ := peersOf(t, nodeOnly); len(got) != 1 {
		t.Fatalf("setup: %v", got)
	}
	src, _ := OpenPack(nodeOnly)
	ag := AgentAnswers{}.Defaults()
	ag.ID = "third"
	p, err := PlanAgent(src, ag, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(nodeOnly, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := peersOf(t, nodeOnly); len(got) != 2 || got["aiProviders"] != "optional" || got["agentRuntime"] != "supported" {
		t.Errorf("existing peer dependencies: %v", got)
	}
}

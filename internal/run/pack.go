package run

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// maxFile bounds a pack file or a file given on the command line.
const maxFile = 16 << 20

// Pack is what running needs of a node pack's pack.json.
type Pack struct {
	Dir      string
	Name     string
	Kind     string
	Language string
	Entry    string
	Nodes    []Node
	// Peers are the peerDependencies family keys the pack declares.
	Peers []string

	cache *schemaCache // the schemas compiled so far (nil: none kept)
}

// schemaCache keeps a pack's compiled schemas: the cases of one `test`
// check their configs, inputs and outputs against the same few files.
type schemaCache struct {
	mu    sync.Mutex
	byRef map[string]compiled
}

type compiled struct {
	s   *validate.PackSchema
	err error
}

// Node is one nodes[] entry.
type Node struct {
	TypeID       string
	Role         string
	Capabilities []string
	ConfigRef    string
	InputRef     string
	OutputRef    string
}

// Short is the typeId's last segment.
func (n Node) Short() string { return n.TypeID[strings.LastIndexByte(n.TypeID, '.')+1:] }

// LoadPack reads dir/pack.json.
func LoadPack(dir string) (*Pack, error) {
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var m struct {
		Name    string `json:"name"`
		Kind    string `json:"kind"`
		Runtime struct {
			Language string `json:"language"`
			Entry    string `json:"entry"`
		} `json:"runtime"`
		Nodes []struct {
			TypeID       string   `json:"typeId"`
			Role         string   `json:"role"`
			Capabilities []string `json:"capabilities"`
			Config       string   `json:"configSchemaRef"`
			Input        string   `json:"inputSchemaRef"`
			Output       string   `json:"outputSchemaRef"`
		} `json:"nodes"`
		Peers map[string]any `json:"peerDependencies"`
	}
	if err := d.ReadJSON("pack.json", maxFile, &m); err != nil {
		return nil, err
	}
	p := &Pack{Dir: dir, Name: m.Name, Kind: m.Kind, Language: m.Runtime.Language, Entry: m.Runtime.Entry,
		cache: &schemaCache{byRef: map[string]compiled{}}}
	if p.Entry == "" {
		p.Entry = "index.mjs"
	}
	for _, n := range m.Nodes {
		if n.TypeID == "" {
			continue
		}
		p.Nodes = append(p.Nodes, Node{TypeID: n.TypeID, Role: n.Role, Capabilities: n.Capabilities, ConfigRef: n.Config, InputRef: n.Input, OutputRef: n.Output})
	}
	for k := range m.Peers {
		p.Peers = append(p.Peers, k)
	}
	sort.Strings(p.Peers)
	return p, nil
}

// Find returns the node named by name: its typeId, or its last segment
// when that names one node.
func (p *Pack) Find(name string) (Node, error) {
	var hits []Node
	for _, n := range p.Nodes {
		if n.TypeID == name {
			return n, nil
		}
		if n.Short() == name {
			hits = append(hits, n)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	var ids []string
	for _, n := range p.Nodes {
		ids = append(ids, n.TypeID)
	}
	if len(hits) > 1 {
		return Node{}, werr.New(werr.Usage, "node_not_found", "%q names %d nodes of the pack", name, len(hits)).WithHint("give the whole typeId: %s", strings.Join(ids, ", "))
	}
	if len(ids) == 0 {
		return Node{}, werr.New(werr.Usage, "node_not_found", "the pack declares no nodes").WithHint("add one with `wopkit new node --pack DIR`")
	}
	return Node{}, werr.New(werr.Usage, "node_not_found", "the pack has no node %q", name).WithHint("its nodes: %s", strings.Join(ids, ", "))
}

// CheckRuntime refuses a pack whose runtime wopkit cannot run (it runs
// javascript in node, wasm in process: NewCaller).
func (p *Pack) CheckRuntime() error {
	what := map[string]string{
		"python": "wopkit runs JavaScript and WebAssembly packs only: run the node with the host that runs Python packs, or test its function with pytest",
		"go":     "wopkit runs JavaScript and WebAssembly packs only: test the node's Go function with `go test`",
		"remote": "a remote node runs on its own server: call its endpoint (curl, or your host's test tools); wopkit has nothing to load",
	}
	switch p.Language {
	case "javascript", "", "wasm":
		if p.Kind != "" && p.Kind != kinds.NodeName {
			return werr.New(werr.Invalid, "unsupported_runtime", "the pack is of kind %q: there is no node to run", p.Kind)
		}
		return nil
	}
	hint, ok := what[p.Language]
	if !ok {
		hint = "wopkit runs JavaScript and WebAssembly packs only"
	}
	return werr.New(werr.Invalid, "unsupported_runtime", "the pack's runtime is %q, which wopkit run cannot run", p.Language).WithHint("%s", hint)
}

// schema compiles the pack schema at ref ("" gives nil: nothing to check).
func (p *Pack) schema(ref string) (*validate.PackSchema, error) {
	if ref == "" {
		return nil, nil
	}
	if p.cache == nil {
		return p.compile(ref)
	}
	p.cache.mu.Lock()
	defer p.cache.mu.Unlock()
	c, ok := p.cache.byRef[ref]
	if !ok {
		c.s, c.err = p.compile(ref)
		p.cache.byRef[ref] = c
	}
	return c.s, c.err
}

// compile reads and compiles the pack schema at ref.
func (p *Pack) compile(ref string) (*validate.PackSchema, error) {
	d, err := untrusted.OpenDir(p.Dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	name := strings.TrimPrefix(path.Clean(ref), "./")
	b, err := d.ReadFile(name, maxFile)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "schema_invalid", err, "cannot read the schema %s", ref)
	}
	return validate.CompilePackSchema(name, b, func(other string) ([]byte, error) {
		d2, err := untrusted.OpenDir(p.Dir)
		if err != nil {
			return nil, err
		}
		defer d2.Close()
		return d2.ReadFile(other, maxFile)
	})
}

// family returns the peerDependencies note for a host_capability_missing.
func (p *Pack) family() string {
	if len(p.Peers) == 0 {
		return "the pack declares no peerDependencies: declare the ctx family the node needs there (Quickstart v2 §1), and give its surface with --mocks FILE"
	}
	return fmt.Sprintf("the pack's peerDependencies declare %s: give the surface the node needs with --mocks FILE ({\"surface\": {\"method\": [answer, …]}})", strings.Join(p.Peers, ", "))
}

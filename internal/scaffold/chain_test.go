package scaffold

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// planChain plans the default chain pack with name, or fails the test.
func planChain(t *testing.T, a ChainPackAnswers) *Plan {
	t.Helper()
	p, err := PlanChainPack(a, nil)
	if err != nil {
		t.Fatalf("PlanChainPack: %v", err)
	}
	return p
}

// TestChainPackDefaults: the default chain pack is a v2 workflow-chain pack
// without runtime, with a two-node dag wired by one edge, each declared
// parameter used, and it validates in strict mode with no problem at all.
func TestChainPackDefaults(t *testing.T) {
	t.Parallel()
	a := ChainPackAnswers{}.Defaults()
	a.Name = "vendor.acme.chains"
	p := planChain(t, a)
	if got, want := strings.Join(p.Paths(), " "), "pack.json README.md .openwopignore LICENSE"; got != want {
		t.Errorf("files %q, want %q", got, want)
	}
	pj := p.File("pack.json").Data
	var doc map[string]any
	if err := json.Unmarshal(pj, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["kind"] != "workflow-chain" || doc["runtime"] != nil || doc["engines"].(map[string]any)["openwop"] != EnginesV2 {
		t.Errorf("kind %v, runtime %v, engines %v", doc["kind"], doc["runtime"], doc["engines"])
	}
	ch := doc["chains"].([]any)[0].(map[string]any)
	if ch["chainId"] != "vendor.acme.chains.summarize-page" || ch["label"] != "Summarize Page" {
		t.Errorf("chainId %v label %v", ch["chainId"], ch["label"])
	}
	dag := ch["dag"].(map[string]any)
	nodes, edges := dag["nodes"].([]any), dag["edges"].([]any)
	if len(nodes) != 2 || len(edges) != 1 {
		t.Fatalf("%d nodes, %d edges: want 2 and 1", len(nodes), len(edges))
	}
	if e := edges[0].(map[string]any); e["from"] != "fetch" || e["to"] != "summarize" {
		t.Errorf("edge %v", e)
	}
	for _, name := range []string{"url", "length"} {
		if !strings.Contains(string(pj), "{{params."+name+"}}") {
			t.Errorf("parameter %s is not used", name)
		}
	}
	v, err := validate.New(validate.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range v.PackFiles("pack.json", p.FS(nil), pj) {
		if fr.Kind != kinds.WorkflowChainPack || fr.Spec != kinds.V2 {
			t.Errorf("validated as %s %s", fr.Kind, fr.Spec)
		}
		if len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("problems: %v %v", fr.Errors, fr.Warnings)
		}
	}
	if !strings.Contains(string(p.File("README.md").Data), "--sign v2") {
		t.Error("README does not say how to sign v2")
	}
}

// TestChainPackCheck: answers the validator refuses come back as field
// errors naming the answer, in the validator's words, before anything is
// written.
func TestChainPackCheck(t *testing.T) {
	t.Parallel()
	checkAnswerCases(t, func() ChainPackAnswers {
		a := ChainPackAnswers{}.Defaults()
		a.Name = "vendor.acme.chains"
		return a
	}, []answerCase[ChainPackAnswers]{
		{"unused parameter", "chains.0.parameters.1", "declared but no {{params.length}} uses it", func(a *ChainPackAnswers) { a.Chains[0].Steps[1].Params = nil }},
		{"undeclared parameter", "chains.0.steps.1.params", `declares no parameter "length"`, func(a *ChainPackAnswers) { a.Chains[0].Parameters = a.Chains[0].Parameters[:1] }},
		{"undeclared in config", "chains.0.steps.0.config", `declares no parameter "wait"`, func(a *ChainPackAnswers) { a.Chains[0].Steps[0].Config["timeout"] = "{{params.wait}}" }},
		{"bad typeId", "chains.0.steps.0.typeId", "Fetch", func(a *ChainPackAnswers) { a.Chains[0].Steps[0].TypeID = "Fetch" }},
		{"ranged pin", "chains.0.steps.1.typeId", "core.ai.chatCompletion@^1", func(a *ChainPackAnswers) { a.Chains[0].Steps[1].TypeID = "core.ai.chatCompletion@^1" }},
		{"ranged version", "chains.0.steps.1.version", "1.x", func(a *ChainPackAnswers) { a.Chains[0].Steps[1].Version = "1.x" }},
		{"two pins", "chains.0.steps.1.version", "differs", func(a *ChainPackAnswers) {
			a.Chains[0].Steps[1].TypeID, a.Chains[0].Steps[1].Version = "core.ai.chatCompletion@1.0.0", "1.1.0"
		}},
		{"same step ids", "chains.0.steps.1.id", "fetch", func(a *ChainPackAnswers) { a.Chains[0].Steps[1].ID = "fetch" }},
		{"bad name", "name", "acme", func(a *ChainPackAnswers) { a.Name = "acme" }},
		{"bad capability", "chains.0.capabilities", "fast", func(a *ChainPackAnswers) { a.Chains[0].Capabilities = []string{"fast"} }},
		{"bad license", "license", "SPDX", func(a *ChainPackAnswers) { a.License = "Apache 2" }},
		{"bad param name", "chains.0.parameters.0.name", "the url", func(a *ChainPackAnswers) { a.Chains[0].Parameters[0].Name = "the url" }},
		{"bad param type", "chains.0.parameters.0.type", "text", func(a *ChainPackAnswers) { a.Chains[0].Parameters[0].Type = "text" }},
		{"twice passed", "chains.0.steps.1.config", "length", func(a *ChainPackAnswers) { a.Chains[0].Steps[1].Config["length"] = "short" }},
		{"no steps", "chains.0.steps", "", func(a *ChainPackAnswers) { a.Chains[0].Steps = nil; a.Chains[0].Parameters = nil }},
		{"no chains", "chains", "", func(a *ChainPackAnswers) { a.Chains = nil }},
		{"bad spec", "spec", "v9", func(a *ChainPackAnswers) { a.Spec = "v9" }},
	})
}

// TestChainPackSet: every answer can be set by --set; the open config
// takes any key.
func TestChainPackSet(t *testing.T) {
	t.Parallel()
	a := ChainPackAnswers{}.Defaults()
	for _, kv := range [][2]string{
		{"name", "vendor.acme.chains"}, {"chains.0.id", "digest"}, {"chains.0.label", "Digest"},
		{"chains.0.steps.0.typeId", "vendor.acme.tools.fetch"}, {"chains.0.parameters.0.name", "page"},
		{"chains.0.steps.0.params", "page"}, {"chains.0.steps.1.config.systemPrompt", "Digest it."},
		{"chains.0.steps.0.output", "body"}, {"chains.0.steps.1.input", "text"},
		{"dependencies", `{"vendor.acme.tools": "^1.0.0"}`}, {"chains.0.outputs.0.name", "digest"},
	} {
		if err := Set(&a, kv[0], kv[1]); err != nil {
			t.Fatalf("set %s: %v", kv[0], err)
		}
	}
	p := planChain(t, a)
	pj := string(p.File("pack.json").Data)
	for _, want := range []string{`"chainId": "vendor.acme.chains.digest"`, `"url": "{{params.page}}"`[:0] + `"page": "{{params.page}}"`,
		`"systemPrompt": "Digest it."`, `"from": "fetch.body"`, `"to": "summarize.text"`, `"vendor.acme.tools": "^1.0.0"`, `"digest": {`} {
		if !strings.Contains(pj, want) {
			t.Errorf("pack.json lacks %s:\n%s", want, pj)
		}
	}
	if err := Set(&a, "chains.0.nope", "x"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown key: %v", err)
	}
	if !strings.Contains(strings.Join(Keys(&a), " "), "chains.N.steps.N.config") {
		t.Errorf("keys lack the config: %v", Keys(&a))
	}
}

// TestChainLists: the lists the wizard offers come from the schema.
func TestChainLists(t *testing.T) {
	t.Parallel()
	if got := strings.Join(ChainCapabilities(), ","); got != "streamable,cacheable,side-effectful,mcp-exportable" {
		t.Errorf("capabilities %s", got)
	}
	if got := strings.Join(ChainValueTypes(), ","); got != "string,number,boolean,object,array" {
		t.Errorf("types %s", got)
	}
	if got := strings.Join(PackKinds(), ","); got != "node,workflow-chain,prompt,connection,card,form-content,artifact-type" {
		t.Errorf("kinds %s", got)
	}
}

// TestChainFieldPointer: the pointer of an answer field names the value
// in the generated pack.json, and maps back to the same field; the
// validator checks a value at it (what the wizard does as the author types).
func TestChainFieldPointer(t *testing.T) {
	t.Parallel()
	a := ChainPackAnswers{}.Defaults()
	a.Name = "vendor.acme.chains"
	p := planChain(t, a)
	doc, err := jsondoc.Parse(p.File("pack.json").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "version", "license", "engines", "chains.0.id", "chains.0.label", "chains.0.version",
		"chains.0.steps.0.typeId", "chains.0.steps.1.id", "chains.0.steps.1.name", "chains.0.parameters.1.type",
		"chains.0.parameters.0.description", "chains.0.outputs.0.type", "chains.0.capabilities"} {
		ptr := ChainFieldPointer(a, field)
		if ptr == "" || doc.Lookup(ptr) == nil {
			t.Errorf("%s: pointer %q names nothing in pack.json", field, ptr)
			continue
		}
		if back := a.fieldOf(ptr); back != field && !(field == "engines" && back == "engines") {
			t.Errorf("%s -> %s -> %s", field, ptr, back)
		}
	}
	if ptr := ChainFieldPointer(a, "chains.0.steps.0.params"); ptr != "" {
		t.Errorf("params is not one value, got %q", ptr)
	}
	errs := CheckField(nil, kinds.WorkflowChainPack, ChainFieldPointer(a, "chains.0.steps.0.typeId"), "Fetch")
	if len(errs) == 0 || !strings.Contains(errs.Error(), "Fetch") {
		t.Errorf("CheckField of a bad typeId: %v", errs)
	}
}

// TestPackReadmeSignMethod: every pack's README tells the signing method
// of its spec (a v2 pack signed manual would carry the v1 block).
func TestPackReadmeSignMethod(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]string{SpecV2: "--sign v2 ", SpecV1: "--sign manual "} {
		n := PackAnswers{}.Defaults()
		n.Spec = spec
		c := ChainPackAnswers{}.Defaults()
		c.Spec = spec
		pr := PromptPackAnswers{}.Defaults()
		pr.Spec = spec
		cd := CardPackAnswers{}.Defaults()
		cd.Spec = spec
		fm := FormPackAnswers{}.Defaults()
		fm.Spec = spec
		at := ArtifactPackAnswers{}.Defaults()
		at.Spec = spec
		for kind, plan := range map[string]func() (*Plan, error){
			"node":     func() (*Plan, error) { return PlanPack(n, nil) },
			"chain":    func() (*Plan, error) { return PlanChainPack(c, nil) },
			"prompt":   func() (*Plan, error) { return PlanPromptPack(pr, nil) },
			"card":     func() (*Plan, error) { return PlanCardPack(cd, nil) },
			"form":     func() (*Plan, error) { return PlanFormPack(fm, nil) },
			"artifact": func() (*Plan, error) { return PlanArtifactPack(at, nil) },
		} {
			p, err := plan()
			if err != nil {
				t.Fatalf("%s %s: %v", spec, kind, err)
			}
			if readme := string(p.File("README.md").Data); !strings.Contains(readme, want) {
				t.Errorf("%s %s pack README lacks %q:\n%s", spec, kind, want, readme)
			}
		}
	}
}

// TestChainStepsPinned: a v2 chain pins every node reference (RFC 0177
// §E.1: a host refuses an unpinned one at register): the defaults to the
// versions the registry publishes, a step to the version given, a step
// without one to DefaultNodeVersion, a typeId's own pin kept; a v1 chain,
// whose schema admits no @, stays unpinned. A chain added to a pack pins
// as the pack's spec says.
func TestChainStepsPinned(t *testing.T) {
	typeIDs := func(pj []byte) []string {
		var doc struct {
			Chains []struct {
				Dag struct {
					Nodes []struct {
						TypeID string `json:"typeId"`
					} `json:"nodes"`
				} `json:"dag"`
			} `json:"chains"`
		}
		if err := json.Unmarshal(pj, &doc); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range doc.Chains {
			for _, n := range c.Dag.Nodes {
				out = append(out, n.TypeID)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name, spec string
		edit       func(c *ChainAnswers)
		want       string
	}{
		{"defaults", SpecV2, func(*ChainAnswers) {}, "core.openwop.http.fetch@1.0.0 core.ai.chatCompletion@1.0.0"},
		{"version given", SpecV2, func(c *ChainAnswers) { c.Steps[1].TypeID, c.Steps[1].Version = "vendor.acme.tools.digest", "2.3.4" },
			"core.openwop.http.fetch@1.0.0 vendor.acme.tools.digest@2.3.4"},
		{"no version", SpecV2, func(c *ChainAnswers) { c.Steps[1].TypeID, c.Steps[1].Version = "vendor.acme.tools.digest", "" },
			"core.openwop.http.fetch@1.0.0 vendor.acme.tools.digest@" + DefaultNodeVersion},
		{"own pin", SpecV2, func(c *ChainAnswers) { c.Steps[1].TypeID, c.Steps[1].Version = "core.ai.chatCompletion@1.0.0", "" },
			"core.openwop.http.fetch@1.0.0 core.ai.chatCompletion@1.0.0"},
		{"v1", SpecV1, func(*ChainAnswers) {}, "core.openwop.http.fetch core.ai.chatCompletion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ChainPackAnswers{}.Defaults()
			a.Name, a.Spec = "vendor.acme.chains", tc.spec
			tc.edit(&a.Chains[0])
			p := planChain(t, a) // strict: an unpinned v2 reference (WC010) would be refused
			if got := strings.Join(typeIDs(p.File("pack.json").Data), " "); got != tc.want {
				t.Errorf("typeIds %s, want %s", got, tc.want)
			}
			if readme := string(p.File("README.md").Data); !strings.Contains(readme, "`"+strings.Fields(tc.want)[1]+"`") {
				t.Errorf("README does not name the step's reference %s:\n%s", strings.Fields(tc.want)[1], readme)
			}
		})
	}

	// added to a v2 pack: pinned; to a v1 pack: not
	for spec, want := range map[string]string{SpecV2: "vendor.acme.tools.digest@1.2.0", SpecV1: "vendor.acme.tools.digest"} {
		a := ChainPackAnswers{}.Defaults()
		a.Name, a.Spec = "vendor.acme.chains", spec
		dir := t.TempDir()
		if err := planChain(t, a).Write(dir, false); err != nil {
			t.Fatal(err)
		}
		src, err := OpenPack(dir)
		if err != nil {
			t.Fatal(err)
		}
		c := ChainAnswers{}.Defaults()
		c.ID = "digest"
		c.Steps[1].TypeID, c.Steps[1].Version = "vendor.acme.tools.digest", "1.2.0"
		p, err := PlanChain(src, c, nil)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if got := typeIDs(p.File("pack.json").Data); len(got) != 4 || got[3] != want {
			t.Errorf("%s: typeIds %v, want the added step %s", spec, got, want)
		}
	}
}

// writeChainPack writes the default chain pack into a temporary directory
// and opens it.
func writeChainPack(t *testing.T) *PackSource {
	t.Helper()
	a := ChainPackAnswers{}.Defaults()
	a.Name = "vendor.acme.chains"
	dir := t.TempDir()
	if err := planChain(t, a).Write(dir, false); err != nil {
		t.Fatal(err)
	}
	src, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestPlanChain: a chain added to a chain pack is appended to chains[]
// with the rest of pack.json unchanged, and the pack stays strictly valid;
// a repeated id, a node pack and answers the WC rules refuse are refused
// naming the answer relative to the chain.
func TestPlanChain(t *testing.T) {
	t.Parallel()
	src := writeChainPack(t)
	c := ChainAnswers{}.Defaults()
	c.ID, c.Label = "digest", "Digest"
	p, err := PlanChain(src, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := string(p.File("pack.json").Data)
	if !strings.HasPrefix(out, string(src.Manifest[:strings.Index(string(src.Manifest), "\n    }\n  ]")])) || !strings.Contains(out, `"chainId": "vendor.acme.chains.digest"`) {
		t.Errorf("pack.json after adding the chain:\n%s", out)
	}
	if err := p.Write(src.Dir, false); err != nil {
		t.Fatal(err)
	}
	src2, err := OpenPack(src.Dir)
	if err != nil || strings.Join(src2.ChainIDs(), ",") != "vendor.acme.chains.summarize-page,vendor.acme.chains.digest" {
		t.Fatalf("chains after the write: %v %v", err, src2.ChainIDs())
	}
	for _, fr := range orDefault(nil).PackFiles("pack.json", src2.FS, src2.Manifest) {
		if len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("the pack with two chains: %v %v", fr.Errors, fr.Warnings)
		}
	}

	if errs := c.Check(src2, nil); len(errs.For("id")) == 0 || !strings.Contains(errs.Error(), "already exists") {
		t.Errorf("repeated chain: %v", errs)
	}
	bad := ChainAnswers{}.Defaults()
	bad.ID = "bad"
	bad.Steps[1].TypeID = "Summarize"
	bad.Parameters[1].Name = "size"
	errs := bad.Check(src2, nil)
	for _, field := range []string{"steps.1.typeId", "parameters.1", "steps.1.params"} {
		if len(errs.For(field)) == 0 {
			t.Errorf("no problem for %s: %v", field, errs)
		}
	}

	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.nodes"
	np, err := PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := np.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	nsrc, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanChain(nsrc, c, nil); err == nil || !strings.Contains(err.Error(), "workflow-chain pack") {
		t.Errorf("chain into a node pack: %v", err)
	}
}

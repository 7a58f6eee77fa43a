package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestChainExpandOracle runs `wopkit chain expand --json` on every
// expandChain and expandChainTree case the spec's reference library was
// recorded on (../shared/oracles/chain-expansion): the pack and the
// parameters as files, the library's resolvable typeIds as --host-types,
// --no-defaults (the library applies none), --tree for the tree cases. The
// output must equal the library's as JSON, or the refusal carry its error
// code, or chain_parameter_invalid where the parameters fail the chain's
// schema.
func TestChainExpandOracle(t *testing.T) {
	t.Parallel()
	dir := fixtures.Shared(t, "oracles", "chain-expansion")
	files, _ := filepath.Glob(filepath.Join(dir, "[0-9]*.json"))
	tmp := t.TempDir()
	counts := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Case     string          `json:"case"`
			Function string          `json:"function"`
			Pack     json.RawMessage `json:"pack"`
			ChainID  string          `json:"chainId"`
			Params   json.RawMessage `json:"params"`
			Options  struct {
				ExpansionID       string   `json:"expansionId"`
				ParentExpansionID string   `json:"parentExpansionId"`
				TenantID          string   `json:"tenantId"`
				MaxDepth          int      `json:"maxDepth"`
				Resolvable        []string `json:"resolvableTypeIds"`
			} `json:"options"`
			ParamsSchemaCheck *struct {
				Valid bool `json:"valid"`
			} `json:"paramsSchemaCheck"`
			Expected json.RawMessage `json:"expected"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		if c.Function != "expandChain" && c.Function != "expandChainTree" {
			continue
		}
		packFile := filepath.Join(tmp, c.Case+".pack.json")
		var rel string
		if json.Unmarshal(c.Pack, &rel) == nil {
			packFile = filepath.Join(dir, filepath.FromSlash(rel))
		} else {
			write(t, packFile, c.Pack)
		}
		params := filepath.Join(tmp, c.Case+".params.json")
		write(t, params, c.Params)
		hostTypes, _ := json.Marshal(append([]string{}, c.Options.Resolvable...))
		host := filepath.Join(tmp, c.Case+".host.json")
		write(t, host, hostTypes)
		args := []string{"chain", "expand", packFile, c.ChainID, "--params", params, "--host-types", host, "--no-defaults", "--json"}
		if c.Function == "expandChainTree" {
			args = append(args, "--tree", "--expansion-id", c.Options.ParentExpansionID, "--tenant", c.Options.TenantID)
			if c.Options.MaxDepth > 0 {
				args = append(args, "--max-depth", strconv.Itoa(c.Options.MaxDepth))
			}
		} else {
			args = append(args, "--expansion-id", c.Options.ExpansionID)
		}
		out, _, code := runCmd(t, args...)
		var got, want map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: output is not one JSON object (exit %d): %q", c.Case, code, out)
			continue
		}
		if err := json.Unmarshal(c.Expected, &want); err != nil {
			t.Fatal(err)
		}
		gotErr, _ := got["error"].(map[string]any)
		wantErr, _ := want["error"].(map[string]any)
		paramsInvalid := c.ParamsSchemaCheck != nil && !c.ParamsSchemaCheck.Valid
		switch {
		case gotErr != nil && code != 1:
			t.Errorf("%s: a refusal exits %d, want 1", c.Case, code)
		case wantErr != nil && gotErr != nil && gotErr["code"] == wantErr["code"]:
			counts["same error"]++
		case gotErr != nil && paramsInvalid && gotErr["code"] == "chain_parameter_invalid":
			if d, _ := gotErr["details"].(map[string]any); d == nil || !strings.HasPrefix(d["path"].(string), "/") {
				t.Errorf("%s: chain_parameter_invalid without the failing pointer in details.path: %s", c.Case, out)
			}
			counts["parameters refused"]++
		case wantErr == nil && gotErr == nil && !paramsInvalid && reflect.DeepEqual(got, want) && code == 0:
			counts["same fragment"]++
		default:
			t.Errorf("%s: exit %d\n got %s\nwant %s", c.Case, code, out, c.Expected)
		}
	}
	t.Logf("chain expand over the oracle: %v", counts)
	if n := counts["same error"] + counts["parameters refused"] + counts["same fragment"]; n != 228 {
		t.Errorf("%d cases matched, want all 228 expandChain and expandChainTree cases", n)
	}
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// chainPack is a small workflow-chain pack: one chain with a default, a
// required parameter, an embedded and a whole-value token.
const chainPack = `{"name": "vendor.acme.chains", "version": "1.0.0", "kind": "workflow-chain",
 "engines": {"openwop": ">=1.1.0 <2.0.0"},
 "chains": [{"chainId": "vendor.acme.digest", "version": "1.0.0", "label": "Digest", "description": "d",
   "parameters": {"type": "object", "required": ["topic"], "properties": {
     "topic": {"type": "string"}, "count": {"type": "integer", "default": 3}}},
   "capabilities": ["side-effectful"],
   "dag": {"nodes": [
     {"id": "fetch", "typeId": "core.openwop.http.get", "config": {"q": "news about {{params.topic}}", "n": "{{params.count}}"}},
     {"id": "send", "typeId": "vendor.acme.nodes.send", "name": "Send"}],
    "edges": [{"from": "fetch.out", "to": "send", "triggerRule": "all_success"}]}}]}`

// TestChainExpandDefaultsAndResolution checks what the CLI adds to the
// library: schema defaults filled in for absent parameters (not with
// --no-defaults), the typeIds of --packs resolved, core.* assumed only
// without --host-types, and the readable table.
func TestChainExpandDefaultsAndResolution(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pack.json"), []byte(chainPack))
	nodes := filepath.Join(t.TempDir(), "pack.json")
	write(t, nodes, []byte(`{"name": "vendor.acme.nodes", "version": "1.0.0", "nodes": [{"typeId": "vendor.acme.nodes.send"}]}`))
	params := filepath.Join(t.TempDir(), "p.json")
	write(t, params, []byte(`{"topic": "go"}`))

	out, errOut, code := runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--params", params, "--expansion-id", "x1", "--json")
	if code != 1 || !strings.Contains(out, `"code":"chain_unresolvable_typeid"`) || !strings.Contains(out, `"typeId":"vendor.acme.nodes.send"`) {
		t.Errorf("a typeId no pack provides resolved: exit %d %s %s", code, out, errOut)
	}
	out, _, code = runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--params", params, "--expansion-id", "x1", "--packs", filepath.Dir(nodes), "--json")
	var frag struct {
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
	}
	if err := json.Unmarshal([]byte(out), &frag); err != nil || code != 0 || len(frag.Nodes) != 2 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	cfg := frag.Nodes[0]["config"].(map[string]any)
	if cfg["q"] != "news about go" || cfg["n"] != 3.0 {
		t.Errorf("the default count 3 was not filled in as a number: %v", cfg)
	}
	if frag.Edges[0]["from"] != "vendor_acme_digest_x1_fetch.out" || frag.Nodes[1]["id"] != "vendor_acme_digest_x1_send" {
		t.Errorf("ids: %s", out)
	}
	out, _, code = runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--params", params, "--expansion-id", "x1", "--packs", filepath.Dir(nodes), "--no-defaults", "--json")
	if code != 0 || !strings.Contains(out, `"n":""`) {
		t.Errorf("--no-defaults: a missing parameter becomes \"\": exit %d %s", code, out)
	}
	host := filepath.Join(t.TempDir(), "h.json")
	write(t, host, []byte(`["vendor.acme.nodes.send"]`))
	out, _, code = runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--params", params, "--host-types", host, "--json")
	if code != 1 || !strings.Contains(out, `"typeId":"core.openwop.http.get"`) {
		t.Errorf("with --host-types, core.* is assumed: exit %d %s", code, out)
	}
	out, _, code = runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--packs", filepath.Dir(nodes), "--json")
	if code != 1 || !strings.Contains(out, `"code":"chain_parameter_invalid"`) || !strings.Contains(out, `"path":"/topic"`) {
		t.Errorf("a missing required parameter: exit %d %s", code, out)
	}
	out, _, code = runCmd(t, "chain", "expand", dir, "vendor.acme.digest", "--params", params, "--packs", filepath.Dir(nodes), "--expansion-id", "x1")
	for _, want := range []string{"vendor.acme.digest expanded as x1: 2 nodes, 1 edge", "fetch -> vendor_acme_digest_x1_fetch  core.openwop.http.get",
		"vendor_acme_digest_x1_fetch.out -> vendor_acme_digest_x1_send  triggerRule \"all_success\"", "capabilities on every node: side-effectful"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("the table lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	_, errOut, code = runCmd(t, "chain", "expand", dir, "vendor.acme.nope")
	if code != 1 || !strings.Contains(errOut, "vendor.acme.digest") {
		t.Errorf("an unknown chain should name the pack's chains: exit %d %s", code, errOut)
	}
}

// TestChainExpandTreeTable: --tree's table names each child workflow once,
// after the parent whose nodes now carry its workflowId.
func TestChainExpandTreeTable(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(fixtures.Shared(t, "oracles", "chain-expansion"), "053-tree-shared-child-registered-once.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Pack json.RawMessage `json:"pack"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	pack := filepath.Join(t.TempDir(), "pack.json")
	write(t, pack, c.Pack)
	out, errOut, code := runCmd(t, "chain", "expand", pack, "vendor.oracle.parent", "--tree", "--tenant", "tenant-a", "--expansion-id", "p1")
	if code != 0 || strings.Count(out, "child workflow wfc_tenant-a__vendor_oracle_child__2_1_0 (chain vendor.oracle.child)") != 1 ||
		strings.Count(out, `"workflowId":"wfc_tenant-a__vendor_oracle_child__2_1_0"`) != 2 {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

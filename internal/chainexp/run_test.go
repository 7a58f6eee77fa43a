package chainexp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/werr"
)

// oracleCase is one recorded case of ../shared/oracles/chain-expansion:
// an input and what the spec's reference library returned for it.
type oracleCase struct {
	Case     string          `json:"case"`
	Source   string          `json:"source"`
	Function string          `json:"function"`
	Pack     json.RawMessage `json:"pack"`
	ChainID  string          `json:"chainId"`
	Params   json.RawMessage `json:"params"`
	Options  struct {
		ExpansionID       string   `json:"expansionId"`
		ParentExpansionID string   `json:"parentExpansionId"`
		TenantID          string   `json:"tenantId"`
		SiblingChainIDs   []string `json:"siblingChainIds"`
		MaxDepth          int      `json:"maxDepth"`
		Resolvable        []string `json:"resolvableTypeIds"`
	} `json:"options"`
	ParamsSchemaCheck *struct {
		Valid bool `json:"valid"`
	} `json:"paramsSchemaCheck"`
	Expected json.RawMessage `json:"expected"`
}

// oracleDir is the oracle folder, or the test is skipped.
func oracleDir(t testing.TB) string {
	return fixtures.Shared(t, "oracles", "chain-expansion")
}

func loadCases(t testing.TB) []oracleCase {
	dir := oracleDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "[0-9]*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no oracle cases in %s: %v", dir, err)
	}
	sort.Strings(files)
	var out []oracleCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c oracleCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, c)
	}
	return out
}

// casePack is the case's pack manifest: inline, or a file under packs/.
func casePack(t testing.TB, c oracleCase) *Pack {
	data := []byte(c.Pack)
	var path string
	if json.Unmarshal(c.Pack, &path) == nil {
		b, err := os.ReadFile(filepath.Join(oracleDir(t), filepath.FromSlash(path)))
		if err != nil {
			t.Fatal(err)
		}
		data = b
	}
	p, err := ParsePack(data, c.Case)
	if err != nil {
		t.Fatalf("%s: %v", c.Case, err)
	}
	return p
}

func caseParams(t testing.TB, c oracleCase) *jsvalue.Object {
	p, err := ParsePack(c.Params, c.Case+" params") // any JSON object parses as a "pack"
	if err != nil {
		t.Fatalf("%s: params: %v", c.Case, err)
	}
	return p.Root
}

func caseRequest(t testing.TB, c oracleCase) Request {
	set := map[string]bool{}
	for _, id := range c.Options.Resolvable {
		set[id] = true
	}
	r := Request{ChainID: c.ChainID, Params: caseParams(t, c), ExpansionID: c.Options.ExpansionID,
		Resolvable: func(id string) bool { return set[id] }}
	if c.Function == "expandChainTree" {
		r.Tree, r.ExpansionID, r.Tenant = true, c.Options.ParentExpansionID, c.Options.TenantID
		r.MaxDepth, r.Siblings = c.Options.MaxDepth, c.Options.SiblingChainIDs
		if r.Siblings == nil {
			r.Siblings = []string{}
		}
	}
	return r
}

// TestOracle requires, for every expandChain and expandChainTree case the
// spec's reference library was run on, the same outcome: the same fragment
// (equal as JSON, and byte for byte as JSON.stringify prints it), the same
// error code, or chain_parameter_invalid where the parameters fail the
// chain's schema (which the library never checks: its caller must).
func TestOracle(t *testing.T) {
	t.Parallel()
	counts := map[string]int{}
	for _, c := range loadCases(t) {
		if c.Function != "expandChain" && c.Function != "expandChainTree" {
			counts["skipped "+c.Function]++ // deferred expansion is not v2.0; produced variables are not an expansion
			continue
		}
		got, err := Run(casePack(t, c), caseRequest(t, c))
		var exp struct {
			Error *struct {
				Code    string          `json:"code"`
				Details json.RawMessage `json:"details"`
			} `json:"error"`
		}
		if uerr := json.Unmarshal(c.Expected, &exp); uerr != nil {
			t.Fatal(uerr)
		}
		paramsInvalid := c.ParamsSchemaCheck != nil && !c.ParamsSchemaCheck.Valid
		switch {
		case exp.Error != nil:
			code := werr.CodeOf(err)
			if code == exp.Error.Code {
				counts["same error"]++
				var want, have any
				_ = json.Unmarshal(exp.Error.Details, &want)
				var e *Error
				if asError(err, &e) {
					_ = json.Unmarshal(jsvalue.Encode(e.Details), &have)
				}
				if !reflect.DeepEqual(want, have) {
					t.Errorf("%s: error details\n got %s\nwant %s", c.Case, mustJSON(have), exp.Error.Details)
				}
			} else if paramsInvalid && code == CodeParameterInvalid {
				counts["parameters refused"]++
			} else {
				t.Errorf("%s: got %v (code %q), want the error %s", c.Case, err, code, exp.Error.Code)
			}
		case paramsInvalid:
			if code := werr.CodeOf(err); code != CodeParameterInvalid {
				t.Errorf("%s: the parameters fail the chain's schema, got %v (code %q), want %s", c.Case, err, code, CodeParameterInvalid)
				continue
			}
			counts["parameters refused"]++
		case err != nil:
			t.Errorf("%s: %v", c.Case, err)
		default:
			var want, have any
			if err := json.Unmarshal(c.Expected, &want); err != nil {
				t.Fatal(err)
			}
			out := jsvalue.Encode(got)
			if err := json.Unmarshal(out, &have); err != nil {
				t.Fatalf("%s: wopkit's output is not JSON: %v", c.Case, err)
			}
			if !reflect.DeepEqual(want, have) {
				t.Errorf("%s: fragment differs\n got %s\nwant %s", c.Case, out, compact(t, c.Expected))
				continue
			}
			counts["same fragment"]++
			if !bytes.Equal(out, compact(t, c.Expected)) {
				t.Errorf("%s: equal as JSON but not as JSON.stringify prints it (key order or number form)\n got %s\nwant %s", c.Case, out, compact(t, c.Expected))
			}
		}
	}
	t.Logf("oracle: %v", counts)
	if counts["same fragment"] == 0 {
		t.Fatal("no case expanded")
	}
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// compact is JSON text without its whitespace (keys and numbers as
// written): JSON.stringify's compact form of what it printed indented.
func compact(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	// encoding/json's Compact keeps "\u2028" and the like as written; the
	// recorded files are JSON.stringify's, which writes them raw.
	return []byte(strings.TrimSpace(buf.String()))
}

// BenchmarkExpandLargestRegistryChain is `chain expand` in process on the
// registry chain with the most nodes, from the manifest's bytes to the
// fragment's: parse, parameter check, expansion, encoding (target: 20 ms).
func BenchmarkExpandLargestRegistryChain(b *testing.B) {
	var best oracleCase
	var bestPack []byte
	most := -1
	for _, c := range loadCases(b) {
		if c.Function != "expandChain" || !strings.HasPrefix(c.Source, "openwop-registry ") {
			continue
		}
		p := casePack(b, c)
		ch, err := p.Chain(c.ChainID)
		if err != nil || len(ch.Nodes) <= most {
			continue
		}
		most, best = len(ch.Nodes), c
		var rel string
		_ = json.Unmarshal(c.Pack, &rel)
		bestPack, _ = os.ReadFile(filepath.Join(oracleDir(b), rel))
	}
	req := caseRequest(b, best)
	b.Logf("%s: %d nodes, pack.json %d bytes", best.Case, most, len(bestPack))
	b.ReportAllocs()
	for b.Loop() {
		p, err := ParsePack(bestPack, "pack.json")
		if err != nil {
			b.Fatal(err)
		}
		out, err := Run(p, req)
		if err != nil {
			b.Fatal(err)
		}
		_ = jsvalue.Encode(out)
	}
}

// FuzzRun: no manifest makes the expansion panic, plain or as a tree.
func FuzzRun(f *testing.F) {
	f.Add([]byte(`{"chains":[{"chainId":"a.b","dag":{"nodes":[{"id":"x","typeId":"core.t","config":{"s":"{{params.p}}","t":"a{{params.p}}b"}}],"edges":[{"from":"x.o","to":"y"}]},"subChains":[{"ref":"a.b"}],"capabilities":["c"]}]}`))
	f.Add([]byte(`{"chains":[{"chainId":"p","dag":{"nodes":[{"id":"n","typeId":"t","config":{"subChainRef":"c"}}]},"subChains":[{"ref":{"chainId":"c"}}]},{"chainId":"c","version":"1","dag":{"nodes":[]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePack(data, "fuzz")
		if err != nil {
			return
		}
		params := &jsvalue.Object{Members: []jsvalue.Member{{Key: "p", Value: []any{1.5, nil}}}}
		for _, id := range p.ChainIDs() {
			for _, tree := range []bool{false, true} {
				out, err := Run(p, Request{ChainID: id, Params: params, ExpansionID: "f", Tree: tree, Tenant: "t",
					Resolvable: func(string) bool { return true }})
				if err == nil {
					_ = jsvalue.Encode(out)
				}
			}
			_ = Preview(data, id)
		}
	})
}

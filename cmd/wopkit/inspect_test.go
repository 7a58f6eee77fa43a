package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
)

// inspect says what a pack of each kind holds, in words with plural forms,
// and which spec version it follows: a real v2 workflow-chain manifest from
// the registry (without its integrity) packed as pack.json, the same
// without kind, and an agent-only node pack.
func TestInspectKindsAndCounts(t *testing.T) {
	t.Parallel()
	vm, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", "v2", "packs", "vendor.openwop.workflow-chain-sample", "-", "1.0.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(vm, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "integrity")
	inspect := func(m map[string]any) (string, map[string]any) {
		t.Helper()
		dir := t.TempDir()
		b, _ := json.MarshalIndent(m, "", "  ")
		os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o644)
		tgz := filepath.Join(t.TempDir(), "x.tgz")
		if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "none", "-o", tgz); code != 0 {
			t.Fatalf("pack: %s", errOut)
		}
		out, errOut, code := runCmd(t, "inspect", tgz)
		if code != 0 {
			t.Fatalf("inspect: %s", errOut)
		}
		js, _, _ := runCmd(t, "inspect", tgz, "--json")
		var info map[string]any
		if err := json.Unmarshal([]byte(js), &info); err != nil {
			t.Fatal(err)
		}
		return out, info["manifest"].(map[string]any)
	}
	out, man := inspect(m)
	if !strings.Contains(out, "(v2 workflow-chain pack: 2 chains)") || !strings.Contains(out, "spec:      v2, told by the shape of its signing block") {
		t.Errorf("chain pack:\n%s", out)
	}
	if man["spec"] != "v2" || mustJSON(t, man["contents"]) != `[{"n":2,"of":"chains"}]` {
		t.Errorf("chain pack --json: %v", man)
	}
	delete(m, "kind")
	if out, _ := inspect(m); !strings.Contains(out, "(v2 pack without the kind v2 requires: 2 chains)") {
		t.Errorf("v2 pack without kind:\n%s", out)
	}
	agents := map[string]any{"name": "vendor.acme.solo", "version": "1.0.0", "engines": map[string]any{"openwop": ">=1.0.0 <2.0.0"},
		"runtime": map[string]any{"language": "remote", "entry": "https://agents.example/solo"}, "agents": []any{map[string]any{"agentId": "a"}}}
	if out, _ := inspect(agents); !strings.Contains(out, "(v1 agent-only pack: 1 agent; runtime remote https://agents.example/solo)") ||
		!strings.Contains(out, "spec:      v1, the version of documents that do not say") {
		t.Errorf("agent-only pack:\n%s", out)
	}
}

// inspect prints a tarball's strings escaped: a name, a description and a
// signing block holding characters that JSON lets through raw (U+202E,
// U+009B) or escaped (\u001b); an error quoting them is escaped on stderr.
func TestInspectStringsInert(t *testing.T) {
	t.Parallel()
	pj := "{\"name\":\"acme.x\u202egnp\u009b31m\",\"version\":\"1.0.0\",\"description\":\"x\\u001b[2K\\r\u202e\"," +
		"\"signing\":{\"method\":\"manual\",\"publicKeyRef\":\"k\\u001b[2K\u202e\u009b-1\"}}"
	tgz := filepath.Join(t.TempDir(), "x.tgz")
	os.WriteFile(tgz, tgzOf(t, [][2]string{{"pack.json", pj}, {"README.md", "x"}}), 0o644)
	out, errOut, code := runCmd(t, "inspect", tgz)
	if code != 0 || !strings.Contains(out, "signing:") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "inspect", out+errOut)
	bad := filepath.Join(t.TempDir(), "bad.tgz")
	os.WriteFile(bad, tgzOf(t, [][2]string{{"pack.json", "{\"name\":\"a\",\"x\\u001b[2K\u202e\":1,\"X\\u001b[2K\u202e\":2}"}}), 0o644)
	out, errOut, code = runCmd(t, "inspect", bad)
	if code != 1 || !strings.Contains(errOut, "letter case") {
		t.Fatalf("duplicate member: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "inspect error", out+errOut)
}

// Issue 18 item 5: a connection pack, scaffolded by `new pack --yes --set
// kind=connection` and packed, is summarised by its provider (id, name,
// how it is reached, its auth), not as "empty"; --json carries the same.
func TestInspectConnectionPack(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "conn")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=connection", "--dir", dir); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	tgz := filepath.Join(t.TempDir(), "conn.tgz")
	if out, errOut, code := runCmd(t, "pack", dir, "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := runCmd(t, "inspect", tgz)
	if code != 0 {
		t.Fatalf("inspect: exit %d\n%s%s", code, out, errOut)
	}
	want := "(v2 connection pack: provider acme (Acme), reached as an MCP server at https://mcp.acme.example/mcp, auth oauth2 (pkce))"
	if strings.Contains(out, "empty") || !strings.Contains(out, want) {
		t.Errorf("connection pack, want %q:\n%s", want, out)
	}
	js, _, _ := runCmd(t, "inspect", tgz, "--json")
	var info struct {
		Manifest struct {
			Provider map[string]any `json:"provider"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal([]byte(js), &info); err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, info.Manifest.Provider); got != `{"auth":"oauth2","authFlow":"pkce","displayName":"Acme","id":"acme","reach":"mcp","target":"https://mcp.acme.example/mcp"}` {
		t.Errorf("--json provider: %s", got)
	}
	for _, reach := range [][2]string{
		{`{"openapi": {"ref": "openapi.json"}}`, "reached through the OpenAPI document openapi.json, auth api_key)"},
		{`{"integration": {"node": "core.openwop.integration.acme"}}`, "reached through the integration node core.openwop.integration.acme, auth api_key)"},
	} {
		pj := `{"name":"vendor.acme.conn","version":"1.0.0","kind":"connection","engines":{"openwop":">=1.0.0 <3.0.0"},` +
			`"provider":{"id":"acme","displayName":"Acme","category":"other","auth":{"kind":"api_key"},"reach":` + reach[0] + `}}`
		p := filepath.Join(t.TempDir(), "x.tgz")
		os.WriteFile(p, tgzOf(t, [][2]string{{"pack.json", pj}}), 0o644)
		if out, errOut, _ := runCmd(t, "inspect", p); !strings.Contains(out, reach[1]) {
			t.Errorf("want %q:\n%s%s", reach[1], out, errOut)
		}
	}
}

// Issue 18 item 5: a .json (a pack.json, a version manifest) given to
// inspect is said to be a JSON document, not a tarball, with `wopkit
// validate` named, not "not a gzip stream ... damaged".
func TestInspectJSONIsNotATarball(t *testing.T) {
	t.Parallel()
	for name, data := range map[string]string{
		"pack.json":  "{\"name\": \"vendor.acme.x\", \"version\": \"1.0.0\"}\n",
		"1.0.0.json": "\n  {\"name\": \"vendor.acme.x\"}",
		"odd.tgz":    "[1, 2]",
	} {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, []byte(data), 0o644)
		out, errOut, code := runCmd(t, "inspect", p)
		if code != 1 || strings.Contains(errOut, "gzip") || strings.Contains(errOut, "damaged") ||
			!strings.Contains(errOut, "is a JSON document, not a tarball") || !strings.Contains(errOut, "wopkit validate") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	// verify reads tarballs the same way: same message, code tarball_corrupt.
	k, _ := sign.GenerateKey(sign.Ed25519)
	pem, _ := sign.MarshalPublicKeyPEM(k.Public())
	pub := filepath.Join(t.TempDir(), "k.pub")
	os.WriteFile(pub, pem, 0o644)
	p := filepath.Join(t.TempDir(), "pack.json")
	os.WriteFile(p, []byte(`{"name": "vendor.acme.x"}`), 0o644)
	out, errOut, code := runCmd(t, "verify", p, "--key", pub, "--json")
	if code != 1 || !strings.Contains(out, `"code":"tarball_corrupt","message":"`+p+` is a JSON document, not a tarball (.tgz)"`) {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
}

// Issue 18 item 5: a tarball whose pack.json has a signing block but that
// holds no signature says so (text and --json); one that holds it says
// where; a legacy block says its signature is the detached .sig.
func TestInspectSignatureEntry(t *testing.T) {
	t.Parallel()
	v2 := `{"name":"vendor.acme.x","version":"1.0.0","signing":{"keyId":"acme-1","scheme":"ed25519-canonical-json"}}`
	manual := `{"name":"vendor.acme.x","version":"1.0.0","signing":{"method":"manual","publicKeyRef":"acme-1","signatureRef":"sigs/pack.sig"}}`
	legacy := `{"name":"vendor.acme.x","version":"1.0.0","signing":{"method":"ed25519","keyId":"acme-1"}}`
	sig := strings.Repeat("s", 64)
	for _, tc := range []struct {
		name    string
		entries [][2]string
		text    string
		json    string
	}{
		{"v2 without signature", [][2]string{{"pack.json", v2}},
			"signature: MISSING: the signing block expects keys/pack.json.sig, which the tarball does not hold",
			`{"file":"keys/pack.json.sig","present":false}`},
		{"v2 with signature", [][2]string{{"keys/pack.json.sig", sig}, {"pack.json", v2}},
			"signature: keys/pack.json.sig, in the tarball (not verified: `wopkit verify` checks it)",
			`{"file":"keys/pack.json.sig","present":true}`},
		{"manual signatureRef missing", [][2]string{{"keys/pack.json.sig", sig}, {"pack.json", manual}},
			"signature: MISSING: the signing block expects sigs/pack.sig, which the tarball does not hold",
			`{"file":"sigs/pack.sig","present":false}`},
		{"legacy", [][2]string{{"pack.json", legacy}},
			"signature: none in the tarball: the legacy ed25519 method signs the whole .tgz, in the detached .sig beside it",
			`{"detached":true,"present":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.tgz")
			os.WriteFile(p, tgzOf(t, tc.entries), 0o644)
			out, errOut, code := runCmd(t, "inspect", p)
			if code != 0 || !strings.Contains(out, tc.text) {
				t.Errorf("exit %d, want %q:\n%s%s", code, tc.text, out, errOut)
			}
			js, _, _ := runCmd(t, "inspect", p, "--json")
			var info map[string]any
			if err := json.Unmarshal([]byte(js), &info); err != nil {
				t.Fatal(err)
			}
			if got := mustJSON(t, info["signature"]); got != tc.json {
				t.Errorf("--json signature %s, want %s", got, tc.json)
			}
		})
	}
	p := filepath.Join(t.TempDir(), "x.tgz")
	os.WriteFile(p, tgzOf(t, [][2]string{{"pack.json", `{"name":"vendor.acme.x","version":"1.0.0"}`}}), 0o644)
	if out, _, _ := runCmd(t, "inspect", p); strings.Contains(out, "signature:") {
		t.Errorf("unsigned pack has a signature line:\n%s", out)
	}
}

// Issue 44 item 8: inspect lists a tarball's agents with their eval
// suites, and its tool manifests.
func TestInspectListsAgentsEvalsAndTools(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	for _, args := range [][]string{
		{"new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"},
		{"new", "agent", "--pack", dir, "--set", "id=writer", "--set", "eval=true"},
		{"new", "agent", "--pack", dir, "--set", "id=greeter", "--set", "toolAllowlist=mcp:acme-search"},
	} {
		if _, errOut, code := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	os.MkdirAll(filepath.Join(dir, "tools"), 0o755)
	os.WriteFile(filepath.Join(dir, "tools", "acme-search.tool.json"), []byte(`{"manifest_version": "0.4"}`), 0o644)
	tgz := filepath.Join(t.TempDir(), "hello.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "-o", tgz); code != 0 {
		t.Fatalf("pack: %s", errOut)
	}
	out, errOut, code := runCmd(t, "inspect", tgz)
	for _, want := range []string{
		"agents:    vendor.acme.hello.writer (eval suite evals/writer.json)",
		"           vendor.acme.hello.greeter (no eval suite)",
		"tools:     tools/acme-search.tool.json (tool install manifest)",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q: exit %d\n%s%s", want, code, out, errOut)
		}
	}
}

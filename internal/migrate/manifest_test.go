package migrate

import (
	"reflect"
	"strings"
	"testing"
)

// base is a v1 pack manifest; tests edit it with members.
func manifest(members ...string) string {
	all := append([]string{`"name": "vendor.acme.x"`, `"version": "1.0.0"`}, members...)
	return "{\n  " + strings.Join(all, ",\n  ") + "\n}\n"
}

const v1Engines = `"engines": {"openwop": ">=1.0.0 <2.0.0"}`
const v2Engines = `"engines": {"openwop": ">=1.0.0 <3.0.0"}`

func rewrite(t *testing.T, src string) *Rewrite {
	t.Helper()
	rw, err := Manifest([]byte(src), "pack.json")
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return rw
}

// TestRewrites checks each rewrite where it fires and where it must not:
// the output, byte for byte, and the change pointers.
func TestRewrites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
		changes         []string // pointers, in order
	}{
		{"kind added after version", manifest(v2Engines),
			manifest(`"kind": "node"`, v2Engines), []string{"/kind"}},
		{"kind kept", manifest(`"kind": "node"`, v2Engines), manifest(`"kind": "node"`, v2Engines), nil},
		{"kind of another pack kind kept", manifest(`"kind": "workflow-chain"`, v2Engines), manifest(`"kind": "workflow-chain"`, v2Engines), nil},
		{"kind after name without version", "{\"name\": \"x\", " + v2Engines + "}", "{\"name\": \"x\", \"kind\": \"node\", " + v2Engines + "}", []string{"/kind"}},
		{"kind at the end without name or version", "{" + v2Engines + "}", "{" + v2Engines + ", \"kind\": \"node\"}", []string{"/kind"}},
		{"engines ceiling raised", manifest(`"kind": "node"`, v1Engines), manifest(`"kind": "node"`, v2Engines), []string{"/engines/openwop"}},
		{"engines admitting 2 kept", manifest(`"kind": "node"`, `"engines": {"openwop": ">=1.1 <4.0.0"}`),
			manifest(`"kind": "node"`, `"engines": {"openwop": ">=1.1 <4.0.0"}`), nil},
		{"signing relabelled", manifest(`"kind": "node"`, v2Engines, `"signing": {"method": "manual", "publicKeyRef": "acme-1", "signatureRef": "keys/pack.json.sig"}`),
			manifest(`"kind": "node"`, v2Engines, "\"signing\": {\n    \"keyId\": \"acme-1\",\n    \"scheme\": \"ed25519-canonical-json\"\n  }"), []string{"/signing"}},
		{"signing with matching keyId and publicKeyRef", manifest(`"kind": "node"`, v2Engines, `"signing": {"keyId": "k", "method": "manual", "publicKeyRef": "k"}`),
			manifest(`"kind": "node"`, v2Engines, "\"signing\": {\n    \"keyId\": \"k\",\n    \"scheme\": \"ed25519-canonical-json\"\n  }"), []string{"/signing"}},
		{"v2 signing in the wrong order reordered", manifest(`"kind": "node"`, v2Engines, `"signing": {"scheme": "ed25519-canonical-json", "keyId": "k"}`),
			manifest(`"kind": "node"`, v2Engines, "\"signing\": {\n    \"keyId\": \"k\",\n    \"scheme\": \"ed25519-canonical-json\"\n  }"), []string{"/signing"}},
		{"v2 signing kept", manifest(`"kind": "node"`, v2Engines, `"signing": {"keyId": "k", "scheme": "ed25519-canonical-json"}`),
			manifest(`"kind": "node"`, v2Engines, `"signing": {"keyId": "k", "scheme": "ed25519-canonical-json"}`), nil},
		{"peer family kept", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"aiProviders": "supported"}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"aiProviders": "supported"}`), nil},
		{"peer alias renamed in place", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"host.agentRuntime": "supported", "aiProviders": "required"}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"agentRuntime": "supported", "aiProviders": "required"}`),
			[]string{"/peerDependencies/host.agentRuntime"}},
		{"alias facets create peerDependenciesMeta after peerDependencies",
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"openwop.agents.memoryBackends": "supported"}`, `"runtime": {}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"agents": "supported"}`,
				"\"peerDependenciesMeta\": {\n    \"agents\": {\n      \"facets\": [\n        \"memoryBackends\"\n      ]\n    }\n  }", `"runtime": {}`),
			[]string{"/peerDependencies/openwop.agents.memoryBackends", "/peerDependenciesMeta/agents/facets"}},
		{"alias facets added to an existing entry", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"secrets.resolveInPack": "supported"}`,
			`"peerDependenciesMeta": {"secrets": {"note": "x"}}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"secrets": "supported"}`,
				`"peerDependenciesMeta": {"secrets": {"note": "x", "facets": ["resolveInPack"]}}`),
			[]string{"/peerDependencies/secrets.resolveInPack", "/peerDependenciesMeta/secrets/facets"}},
		{"alias facets appended, none twice", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"aiProviders.imageGeneration": "supported", "aiProviders.videoGeneration": "supported"}`,
			`"peerDependenciesMeta": {"aiProviders": {"facets": ["imageGeneration"]}}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"aiProviders": "supported"}`,
				`"peerDependenciesMeta": {"aiProviders": {"facets": ["imageGeneration", "videoGeneration"]}}`),
			[]string{"/peerDependencies/aiProviders.videoGeneration", "/peerDependencies/aiProviders.imageGeneration", "/peerDependenciesMeta/aiProviders/facets"}},
		{"alias meta entry follows its key", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"host.fs": "optional"}`, `"peerDependenciesMeta": {"host.fs": {"optional": true}}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"fs": "optional"}`, `"peerDependenciesMeta": {"fs": {"optional": true}}`),
			[]string{"/peerDependencies/host.fs", "/peerDependenciesMeta/host.fs"}},
		{"duplicate family with the same value merged", manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"host.webSearch": "optional", "webResearch": "optional"}`),
			manifest(`"kind": "node"`, v2Engines, `"peerDependencies": {"webResearch": "optional"}`),
			[]string{"/peerDependencies/webResearch", "/peerDependencies/host.webSearch"}},
		{"tabs and CRLF kept", "{\r\n\t\"name\": \"x\",\r\n\t\"version\": \"1.0.0\",\r\n\t\"engines\": {\r\n\t\t\"openwop\": \">=1.0.0\"\r\n\t}\r\n}",
			"{\r\n\t\"name\": \"x\",\r\n\t\"version\": \"1.0.0\",\r\n\t\"kind\": \"node\",\r\n\t\"engines\": {\r\n\t\t\"openwop\": \">=1.0.0 <3.0.0\"\r\n\t}\r\n}",
			[]string{"/kind", "/engines/openwop"}},
		{"compact kept", `{"name":"x","version":"1.0.0","engines":{"openwop":"^1.2.0"},"x-acme":{"k":1}}`,
			`{"name":"x","version":"1.0.0","kind":"node","engines":{"openwop":">=1.2.0 <3.0.0"},"x-acme":{"k":1}}`,
			[]string{"/kind", "/engines/openwop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rw := rewrite(t, tt.src)
			if len(rw.Findings) > 0 {
				t.Fatalf("refused: %v", rw.Findings)
			}
			if string(rw.Out) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", rw.Out, tt.want)
			}
			var got []string
			for _, c := range rw.Changes {
				got = append(got, c.Pointer)
				if c.Summary == "" {
					t.Errorf("change at %s has no summary", c.Pointer)
				}
			}
			if !sameSet(got, tt.changes) {
				t.Errorf("changes %v, want %v", got, tt.changes)
			}
			// Idempotent: a second run changes nothing.
			again := rewrite(t, string(rw.Out))
			if len(again.Changes) != 0 || string(again.Out) != string(rw.Out) {
				t.Errorf("second run changed %v", again.Changes)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestRefusals checks each refusal: the rule, the pointer, a hint, and
// that nothing is rewritten.
func TestRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, rule, pointer string
	}{
		{"unknown pack kind", manifest(`"kind": "gizmo"`, v1Engines), "migrate/kind_unknown", "/kind"},
		{"no engines", manifest(), "migrate/engines_missing", "/engines"},
		{"engines without openwop", manifest(`"engines": {"node": ">=20"}`), "migrate/engines_missing", "/engines"},
		{"engines ceiling inside a major", manifest(`"engines": {"openwop": ">=1.0.0 <1.5.0"}`), "migrate/engines_unexpressible", "/engines/openwop"},
		{"engines tilde", manifest(`"engines": {"openwop": "~1.2.0"}`), "migrate/engines_unexpressible", "/engines/openwop"},
		{"engines or", manifest(`"engines": {"openwop": ">=1.0.0 <2.0.0 || >=3.0.0"}`), "migrate/engines_unexpressible", "/engines/openwop"},
		{"engines star", manifest(`"engines": {"openwop": "*"}`), "migrate/engines_unexpressible", "/engines/openwop"},
		{"legacy ed25519 signing", manifest(v1Engines, `"signing": {"method": "ed25519", "keyId": "k"}`), "migrate/signing_resign", "/signing/method"},
		{"sigstore signing", manifest(v1Engines, `"signing": {"method": "sigstore", "publicKeyRef": "k"}`), "migrate/signing_resign", "/signing/method"},
		{"other scheme", manifest(v1Engines, `"signing": {"keyId": "k", "scheme": "rsa"}`), "migrate/signing_resign", "/signing/scheme"},
		{"disagreeing key ids", manifest(v1Engines, `"signing": {"method": "manual", "publicKeyRef": "a", "keyId": "b"}`), "migrate/signing_key_mismatch", "/signing/keyId"},
		{"unknown signing member", manifest(v1Engines, `"signing": {"method": "manual", "publicKeyRef": "a", "x-note": 1}`), "migrate/signing_unknown_member", "/signing/x-note"},
		{"signing without a key", manifest(v1Engines, `"signing": {"method": "manual"}`), "migrate/signing_invalid", "/signing"},
		{"signing naming nothing", manifest(v1Engines, `"signing": {"keyId": "k"}`), "migrate/signing_resign", "/signing"},
		{"signing not an object", manifest(v1Engines, `"signing": "manual"`), "migrate/signing_invalid", "/signing"},
		{"unknown peer key", manifest(v1Engines, `"peerDependencies": {"host.teleport": "supported"}`), "migrate/peer_unknown", "/peerDependencies/host.teleport"},
		{"deleted family", manifest(v1Engines, `"peerDependencies": {"grpc": "supported"}`), "migrate/peer_deleted", "/peerDependencies/grpc"},
		{"conflicting duplicate family", manifest(v1Engines, `"peerDependencies": {"host.webSearch": "optional", "webResearch": "required"}`), "migrate/peer_conflict", "/peerDependencies/webResearch"},
		{"meta entries to merge", manifest(v1Engines, `"peerDependencies": {"host.fs": "optional"}`, `"peerDependenciesMeta": {"host.fs": {"a": 1}, "fs": {"b": 2}}`), "migrate/peer_meta_merge", "/peerDependenciesMeta/host.fs"},
		{"meta not an object", manifest(v1Engines, `"peerDependencies": {"secrets.resolveInPack": "supported"}`, `"peerDependenciesMeta": []`), "migrate/peer_meta_invalid", "/peerDependenciesMeta"},
		{"facets not an array", manifest(v1Engines, `"peerDependencies": {"secrets.resolveInPack": "supported"}`, `"peerDependenciesMeta": {"secrets": {"facets": "x"}}`), "migrate/peer_meta_invalid", "/peerDependenciesMeta/secrets/facets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rw := rewrite(t, tt.src)
			if rw.Out != nil || len(rw.Changes) != 0 {
				t.Errorf("a refused manifest must not be rewritten: %v\n%s", rw.Changes, rw.Out)
			}
			found := false
			for _, f := range rw.Findings {
				if f.Rule == tt.rule && f.Pointer == tt.pointer {
					found = true
					if f.Hint == "" || f.Message == "" || f.Line < 1 || f.Column < 1 || f.File != "pack.json" {
						t.Errorf("finding without message, hint or position: %+v", f)
					}
				}
			}
			if !found {
				t.Errorf("want %s at %s, got %+v", tt.rule, tt.pointer, rw.Findings)
			}
		})
	}
}

// TestRefusalsAllAtOnce: every finding is reported, not just the first.
func TestRefusalsAllAtOnce(t *testing.T) {
	t.Parallel()
	rw := rewrite(t, manifest(`"engines": {"openwop": "~1.0.0"}`, `"peerDependencies": {"nope": "x", "grpc": "y"}`, `"signing": {"method": "ed25519", "keyId": "k"}`))
	var rules []string
	for _, f := range rw.Findings {
		rules = append(rules, f.Rule)
	}
	want := []string{"migrate/engines_unexpressible", "migrate/signing_resign", "migrate/peer_unknown", "migrate/peer_deleted"}
	if !reflect.DeepEqual(rules, want) {
		t.Errorf("findings %v, want %v", rules, want)
	}
	// The unknown key's hint names a guess only when there is one.
	rw = rewrite(t, manifest(v1Engines, `"peerDependencies": {"openwop.webhooks.inbound": "x"}`))
	if len(rw.Findings) != 1 || !strings.Contains(rw.Findings[0].Hint, `"webhooks"`) {
		t.Errorf("want a hint naming the family webhooks: %+v", rw.Findings)
	}
}

func TestRewriteEngines(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		">=1.0.0 <2.0.0":  ">=1.0.0 <3.0.0",
		">=1.1.0 <2.0.0":  ">=1.1.0 <3.0.0",
		">=1.1":           ">=1.1.0 <3.0.0",
		">=1":             ">=1.0.0 <3.0.0",
		">= 1.2.3 < 2":    ">=1.2.3 <3.0.0",
		">=1.0.0 <2.0":    ">=1.0.0 <3.0.0",
		">=1.0.0<2.0.0":   ">=1.0.0 <3.0.0",
		">=1.0.0 <5.0.0":  ">=1.0.0 <5.0.0",
		">= 1.0.0 <3.0.0": ">=1.0.0 <3.0.0",
		">=2.0.0":         ">=2.0.0 <3.0.0",
		">=0.9.0 <2.0.0":  ">=0.9.0 <3.0.0",
		">=1.01.0":        ">=1.1.0 <3.0.0",
		"^1.2.0":          ">=1.2.0 <3.0.0",
		"^1":              ">=1.0.0 <3.0.0",
		"1.x":             ">=1.0.0 <3.0.0",
		"1.*":             ">=1.0.0 <3.0.0",
		"1":               ">=1.0.0 <3.0.0",
		"v1.x.x":          ">=1.0.0 <3.0.0",
		"2.x":             ">=2.0.0 <3.0.0",
	}
	for in, want := range ok {
		got, why := rewriteEngines(in)
		if got != want || why != "" {
			t.Errorf("%q: got %q (%s), want %q", in, got, why, want)
		}
		if !admitsV2(got) {
			t.Errorf("%q: %q does not admit v2", in, got)
		}
	}
	for _, in := range []string{">=1.0.0 <1.5.0", "~1.2.0", "*", "", ">=1.0.0-rc.1", ">=1.0.0 <2.0.0 || >=3", "^0.9.0", ">=0.1.0 <1.0.0",
		">=3.0.0", "3.x", ">=1.0.0 <=2.0.0", ">1.0.0", "1.2.3", "<2.0.0", ">=2.0.0 <2.0.0"} {
		if got, why := rewriteEngines(in); why == "" {
			t.Errorf("%q: rewritten to %q, want a refusal", in, got)
		}
	}
}

// TestRoleNotInferred: agents without role get none, and a note says so;
// agents with one are not mentioned.
func TestRoleNotInferred(t *testing.T) {
	t.Parallel()
	src := manifest(v1Engines, `"agents": [{"agentId": "vendor.acme.x.a", "persona": "p", "modelClass": "general", "handoff": {}}, {"agentId": "vendor.acme.x.b", "role": "assistant"}]`)
	rw := rewrite(t, src)
	if strings.Contains(string(rw.Out), `"role": "skill"`) || strings.Count(string(rw.Out), `"role"`) != 1 {
		t.Errorf("a role was added:\n%s", rw.Out)
	}
	var roles []string
	for _, n := range rw.Notes {
		if strings.Contains(n, "role") {
			roles = append(roles, n)
		}
	}
	if len(roles) != 1 || !strings.Contains(roles[0], "vendor.acme.x.a") || strings.Contains(roles[0], "vendor.acme.x.b") || !strings.Contains(roles[0], "RFC 0131") {
		t.Errorf("notes %q", rw.Notes)
	}
	if rw := rewrite(t, manifest(v2Engines, `"agents": [{"agentId": "vendor.acme.x.b", "role": "skill"}]`)); len(rw.Notes) != 0 {
		t.Errorf("notes without a reason: %q", rw.Notes)
	}
}

func TestManifestNotJSON(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"{", "[]", ""} {
		if _, err := Manifest([]byte(src), "pack.json"); err == nil {
			t.Errorf("%q: want an error", src)
		}
	}
}

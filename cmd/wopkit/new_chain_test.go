package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// TestNewDeclarativePack: `new pack --set kind=K --yes` writes each
// declarative kind's pack, v2 and (where the kind has one) v1, that
// validates strictly with no warning, packs, signs v2 (the default for a v2
// pack) or manual (v1) and verifies with wopkit, and for v2 with openssl
// over the in-tarball pack.json (a changed byte is refused); answers the
// validator refuses exit 1 naming the answer, writing nothing.
func TestNewDeclarativePack(t *testing.T) {
	t.Parallel()
	key := filepath.Join(t.TempDir(), "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	both := []string{"v2", "v1"}
	type refusal struct{ set, want []string }
	for _, k := range []struct {
		kind, name string
		specs      []string
		set        []string                       // more --set KEY=VALUE
		tarball    func(t *testing.T, tgz string) // more checks of the signed tarball
		refused    []refusal                      // --set answers (or --spec) refused, and the words that say why
	}{
		{kind: "workflow-chain", name: "vendor.acme.chains", specs: both,
			set: []string{"chain.id=digest", "chain.steps.1.typeId=vendor.acme.tools.digest", `dependencies={"vendor.acme.tools": "^1.0.0"}`}},
		{kind: "prompt", name: "vendor.acme.prompts", specs: both, set: []string{"prompts.1.text=Summarize {{text}} in a {{tone}} tone."},
			refused: []refusal{{[]string{"prompts.1.text=For {{audience}}."}, []string{"prompts.1.variables: the text uses {{audience}}", "hint: add a variable named audience"}}}},
		{kind: "connection", name: "vendor.acme.connections.github", specs: []string{"v2"},
			set:     []string{"provider.id=github", "provider.displayName=GitHub", "provider.category=dev"},
			refused: []refusal{{[]string{"--spec", "v1"}, []string{"only in spec v2"}}, {[]string{"provider.auth.issuer="}, []string{"provider.auth: ", "issuer"}}}},
		{kind: "card", name: "vendor.acme.cards", specs: both, set: []string{"card.id=brief", "card.inputs.1.default=detailed"},
			refused: []refusal{{[]string{"card.template=Summarize {{source}}."}, []string{"cards.0.inputs.1: ", "never uses"}}}},
		{kind: "form-content", name: "vendor.acme.forms", specs: both,
			set: []string{"form.fields.3.id=topic", "form.fields.3.type=select", "form.fields.3.label=Topic", "form.fields.3.options=sales,support",
				"form.fields.3.format=", "form.fields.3.required=false"},
			refused: []refusal{{[]string{"form.fields.1.id=name"}, []string{"templates.0.fields.1.id: "}}}},
		// the pack and the type's schema, in the tarball
		{kind: "artifact-type", name: "vendor.acme.artifacts", specs: both, set: []string{"type.id=brief", "type.validation=closed"},
			tarball: func(t *testing.T, tgz string) {
				if sch := fixtures.File(t, tgz, "schemas/vendor.acme.artifacts.brief.schema.json"); !strings.Contains(string(sch), `"additionalProperties":false`) &&
					!strings.Contains(string(sch), `"additionalProperties": false`) {
					t.Errorf("the closed type's schema in the tarball:\n%s", sch)
				}
			},
			refused: []refusal{{[]string{"type.required=author"}, []string{"artifactTypes.0.required: "}}}},
	} {
		t.Run(k.kind, func(t *testing.T) {
			for _, spec := range k.specs {
				t.Run(spec, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "pack")
					args := []string{"new", "pack", "--yes", "--spec", spec, "--dir", dir, "--set", "kind=" + k.kind, "--set", "name=" + k.name}
					for _, s := range k.set {
						args = append(args, "--set", s)
					}
					if out, errOut, code := runCmd(t, args...); code != 0 {
						t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
					}
					for _, f := range []string{"pack.json", "README.md", "LICENSE", ".openwopignore"} {
						if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
							t.Errorf("%s not written: %v", f, err)
						}
					}
					if out, errOut, code := strictBarPlaceholders(t, dir); code != 0 || !strings.Contains(out, "0 error(s)") {
						t.Fatalf("validate --strict: exit %d\n%s%s", code, out, errOut)
					}
					out, errOut, code := runCmd(t, "validate", "--json", dir) // --strict adds the placeholders (PH001)
					if code != 0 {
						t.Fatalf("validate --strict --json: exit %d\n%s%s", code, out, errOut)
					}
					var rep struct {
						Files []struct {
							Kind     string `json:"kind"`
							Errors   []any  `json:"errors"`
							Warnings []any  `json:"warnings"`
						} `json:"files"`
					}
					if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Files) != 1 {
						t.Fatalf("validate --json: %v\n%s", err, out)
					}
					if f := rep.Files[0]; f.Kind != k.kind+"-pack" || len(f.Errors)+len(f.Warnings) != 0 {
						t.Errorf("validated as %s with %d errors, %d warnings:\n%s", f.Kind, len(f.Errors), len(f.Warnings), out)
					}
					method, block := "v2", `"signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"}`
					if spec == "v1" {
						method, block = "manual", `"signing":{"method":"manual","publicKeyRef":"me-1","signatureRef":"keys/pack.json.sig"}`
					}
					tgz := filepath.Join(t.TempDir(), "pack.tgz")
					if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
						t.Fatalf("pack --sign %s: exit %d\n%s%s", method, code, out, errOut)
					}
					pj := fixtures.File(t, tgz, "pack.json")
					if !strings.Contains(string(pj), block) || !strings.Contains(string(pj), `"kind":"`+k.kind+`"`) {
						t.Fatalf("pack.json in the tarball lacks the %s block or the kind:\n%s", spec, pj)
					}
					if k.tarball != nil {
						k.tarball(t, tgz)
					}
					if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
						t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
					}
					if spec == "v2" {
						opensslVerify(t, key+".pub", pj, fixtures.File(t, tgz, "keys/pack.json.sig"), k.name)
					}
				})
			}
			for _, r := range k.refused {
				dir := filepath.Join(t.TempDir(), "x")
				args := []string{"new", "pack", "--yes", "--set", "kind=" + k.kind, "--dir", dir}
				for i := 0; i < len(r.set); i++ {
					if r.set[i] == "--spec" {
						args = append(args, r.set[i], r.set[i+1])
						i++
						continue
					}
					args = append(args, "--set", r.set[i])
				}
				_, errOut, code := runCmd(t, args...)
				if code != 1 {
					t.Errorf("%v: exit %d, want 1\n%s", r.set, code, errOut)
				}
				for _, w := range r.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("%v: the error does not say %q:\n%s", r.set, w, errOut)
					}
				}
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("%v wrote %s", r.set, dir)
				}
			}
		})
	}
}

// opensslVerify checks a v2 signature over pack.json with openssl (skips
// without it), and that openssl refuses it over pack.json with word
// changed (the check can fail).
func opensslVerify(t *testing.T, pub string, pj, sig []byte, word string) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed: skipping the independent signature check")
	}
	x := t.TempDir()
	pjPath, sigPath := filepath.Join(x, "pack.json"), filepath.Join(x, "sig")
	if err := os.WriteFile(pjPath, pj, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sigPath, sig, 0o644); err != nil {
		t.Fatal(err)
	}
	verify := func() ([]byte, error) {
		return exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput()
	}
	if out, err := verify(); err != nil {
		t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
	}
	changed := strings.Replace(string(pj), word, strings.ToUpper(word[:1])+word[1:], 1)
	if err := os.WriteFile(pjPath, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := verify(); err == nil {
		t.Error("openssl accepts the signature over a changed pack.json")
	}
}

// TestNewChainPackAnswers: the kind comes from --set or --values; answers
// the validator refuses exit 1 naming the answer, writing nothing; a kind
// wopkit cannot scaffold is a usage error.
func TestNewChainPackAnswers(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	values := filepath.Join(tmp, "answers.json")
	if err := os.WriteFile(values, []byte(`{"kind": "workflow-chain", "name": "vendor.acme.v", "chains": [{"id": "one", "version": "1.0.0",
		"label": "One", "description": "One step.", "parameters": [{"name": "topic", "type": "string", "required": true}],
		"steps": [{"id": "ask", "typeId": "core.ai.callPrompt", "params": ["topic"]}], "outputs": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "v")
	if out, errOut, code := runCmd(t, "new", "pack", "--values", values, "--dir", dir); code != 0 {
		t.Fatalf("new --values: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil || !strings.Contains(string(b), `"chainId": "vendor.acme.v.one"`) || !strings.Contains(string(b), `"topic": "{{params.topic}}"`) {
		t.Fatalf("pack.json from --values: %v\n%s", err, b)
	}
	if out, errOut, code := strictBarPlaceholders(t, dir); code != 0 {
		t.Errorf("validate --strict: exit %d\n%s%s", code, out, errOut)
	}

	bad := filepath.Join(tmp, "bad")
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=workflow-chain", "--set", "chain.parameters.0.name=page", "--dir", bad)
	if code != 1 || !strings.Contains(errOut, `chains.0.parameters.0: parameter "page" is declared but no {{params.page}} uses it`) ||
		!strings.Contains(errOut, `chains.0.steps.0.params: {{params.url}} is used but the chain declares no parameter "url"`) {
		t.Errorf("unused parameter: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("refused answers wrote %s", bad)
	}
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=frontend-plugin", "--dir", filepath.Join(tmp, "c")); code != 2 || !strings.Contains(errOut, "workflow-chain") {
		t.Errorf("kind=frontend-plugin: exit %d, want 2 naming the kinds\n%s", code, errOut)
	}
	// kind=node is the node pack, as without it
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=node", "--dir", filepath.Join(tmp, "n"), "--dry-run"); code != 0 || !strings.Contains(out, "index.mjs") {
		t.Errorf("kind=node: exit %d\n%s%s", code, out, errOut)
	}
}

// TestNewDeclarativePacksPublish: a scaffolded chain pack and prompt pack,
// signed v2, pass the registry's publish gate into the v2 tree of a
// registry root (the live registry's discovery document, with the test's
// key active for vendor.acme.*), and verify against that registry.
func TestNewDeclarativePacksPublish(t *testing.T) {
	t.Parallel()
	disc, err := os.ReadFile(filepath.Join(fixtures.SpecV2(t), "registry", ".well-known", "openwop-registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(disc, &d); err != nil {
		t.Fatal(err)
	}
	d["signingKeys"] = []map[string]any{{"keyId": "acme-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/acme-1.pub",
		"permittedNamespaces": []string{"vendor.acme.*"}, "operator": "acme", "status": "active"}}
	root, tmp := t.TempDir(), t.TempDir()
	key := filepath.Join(tmp, "acme")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	b, _ := json.Marshal(d)
	pub, _ := os.ReadFile(key + ".pub")
	for rel, data := range map[string][]byte{".well-known/openwop-registry.json": b, "keys/acme-1.pub": pub} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, kind := range []string{"workflow-chain", "prompt", "connection", "card", "form-content", "artifact-type"} {
		name := "vendor.acme." + strings.ReplaceAll(kind, "-", "")
		dir := filepath.Join(tmp, kind)
		if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind="+kind, "--set", "name="+name, "--dir", dir); code != 0 {
			t.Fatalf("new %s: exit %d\n%s%s", kind, code, out, errOut)
		}
		tgz := filepath.Join(tmp, name+"-0.1.0.tgz")
		if out, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key+".key", "--key-id", "acme-1", "-o", tgz); code != 0 {
			t.Fatalf("pack %s: exit %d\n%s%s", kind, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "publish", tgz, "--registry", root); code != 0 {
			t.Fatalf("publish %s: exit %d\n%s%s", kind, code, out, errOut)
		}
		staged := filepath.Join(root, "v2", "packs", name, "-", "0.1.0.tgz")
		out, errOut, code := runCmd(t, "verify", staged, "--registry", root, "--json")
		if code != 0 || !strings.Contains(out, `"integrityChecked":true`) {
			t.Fatalf("verify %s against the registry: exit %d\n%s%s", kind, code, out, errOut)
		}
		idx, err := os.ReadFile(filepath.Join(root, "v2", "packs", name, "index.json"))
		if err != nil || !strings.Contains(string(idx), `"kind": "`+kind+`"`) {
			t.Errorf("per-pack index of %s: %v\n%s", kind, err, idx)
		}
	}
}

// TestNewChainIntoPack: `new chain --pack DIR` appends a chain to a
// workflow-chain pack, keeping the rest of pack.json byte for byte; the pack
// stays strictly valid; a repeat, a node pack and --dir are refused.
func TestNewChainIntoPack(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "chains")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=workflow-chain", "--set", "name=vendor.acme.chains", "--dir", dir); code != 0 {
		t.Fatalf("new pack: exit %d\n%s%s", code, out, errOut)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	out, errOut, code := runCmd(t, "new", "chain", "--pack", dir, "--set", "id=digest", "--set", "steps.1.typeId=vendor.acme.tools.digest")
	if code != 0 || !strings.Contains(out, "updated") {
		t.Fatalf("new chain: exit %d\n%s%s", code, out, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	cut := strings.LastIndex(string(before), "\n    }\n  ]")
	if cut < 0 || !strings.HasPrefix(string(after), string(before[:cut])) || !strings.Contains(string(after), `"chainId": "vendor.acme.chains.digest"`) {
		t.Errorf("pack.json after new chain:\n%s", after)
	}
	if out, errOut, code := strictBarPlaceholders(t, dir); code != 0 {
		t.Errorf("validate --strict: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCmd(t, "new", "chain", "--pack", dir, "--set", "id=digest"); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("repeated chain: exit %d\n%s", code, errOut)
	}
	node := filepath.Join(tmp, "node")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", node); code != 0 {
		t.Fatalf("new node pack: exit %d %s", code, errOut)
	}
	if _, errOut, code := runCmd(t, "new", "chain", "--pack", node); code != 1 || !strings.Contains(errOut, "workflow-chain pack") {
		t.Errorf("chain into a node pack: exit %d\n%s", code, errOut)
	}
	if _, _, code := runCmd(t, "new", "chain", "--pack", dir, "--dir", tmp); code != 2 {
		t.Errorf("--dir with new chain: exit %d, want 2", code)
	}
}

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

// TestNewChainPack: `new pack --set kind=workflow-chain --yes` writes a
// chain pack that validates strictly with no warning, packs, signs v2 (the
// default for a v2 pack), verifies with wopkit and with openssl over the
// in-tarball pack.json; with --spec v1 it signs manual and verifies.
func TestNewChainPack(t *testing.T) {
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	for _, spec := range []string{"v2", "v1"} {
		t.Run(spec, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "chains")
			out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--dir", dir, "--set", "kind=workflow-chain",
				"--set", "name=vendor.acme.chains", "--set", "chain.id=digest", "--set", "chain.steps.1.typeId=vendor.acme.tools.digest",
				"--set", `dependencies={"vendor.acme.tools": "^1.0.0"}`)
			if code != 0 {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			for _, f := range []string{"pack.json", "README.md", "LICENSE", ".openwopignore"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s not written: %v", f, err)
				}
			}
			out, errOut, code = runCmd(t, "validate", "--strict", "--json", dir)
			if code != 0 {
				t.Fatalf("validate --strict: exit %d\n%s%s", code, out, errOut)
			}
			var rep struct {
				Files []struct {
					Kind     string `json:"kind"`
					Spec     string `json:"spec"`
					Errors   []any  `json:"errors"`
					Warnings []any  `json:"warnings"`
				} `json:"files"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Files) != 1 {
				t.Fatalf("validate --json: %v\n%s", err, out)
			}
			if f := rep.Files[0]; f.Kind != "workflow-chain-pack" || len(f.Errors)+len(f.Warnings) != 0 {
				t.Errorf("validated as %s with %d errors, %d warnings:\n%s", f.Kind, len(f.Errors), len(f.Warnings), out)
			}
			method, block := "v2", `"signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"}`
			if spec == "v1" {
				method, block = "manual", `"signing":{"method":"manual","publicKeyRef":"me-1","signatureRef":"keys/pack.json.sig"}`
			}
			tgz := filepath.Join(t.TempDir(), "chains.tgz")
			if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
				t.Fatalf("pack --sign %s: exit %d\n%s%s", method, code, out, errOut)
			}
			pj := fixtures.File(t, tgz, "pack.json")
			if !strings.Contains(string(pj), block) || !strings.Contains(string(pj), `"kind":"workflow-chain"`) {
				t.Fatalf("pack.json in the tarball lacks the %s block or the kind:\n%s", spec, pj)
			}
			if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
			}
			if spec != "v2" {
				return
			}
			if _, err := exec.LookPath("openssl"); err != nil {
				t.Skip("openssl not installed: skipping the independent signature check")
			}
			x := t.TempDir()
			pjPath, sigPath := filepath.Join(x, "pack.json"), filepath.Join(x, "sig")
			if err := os.WriteFile(pjPath, pj, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(sigPath, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644); err != nil {
				t.Fatal(err)
			}
			verify := func() ([]byte, error) {
				return exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key+".pub", "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput()
			}
			if out, err := verify(); err != nil {
				t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
			}
			// the check can fail: one byte changed in pack.json
			if err := os.WriteFile(pjPath, []byte(strings.Replace(string(pj), "digest", "digesT", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := verify(); err == nil {
				t.Error("openssl accepts the signature over a changed pack.json")
			}
		})
	}
}

// TestNewChainPackAnswers: the kind comes from --set or --values; answers
// the validator refuses exit 1 naming the answer, writing nothing; a kind
// wopkit cannot scaffold is a usage error.
func TestNewChainPackAnswers(t *testing.T) {
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
	if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 {
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

// TestNewPromptPack: `new pack --set kind=prompt --yes` writes a prompt
// pack that validates strictly with no warning, signs v2 and verifies with
// wopkit and openssl; --spec v1 signs manual and verifies.
func TestNewPromptPack(t *testing.T) {
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	for _, spec := range []string{"v2", "v1"} {
		t.Run(spec, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "prompts")
			out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--dir", dir, "--set", "kind=prompt",
				"--set", "name=vendor.acme.prompts", "--set", "prompts.1.text=Summarize {{text}} in a {{tone}} tone.")
			if code != 0 {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 || !strings.Contains(out, "0 error(s), 0 warning(s)") {
				t.Fatalf("validate --strict: exit %d\n%s%s", code, out, errOut)
			}
			method := map[string]string{"v2": "v2", "v1": "manual"}[spec]
			tgz := filepath.Join(t.TempDir(), "prompts.tgz")
			if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
				t.Fatalf("pack --sign %s: exit %d\n%s%s", method, code, out, errOut)
			}
			if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
			}
			pj := fixtures.File(t, tgz, "pack.json")
			if !strings.Contains(string(pj), `"kind":"prompt"`) {
				t.Fatalf("in-tarball pack.json:\n%s", pj)
			}
			if spec != "v2" {
				return
			}
			if _, err := exec.LookPath("openssl"); err != nil {
				t.Skip("openssl not installed: skipping the independent signature check")
			}
			x := t.TempDir()
			pjPath, sigPath := filepath.Join(x, "pack.json"), filepath.Join(x, "sig")
			if err := os.WriteFile(pjPath, pj, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(sigPath, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key+".pub", "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput(); err != nil {
				t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
			}
		})
	}
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=prompt", "--set", "prompts.1.text=For {{audience}}.", "--dir", filepath.Join(t.TempDir(), "p"))
	if code != 1 || !strings.Contains(errOut, "prompts.1.text: {{audience}} has no variables[] entry") {
		t.Errorf("undeclared variable: exit %d\n%s", code, errOut)
	}
}

// TestNewDeclarativePacksPublish: a scaffolded chain pack and prompt pack,
// signed v2, pass the registry's publish gate into the v2 tree of a
// registry root (the live registry's discovery document, with the test's
// key active for vendor.acme.*), and verify against that registry.
func TestNewDeclarativePacksPublish(t *testing.T) {
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
	if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 {
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

// TestNewConnectionPack: `new pack --set kind=connection --yes` writes a
// connection pack that validates strictly, signs v2 and verifies with
// wopkit and openssl; --spec v1 is refused with the reason, writing nothing.
func TestNewConnectionPack(t *testing.T) {
	tmp := t.TempDir()
	key := filepath.Join(tmp, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	dir := filepath.Join(tmp, "github")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=connection", "--set", "name=vendor.acme.connections.github",
		"--set", "provider.id=github", "--set", "provider.displayName=GitHub", "--set", "provider.category=dev", "--dir", dir); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 || !strings.Contains(out, "0 error(s), 0 warning(s)") {
		t.Fatalf("validate --strict: exit %d\n%s%s", code, out, errOut)
	}
	tgz := filepath.Join(tmp, "github.tgz")
	if out, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := exec.LookPath("openssl"); err == nil {
		pjPath, sigPath := filepath.Join(tmp, "pack.json"), filepath.Join(tmp, "sig")
		os.WriteFile(pjPath, fixtures.File(t, tgz, "pack.json"), 0o644)
		os.WriteFile(sigPath, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644)
		if out, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key+".pub", "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput(); err != nil {
			t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
		}
	}
	v1 := filepath.Join(tmp, "v1")
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", "v1", "--set", "kind=connection", "--dir", v1)
	if code != 1 || !strings.Contains(errOut, "only in spec v2") {
		t.Errorf("--spec v1: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(v1); !os.IsNotExist(err) {
		t.Errorf("--spec v1 wrote %s", v1)
	}
	_, errOut, code = runCmd(t, "new", "pack", "--yes", "--set", "kind=connection", "--set", "provider.auth.issuer=", "--dir", filepath.Join(tmp, "x"))
	if code != 1 || !strings.Contains(errOut, "provider.auth: ") || !strings.Contains(errOut, "issuer") {
		t.Errorf("no issuer: exit %d\n%s", code, errOut)
	}
}

// TestNewCardPack: `new pack --set kind=card` writes a card pack (v2 and
// v1) that validates strictly, signs and verifies; an unused input is
// refused in the validator's words.
func TestNewCardPack(t *testing.T) {
	tmp := t.TempDir()
	key := filepath.Join(tmp, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	for _, spec := range []string{"v2", "v1"} {
		dir := filepath.Join(tmp, "cards-"+spec)
		if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--set", "kind=card", "--set", "name=vendor.acme.cards",
			"--set", "card.id=brief", "--set", "card.inputs.1.default=detailed", "--dir", dir); code != 0 {
			t.Fatalf("new %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 || !strings.Contains(out, "0 error(s), 0 warning(s)") {
			t.Fatalf("validate --strict %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		method := map[string]string{"v2": "v2", "v1": "manual"}[spec]
		tgz := filepath.Join(tmp, spec+".tgz")
		if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
			t.Fatalf("pack %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
			t.Fatalf("verify %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if spec == "v2" {
			if _, err := exec.LookPath("openssl"); err == nil {
				pjPath, sigPath := filepath.Join(tmp, "pack.json"), filepath.Join(tmp, "sig")
				os.WriteFile(pjPath, fixtures.File(t, tgz, "pack.json"), 0o644)
				os.WriteFile(sigPath, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644)
				if out, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", key+".pub", "-rawin", "-in", pjPath, "-sigfile", sigPath).CombinedOutput(); err != nil {
					t.Fatalf("openssl refuses the v2 signature: %v\n%s", err, out)
				}
			}
		}
	}
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=card", "--set", "card.template=Summarize {{source}}.", "--dir", filepath.Join(tmp, "x"))
	if code != 1 || !strings.Contains(errOut, "cards.0.inputs.1: ") || !strings.Contains(errOut, "never uses") {
		t.Errorf("unused input: exit %d\n%s", code, errOut)
	}
}

// TestNewFormPack: `new pack --set kind=form-content` with --spec v1 and
// v2 validates strictly, signs (manual, v2) and verifies; a repeated field
// id is refused naming the field.
func TestNewFormPack(t *testing.T) {
	tmp := t.TempDir()
	key := filepath.Join(tmp, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	for _, spec := range []string{"v2", "v1"} {
		dir := filepath.Join(tmp, "forms-"+spec)
		if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--set", "kind=form-content", "--set", "name=vendor.acme.forms",
			"--set", "form.fields.3.id=topic", "--set", "form.fields.3.type=select", "--set", "form.fields.3.label=Topic",
			"--set", "form.fields.3.options=sales,support", "--set", "form.fields.3.format=", "--set", "form.fields.3.required=false", "--dir", dir); code != 0 {
			t.Fatalf("new %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 || !strings.Contains(out, "0 error(s), 0 warning(s)") {
			t.Fatalf("validate --strict %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		method := map[string]string{"v2": "v2", "v1": "manual"}[spec]
		tgz := filepath.Join(tmp, spec+".tgz")
		if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
			t.Fatalf("pack %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
			t.Fatalf("verify %s: exit %d\n%s%s", spec, code, out, errOut)
		}
	}
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=form-content", "--set", "form.fields.1.id=name", "--dir", filepath.Join(tmp, "x"))
	if code != 1 || !strings.Contains(errOut, "templates.0.fields.1.id: ") {
		t.Errorf("repeated field id: exit %d\n%s", code, errOut)
	}
}

// TestNewArtifactPack: `new pack --set kind=artifact-type` writes the pack
// and the type's schema; v2 and v1 validate strictly, sign and verify, and
// the schema file is in the tarball.
func TestNewArtifactPack(t *testing.T) {
	tmp := t.TempDir()
	key := filepath.Join(tmp, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	for _, spec := range []string{"v2", "v1"} {
		dir := filepath.Join(tmp, "artifacts-"+spec)
		if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--set", "kind=artifact-type", "--set", "name=vendor.acme.artifacts",
			"--set", "type.id=brief", "--set", "type.validation=closed", "--dir", dir); code != 0 {
			t.Fatalf("new %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if out, errOut, code := runCmd(t, "validate", "--strict", dir); code != 0 || !strings.Contains(out, "0 error(s), 0 warning(s)") {
			t.Fatalf("validate --strict %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		method := map[string]string{"v2": "v2", "v1": "manual"}[spec]
		tgz := filepath.Join(tmp, spec+".tgz")
		if out, errOut, code := runCmd(t, "pack", dir, "--sign", method, "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
			t.Fatalf("pack %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		if sch := fixtures.File(t, tgz, "schemas/vendor.acme.artifacts.brief.schema.json"); !strings.Contains(string(sch), `"additionalProperties":false`) &&
			!strings.Contains(string(sch), `"additionalProperties": false`) {
			t.Errorf("the closed type's schema in the tarball:\n%s", sch)
		}
		if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
			t.Fatalf("verify %s: exit %d\n%s%s", spec, code, out, errOut)
		}
	}
	_, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "kind=artifact-type", "--set", "type.required=author", "--dir", filepath.Join(tmp, "x"))
	if code != 1 || !strings.Contains(errOut, "artifactTypes.0.required: ") {
		t.Errorf("required not a property: exit %d\n%s", code, errOut)
	}
}

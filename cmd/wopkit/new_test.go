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

// checkTarList lists the tarball with GNU tar and checks that it holds the
// runtime entry and every file pack.json references, and no test files.
func checkTarList(t *testing.T, tgz, dir string) {
	t.Helper()
	if _, err := exec.LookPath("tar"); err != nil {
		t.Log("tar is not installed: not listing the tarball")
		return
	}
	out, err := exec.Command("tar", "-tzf", tgz).CombinedOutput()
	if err != nil {
		t.Fatalf("tar -tzf: %v\n%s", err, out)
	}
	list := "\n" + string(out)
	var m struct {
		Runtime struct{ Language, Entry string }
		Nodes   []map[string]any
		Agents  []map[string]any
	}
	b, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want := []string{"pack.json", "README.md", "LICENSE", "keys/pack.json.sig"}
	if m.Runtime.Language != "remote" {
		want = append(want, m.Runtime.Entry)
	}
	for _, e := range append(m.Nodes, m.Agents...) {
		for k, v := range e {
			if s, ok := v.(string); ok && (strings.HasSuffix(k, "Ref")) {
				want = append(want, s)
			}
		}
		if h, ok := e["handoff"].(map[string]any); ok {
			want = append(want, h["taskSchemaRef"].(string), h["returnSchemaRef"].(string))
		}
	}
	for _, w := range want {
		if !strings.Contains(list, "\n"+w+"\n") {
			t.Errorf("tarball lacks %s:%s", w, list)
		}
	}
	for _, never := range []string{"index.test.mjs", "test_main.py", "main_test.go", ".openwopignore"} {
		if strings.Contains(list, "\n"+never+"\n") {
			t.Errorf("tarball holds %s", never)
		}
	}
	if strings.Contains(list, "\ntests/") {
		t.Errorf("tarball holds the stored cases (tests/):%s", list)
	}
}

// TestNewPackValidatePackSign scaffolds a pack for every runtime and option
// through the command line, then validates it strictly, packs it signed
// with a key generated here, and verifies the tarball.
func TestNewPackValidatePackSign(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	key := filepath.Join(keys, "me")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, errOut)
	}
	agentOpts := map[string][]string{
		"no-agent":     nil,
		"agent":        {"--set", "agent.id=writer", "--set", "agent.modelClass=writing"},
		"agent-inline": {"--set", "agent.id=greeter", "--set", "agent.systemPromptInline=true", "--set", "agent.systemPrompt=Greet."},
		"agent-bare":   {"--set", "agent.id=bare", "--set", "agent.handoff=false", "--set", "agent.confidence=-1"},
		"agent-eval":   {"--set", "agent.id=writer", "--set", "agent.eval=true"},
		"agent-rubric": {"--set", "agent.id=judge", "--set", "agent.eval.modes=golden,rubric", "--set", "agent.eval.tasks.1.id=polite", "--set", "agent.eval.tasks.1.kind=rubric", "--set", "agent.eval.tasks.1.criteria=is polite,is short"},
		"license-mit":  {"--set", "license=MIT", "--set", "author=Acme"},
		"two-nodes":    {"--set", "nodes.1.id=merge", "--set", "nodes.1.inputs=left,right", "--set", "nodes.1.outputs=joined"},
	}
	cases := map[string][]string{}
	for _, lang := range []string{"javascript", "python", "go", "wasm", "remote"} {
		for opt, sets := range agentOpts {
			if lang == "remote" && (opt == "no-agent" || opt == "two-nodes") {
				continue
			}
			cases[lang+"/"+opt] = append([]string{"--set", "runtime.language=" + lang}, sets...)
		}
	}
	for name, sets := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hello")
			args := append([]string{"new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"}, sets...)
			if out, errOut, code := runCmd(t, args...); code != 0 || !strings.Contains(out, "created "+filepath.Join(dir, "pack.json")) {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			if out, errOut, code := strictBarPlaceholders(t, dir); code != 0 {
				t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
			}
			tgz := filepath.Join(t.TempDir(), "hello.tgz")
			// A v2 pack is signed v2 (--sign manual of a v2 pack is refused).
			if out, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key+".key", "--key-id", "me-1", "-o", tgz); code != 0 {
				t.Fatalf("pack --sign v2: exit %d\n%s%s", code, out, errOut)
			}
			if out, errOut, code := runCmd(t, "verify", tgz, "--key", key+".pub"); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
			}
			checkTarList(t, tgz, dir)
		})
	}
}

// TestNewIntoPack adds an agent, a node and an eval suite through the
// command line, then packs and signs the result.
func TestNewIntoPack(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	steps := [][]string{
		{"new", "pack", "--yes", "--dir", dir, "--set", "name=vendor.acme.hello"},
		{"new", "agent", "--pack", dir, "--set", "id=writer", "--set", "modelClass=writing"},
		{"new", "agent", "--pack", dir, "--set", "id=greeter", "--set", "systemPrompt=Greet the user warmly."},
		{"new", "node", "--pack", dir, "--set", "id=shout", "--set", "inputs=message", "--set", "outputs=message,length"},
		{"new", "eval", "--pack", dir, "--set", "targetAgentId=writer"},
	}
	for _, args := range steps {
		if out, errOut, code := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	if out, errOut, code := strictBarPlaceholders(t, dir); code != 0 {
		t.Fatalf("validate --strict: exit %d\n%s%s", code, out, errOut)
	}
	pj, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	for _, want := range []string{`"systemPrompt": "Greet the user warmly."`, `"evalSuiteRef": "evals/writer.json"`, `"typeId": "vendor.acme.hello.shout"`} {
		if !strings.Contains(string(pj), want) {
			t.Errorf("pack.json lacks %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "prompts", "greeter.md")); err == nil {
		t.Error("an inline prompt was also written to a file")
	}
	key := filepath.Join(t.TempDir(), "k")
	runCmd(t, "keygen", "--out", key)
	if out, errOut, code := runCmd(t, "pack", dir, "--sign", "v2", "--key", key+".key", "--key-id", "k-1", "-o", filepath.Join(t.TempDir(), "x.tgz")); code != 0 {
		t.Fatalf("pack: exit %d\n%s%s", code, out, errOut)
	}
}

// TestNewDryRun lists the plan and writes nothing.
func TestNewDryRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "d")
	out, errOut, code := runCmd(t, "new", "pack", "--yes", "--dry-run", "--dir", dir, "--set", "runtime.language=python")
	if code != 0 || !strings.Contains(out, "would create "+filepath.Join(dir, "main.py")) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("--dry-run wrote the pack")
	}
}

// TestNewRefusals checks exit codes and messages of refused answers.
func TestNewRefusals(t *testing.T) {
	// Serial, outside wopkit's source tree: a `new` without --dir run from
	// the source tree moves the process into ~/openwop-packs (new_source.go),
	// which broke the parallel tests reading testdata/ by relative path.
	t.Chdir(t.TempDir())
	dir := filepath.Join(t.TempDir(), "p")
	if _, errOut, code := runCmd(t, "new", "pack", "--yes", "--dir", dir); code != 0 {
		t.Fatal(errOut)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new", "pack", "--yes", "--dir", t.TempDir() + "/x", "--set", "name=Hello World"}, 1, "reverse-DNS"},
		{[]string{"new", "pack", "--yes", "--dir", dir}, 1, "--force"},
		{[]string{"new", "pack", "--yes", "--set", "colour=red"}, 2, "known keys"},
		{[]string{"new", "pack", "--yes", "--set", "name"}, 2, "KEY=VALUE"},
		{[]string{"new", "pack", "--pack", dir}, 2, "--pack"},
		{[]string{"new", "agent", "--pack", dir, "--dir", dir}, 2, "--dir"},
		{[]string{"new", "node", "--dir", dir}, 2, "--dir"},
		{[]string{"new", "widget"}, 2, "use one of"},
		{[]string{"new", "node", "--pack", dir}, 1, "already exists"},
		{[]string{"new", "agent", "--pack", t.TempDir()}, 1, "pack.json"},
		{[]string{"new", "eval", "--pack", dir}, 1, "has no agent"},
		{[]string{"new", "pack", "--yes", "--values", "/nonexistent.json"}, 3, "cannot read"},
	}
	for _, tt := range tests {
		out, errOut, code := runCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tt.args, code, tt.code, tt.want, out, errOut)
		}
	}
}

// TestNewTool writes a manifest for every runtime kind and install method
// through the command line and validates it strictly.
func TestNewTool(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, kind := range []string{"mcp-stdio", "mcp-http", "python-module", "node-module", "shell-binary", "container"} {
		for _, method := range []string{"pip", "npm", "git", "container", "url", "preinstalled"} {
			id := "t-" + kind + "-" + method
			if out, errOut, code := runCmd(t, "new", "tool", "--yes", "--dir", dir, "--set", "tool.id="+id, "--set", "runtime.kind="+kind, "--set", "install.method="+method); code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", id, code, out, errOut)
			}
			if out, _, code := strictBarPlaceholders(t, filepath.Join(dir, id+".tool.json")); code != 0 {
				t.Errorf("%s: validate exit %d\n%s", id, code, out)
			}
		}
	}
}

// TestToolUpgrade upgrades a copy of the real v0.3 gmail manifest in place
// and to -o; only the version line changes.
func TestToolUpgrade(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(fixtures.Path(t, "tool-manifests", "gmail.v0.3.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "gmail.json")
	os.WriteFile(in, src, 0o640)
	out := filepath.Join(dir, "gmail.v0.4.json")
	if o, e, code := runCmd(t, "tool", "upgrade", in, "-o", out); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, o, e)
	}
	if b, _ := os.ReadFile(in); string(b) != string(src) {
		t.Error("-o changed the input file")
	}
	if o, e, code := runCmd(t, "tool", "upgrade", in); code != 0 {
		t.Fatalf("in place: exit %d\n%s%s", code, o, e)
	}
	a, _ := os.ReadFile(in)
	b, _ := os.ReadFile(out)
	want := strings.Replace(string(src), `"manifest_version": "0.3"`, `"manifest_version": "0.4"`, 1)
	if string(a) != want || string(b) != want {
		t.Error("upgrade changed more than the version line")
	}
	if st, _ := os.Stat(in); st.Mode().Perm() != 0o640 {
		t.Errorf("in-place upgrade changed the mode to %v", st.Mode().Perm())
	}
	if _, _, code := runCmd(t, "validate", "--strict", in); code != 0 {
		t.Error("upgraded manifest does not validate")
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"manifest_version": "0.3", "tool": {}}`), 0o644)
	if _, errOut, code := runCmd(t, "tool", "upgrade", bad); code != 1 || !strings.Contains(errOut, "nothing was written") {
		t.Errorf("invalid upgrade: exit %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(bad); !strings.Contains(string(b), `"0.3"`) {
		t.Error("an invalid upgrade was written")
	}
	if _, _, code := runCmd(t, "tool", "upgrade"); code != 2 {
		t.Errorf("no FILE: exit %d, want 2", code)
	}
}

// TestNewStandalone writes standalone agents and eval suites (no --pack)
// into --dir, validates each with `wopkit validate --strict`, and checks
// that existing files are kept unless --force is given.
func TestNewStandalone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		args  []string
		files []string // the first is validated
	}{
		{[]string{"new", "agent", "--yes"}, []string{"assistant.agent.json", "prompts/assistant.md", "schemas/assistant.task.schema.json"}},
		{[]string{"new", "agent", "--set", "id=vendor.acme.writer", "--set", "modelClass=writing", "--set", "eval=true", "--set", "handoff=false"},
			[]string{"writer.agent.json", "prompts/writer.md", "evals/writer.json"}},
		{[]string{"new", "agent", "--set", "id=vendor.acme.greeter", "--set", "systemPrompt=Greet the user warmly."}, []string{"greeter.agent.json"}},
		{[]string{"new", "eval", "--yes"}, []string{"my-suite.eval.json"}},
		{[]string{"new", "eval", "--set", "targetAgentId=vendor.acme.writer", "--set", "modes=golden,rubric", "--set", "tasks.0.kind=rubric", "--set", "tasks.0.criteria=clear,short"},
			[]string{"writer.eval.json"}},
	}
	for _, tt := range tests {
		args := append(append([]string{}, tt.args...), "--dir", dir)
		out, errOut, code := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		for _, f := range tt.files {
			if !strings.Contains(out, "created "+filepath.Join(dir, filepath.FromSlash(f))) {
				t.Errorf("%v: output lacks %s:\n%s", args, f, out)
			}
		}
		if out, errOut, code := strictBarPlaceholders(t, filepath.Join(dir, tt.files[0])); code != 0 {
			t.Errorf("validate %s: exit %d\n%s%s", tt.files[0], code, out, errOut)
		}
		if _, errOut, code := runCmd(t, args...); code != 1 || !strings.Contains(errOut, "--force") {
			t.Errorf("%v again: exit %d, want 1 naming --force\n%s", args, code, errOut)
		}
		if _, errOut, code := runCmd(t, append(args, "--force")...); code != 0 {
			t.Errorf("%v --force: exit %d\n%s", args, code, errOut)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "greeter.agent.json"))
	if !strings.Contains(string(b), `"systemPrompt": "Greet the user warmly."`) {
		t.Errorf("inline prompt not in the manifest:\n%s", b)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "writer.eval.json"))
	if !strings.Contains(string(b), `"suiteId": "vendor.acme.evals.writer"`) {
		t.Errorf("suiteId not derived from the target:\n%s", b)
	}
	if _, errOut, code := runCmd(t, "new", "agent", "--dir", t.TempDir(), "--set", "id=writer"); code != 1 || !strings.Contains(errOut, "id:") {
		t.Errorf("bare id: exit %d, want 1 naming id\n%s", code, errOut)
	}
}

// Issue 44, item 1: --list-drafts lists the drafts kept (none here: it
// says so), --resume of a draft not kept says how to find them, and
// --resume with --yes is refused as a contradiction.
func TestNewDraftFlags(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	out, _, code := runCmd(t, "new", "--list-drafts")
	if code != 0 || !strings.Contains(out, "no drafts kept") {
		t.Errorf("--list-drafts with none: %d %q", code, out)
	}
	_, errOut, code := runCmd(t, "new", "--resume", "community.acme.none", "--accessible")
	if code != 1 || !strings.Contains(errOut, "--list-drafts") {
		t.Errorf("--resume of no draft: %d %q", code, errOut)
	}
	_, errOut, code = runCmd(t, "new", "--resume", "--yes")
	if code != 2 || !strings.Contains(errOut, "--resume") {
		t.Errorf("--resume --yes: %d %q", code, errOut)
	}
}

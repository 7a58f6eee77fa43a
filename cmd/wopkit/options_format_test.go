package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/report"
)

// annotationSyntax is the workflow command syntax of GitHub's docs
// (::error file={name},line={line},col={col},title={title}::{message}),
// every property value and the message escaped.
var annotationSyntax = regexp.MustCompile(`^::(error|warning|notice)` +
	`( (file|line|endLine|col|endColumn|title)=([^,:\r\n%]|%(25|0D|0A|3A|2C))+` +
	`(,(file|line|endLine|col|endColumn|title)=([^,:\r\n%]|%(25|0D|0A|3A|2C))+)*)?` +
	`::([^\r\n%]|%(25|0D|0A))*$`)

// badPack writes, in the working directory, a pack with a schema error, a
// lint error and a lint warning, and its tarball (packed without
// validation), and returns their names.
func badPack(t *testing.T) (dir, tgz string) {
	t.Helper()
	dir, tgz = "bad-pack", "bad-pack.tgz"
	os.MkdirAll(dir, 0o755)
	for name, data := range map[string]string{"pack.json": packJSON(true), "index.mjs": "export const nodes = {}\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errOut)
	}
	return dir, tgz
}

// packJSON is a v1 node pack whose core.* name draws the OW008 warning;
// bad adds a schema error (a member whose name holds ',', ':' and '%')
// and a lint error (OW001, a repeated typeId).
func packJSON(bad bool) string {
	node := `{"typeId": "core.acme.hello.greet", "version": "1.0.0", "label": "Greet", "category": "data", "role": "pure"}`
	extra := ""
	nodes := node
	if bad {
		nodes += ",\n    " + node
		extra = `,
  "extra,field: 100%": "x"`
	}
	return `{
  "name": "core.acme.hello",
  "version": "1.0.0",
  "description": "d",
  "license": "MIT",
  "engines": {"openwop": ">=1.0.0 <2.0.0"},
  "nodes": [
    ` + nodes + `
  ],
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs"}` + extra + `
}
`
}

// normSARIF replaces what changes between machines and builds in a SARIF
// log: the working directory's URI and the tool's version.
func normSARIF(t *testing.T, out string) string {
	t.Helper()
	wd, _ := os.Getwd()
	out = strings.ReplaceAll(out, "file://"+filepath.ToSlash(wd)+"/", "file:///WORKDIR/")
	v, _ := json.Marshal(readBuildInfo().Version)
	return strings.Replace(out, `"version": `+string(v)+`,`, `"version": "VERSION",`, 1)
}

// checkAnnotations requires every line of github output to be either a
// well-formed annotation command or plain text that does not start one,
// and returns the commands read back.
func checkAnnotations(t *testing.T, out string) []report.Command {
	t.Helper()
	var cmds []report.Command
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "::") {
			continue
		}
		if !annotationSyntax.MatchString(line) {
			t.Errorf("not a well-formed workflow command: %q", line)
			continue
		}
		c, err := report.ParseGitHub(line)
		if err != nil {
			t.Error(err)
			continue
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// chdir makes dir the working directory until the returned function (or
// the test's end) restores the one before; golden files are read from
// there.
func chdir(t *testing.T, dir string) func() {
	t.Helper()
	back, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	done := false
	restore := func() {
		if !done {
			done = true
			os.Chdir(back)
		}
	}
	t.Cleanup(restore)
	return restore
}

func TestFormatValidate(t *testing.T) {
	restore := chdir(t, t.TempDir())
	dir, tgz := badPack(t)

	text, _, textCode := runCmd(t, "validate", dir, tgz)
	if textCode != 1 {
		t.Fatalf("text: exit %d, want 1:\n%s", textCode, text)
	}
	out, _, code := runCmd(t, "validate", dir, tgz, "--format", "github")
	if code != textCode {
		t.Errorf("github: exit %d, text exits %d", code, textCode)
	}
	githubOut := out
	cmds := checkAnnotations(t, out)
	var inPack, inTgz int
	for _, c := range cmds {
		switch c.Properties["file"] {
		case "bad-pack/pack.json":
			inPack++
			if c.Properties["line"] == "" || c.Properties["col"] == "" {
				t.Errorf("no position: %+v", c)
			}
		case "bad-pack.tgz":
			inTgz++
			if c.Properties["line"] != "" || !strings.HasPrefix(c.Message, "pack.json:") {
				t.Errorf("a tarball member's annotation: %+v", c)
			}
		default:
			t.Errorf("file %q", c.Properties["file"])
		}
	}
	if inPack == 0 || inPack != inTgz {
		t.Errorf("%d annotations on the pack, %d on its tarball", inPack, inTgz)
	}
	if !strings.HasSuffix(out, "invalid: 3 file(s), 4 error(s), 2 warning(s)\n") {
		t.Errorf("no summary line:\n%s", out)
	}

	out, _, code = runCmd(t, "validate", dir, tgz, "--format", "sarif")
	if code != textCode {
		t.Errorf("sarif: exit %d, text exits %d", code, textCode)
	}
	sarifOut := normSARIF(t, out)
	checkSARIF(t, out)
	sarifLog := out

	j1, _, c1 := runCmd(t, "validate", dir, tgz, "--json")
	j2, _, c2 := runCmd(t, "validate", dir, tgz, "--format", "json")
	j3, _, c3 := runCmd(t, "validate", dir, tgz, "--format", "json", "--json")
	if j1 != j2 || j1 != j3 || c1 != c2 || c1 != c3 || c1 != textCode {
		t.Errorf("--json and --format json differ (exit %d, %d, %d)", c1, c2, c3)
	}
	if t2, _, c := runCmd(t, "validate", dir, tgz, "--format", "text"); t2 != text || c != textCode {
		t.Error("--format text differs from the default")
	}

	// Exit codes follow the verdict, whatever the format: warnings pass,
	// and fail with --strict.
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte(packJSON(false)), 0o644)
	for _, f := range []string{"text", "json", "github", "sarif"} {
		if _, _, code := runCmd(t, "validate", dir, "--format", f); code != 0 {
			t.Errorf("--format %s: a pack with a warning exits %d, want 0", f, code)
		}
		if _, _, code := runCmd(t, "validate", dir, "--format", f, "--strict"); code != 1 {
			t.Errorf("--format %s --strict: a pack with a warning exits %d, want 1", f, code)
		}
	}
	restore()
	golden(t, "validate-github.txt", githubOut)
	golden(t, "validate.sarif.json", sarifOut)
	ajvSARIF(t, sarifLog)
}

func TestFormatVerify(t *testing.T) {
	reg := fixtures.Registry(t)
	restore := chdir(t, reg)
	a2a := "v1/packs/core.openwop.a2a/-/1.1.0.tgz"
	legacy := "v1/packs/vendor.openwop.rust-hello/-/1.0.0.tgz"
	team := "keys/openwop-team-1.pub"
	wrong := "keys/myndhyve-internal-1.pub"

	cases := []struct {
		name string
		args []string
		code int
	}{
		{"key", []string{a2a, "--key", team}, 0},
		{"wrong-key", []string{a2a, "--key", wrong}, 1},
		{"registry", []string{a2a, legacy, "--registry", ".", "--allow-yanked"}, 0},
		{"yanked", []string{a2a, legacy, "--registry", "."}, 1},
	}
	var github, sarif strings.Builder
	var logs []string // checked with ajv at the end, in one run
	for _, tc := range cases {
		args := append([]string{"verify"}, tc.args...)
		text, _, code := runCmd(t, args...)
		if code != tc.code {
			t.Errorf("%s: text exits %d, want %d:\n%s", tc.name, code, tc.code, text)
		}
		out, _, code := runCmd(t, append(args, "--format", "github")...)
		if code != tc.code {
			t.Errorf("%s: github exits %d, want %d", tc.name, code, tc.code)
		}
		github.WriteString("$ wopkit " + strings.Join(args, " ") + " --format github\n" + out)
		checkAnnotations(t, out)
		out, _, code = runCmd(t, append(args, "--format", "sarif")...)
		if code != tc.code {
			t.Errorf("%s: sarif exits %d, want %d", tc.name, code, tc.code)
		}
		sarif.WriteString(normSARIF(t, out))
		checkSARIF(t, out)
		logs = append(logs, out)
		j1, _, c1 := runCmd(t, append(args, "--json")...)
		j2, _, c2 := runCmd(t, append(args, "--format", "json")...)
		if j1 != j2 || c1 != c2 || c1 != tc.code {
			t.Errorf("%s: --json and --format json differ (exit %d, %d)", tc.name, c1, c2)
		}
	}
	restore()
	golden(t, "verify-github.txt", github.String())
	golden(t, "verify.sarif.json", sarif.String())
	for _, want := range []string{
		"::error file=" + a2a + ",title=pack_signature_invalid::",
		"::warning file=" + legacy + ",title=pack_yanked::",
		"::error file=" + legacy + ",title=pack_yanked::",
		"::notice file=" + a2a + ",title=note::only pack.json is covered",
	} {
		if !strings.Contains(github.String(), want) {
			t.Errorf("github output lacks %q", want)
		}
	}
	ajvSARIF(t, logs...)
}

func TestFormatUsage(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	a2a := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	for _, args := range [][]string{
		{"validate", ".", "--format", "xml"},
		{"validate", ".", "--json", "--format", "sarif"},
		{"verify", a2a, "--registry", reg, "--format", "junit"},
		{"verify", a2a, "--registry", reg, "--json", "--format", "github"},
	} {
		if _, errOut, code := runCmd(t, args...); code != 2 || !strings.Contains(errOut, "format") {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errOut)
		}
	}
}

// checkSARIF checks what GitHub code scanning needs of a SARIF log: every
// result with a message, a located artifact and a start line, and a ruleId
// the driver lists. ajvSARIF checks the logs against the schema.
func checkSARIF(t *testing.T, out string) {
	t.Helper()
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not one SARIF run (%v):\n%s", err, out)
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "wopkit" {
		t.Errorf("driver %q", run.Tool.Driver.Name)
	}
	for i, r := range run.Results {
		if r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: rule %q not listed at %d", i, r.RuleID, r.RuleIndex)
		}
		if r.Message.Text == "" || len(r.Locations) == 0 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" ||
			r.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("result %d lacks what code scanning needs: %+v", i, r)
		}
	}
}

// ajvSARIF validates SARIF logs with ajv against the vendored SARIF 2.1.0
// schema (internal/report/testdata), all in one run of ajv (each run is a
// node start and a compile of the schema). ajv is installed once for the
// test binary (kept in the user cache folder); it skips as fixtures.Ajv
// does.
func ajvSARIF(t *testing.T, docs ...string) {
	t.Helper()
	ajv := fixtures.Ajv(t)
	_, self, _, _ := runtime.Caller(0)
	schema := filepath.Join(filepath.Dir(self), "..", "..", "internal", "report", "testdata", "sarif-schema-2.1.0.json")
	args := []string{"validate", "--spec=draft2020", "--strict=false", "-c", "ajv-formats", "-s", schema}
	dir := t.TempDir()
	for i, doc := range docs {
		f := filepath.Join(dir, fmt.Sprintf("log-%d.json", i+1)) // ajv-cli picks its parser by extension
		if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-d", f)
	}
	cmd := exec.Command(filepath.Join(ajv, "node_modules", ".bin", "ajv"), args...)
	cmd.Dir = ajv
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("ajv refuses a SARIF log (log-N.json is the N-th of the test's): %v\n%s\n%s", err, out, strings.Join(docs, "\n"))
	}
}

package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/validate"
)

// sampleFindings cover every shape: a lint error and warning with a
// position, a schema problem, a note on a whole file, a member of a
// tarball, a verify failure, a path with characters a URI escapes, and a
// file outside the directory.
func sampleFindings(dir string) []Finding {
	return []Finding{
		{Rule: "OW003", Level: LevelError, File: "pack.json", Line: 12, Column: 7, Pointer: "/agents/0/agentId", Message: "agent id must start with the pack name", Hint: "rename it"},
		{Rule: "OW008", Level: LevelWarning, File: filepath.Join(dir, "packs", "a b", "pack.json"), Line: 2, Column: 11, Pointer: "/name", Message: "core.* is reserved"},
		{Rule: "schema/required", Level: LevelError, File: "pack.json", Line: 1, Column: 1, Pointer: "", Message: "missing \"version\"\nsecond line"},
		{Rule: RuleNote, Level: LevelNote, File: "other.json", Message: "a pack kind no schema covers"},
		{Rule: "OW005", Level: LevelError, File: "dist/x-1.0.0.tgz!/schemas/in.json", Line: 3, Column: 5, Pointer: "/x", Message: "not JSON"},
		{Rule: "pack_signature_invalid", Level: LevelError, File: "dist/x-1.0.0.tgz", Message: "the signature does not verify", Hint: "re-sign"},
		{Rule: "json/syntax", Level: LevelError, File: "/elsewhere/y%1.json", Line: 4, Column: 2, Message: "trailing comma"},
		{Rule: "OW003", Level: LevelError, File: "pack.json", Line: 20, Column: 7, Pointer: "/agents/1/agentId", Message: "again"},
	}
}

type sarifDoc struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, Version, InformationURI string
				Rules                         []struct {
					ID               string `json:"id"`
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text string }
					HelpURI          string `json:"helpUri"`
				}
			}
		}
		AutomationDetails struct{ ID string }
		Results           []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					}
					Region struct{ StartLine, StartColumn int }
				}
			}
			PartialFingerprints map[string]string
		}
	}
}

func writeSample(t *testing.T) ([]byte, []Finding) {
	t.Helper()
	dir := t.TempDir()
	fs := sampleFindings(dir)
	var buf bytes.Buffer
	err := WriteSARIF(&buf, fs, SARIFOptions{Tool: Tool{Name: "wopkit", Version: "v1.2.3", InformationURI: "https://github.com/openwop/wopkit"},
		Dir: dir, Category: "wopkit/validate/"})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), fs
}

func TestFormatSARIFShape(t *testing.T) {
	out, fs := writeSample(t)
	var d sarifDoc
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != "2.1.0" || len(d.Runs) != 1 {
		t.Fatalf("version %q, %d runs", d.Version, len(d.Runs))
	}
	run := d.Runs[0]
	if dr := run.Tool.Driver; dr.Name != "wopkit" || dr.Version != "v1.2.3" || dr.InformationURI == "" {
		t.Errorf("driver %+v", dr)
	}
	if run.AutomationDetails.ID != "wopkit/validate/" {
		t.Errorf("category %q", run.AutomationDetails.ID)
	}
	seen := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || !strings.HasPrefix(r.HelpURI, DocsBase) {
			t.Errorf("rule %s is not fully described: %+v", r.ID, r)
		}
	}
	if len(run.Results) != len(fs) {
		t.Fatalf("%d results for %d findings", len(run.Results), len(fs))
	}
	for i, r := range run.Results {
		f := fs[i]
		if r.RuleID != f.Rule || run.Tool.Driver.Rules[r.RuleIndex].ID != f.Rule {
			t.Errorf("result %d: ruleId %q (index %d), want %q", i, r.RuleID, r.RuleIndex, f.Rule)
		}
		if r.Level != string(f.Level) || r.Message.Text == "" || len(r.Locations) != 1 || r.PartialFingerprints["wopkitProblem/v1"] == "" {
			t.Errorf("result %d: %+v", i, r)
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI == "" || pl.Region.StartLine < 1 {
			t.Errorf("result %d: location %+v", i, pl)
		}
	}
	want := []struct {
		uri, base  string
		line, col  int
		msgPrefix  string
		msgContain string
	}{
		{"pack.json", srcRoot, 12, 7, "agent id", "(at /agents/0/agentId)\nhint: rename it"},
		{"packs/a%20b/pack.json", srcRoot, 2, 11, "core", ""},
		{"pack.json", srcRoot, 1, 1, "missing", "\nsecond line"},
		{"other.json", srcRoot, 1, 0, "a pack kind", ""},
		{"dist/x-1.0.0.tgz", srcRoot, 1, 0, "schemas/in.json:3:5: not JSON", ""},
		{"dist/x-1.0.0.tgz", srcRoot, 1, 0, "the signature", "hint: re-sign"},
		{"file:///elsewhere/y%251.json", "", 4, 2, "trailing", ""},
	}
	for i, w := range want {
		r := run.Results[i]
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != w.uri || pl.ArtifactLocation.URIBaseID != w.base || pl.Region.StartLine != w.line || pl.Region.StartColumn != w.col {
			t.Errorf("result %d: location %+v, want %s (%s) %d:%d", i, pl, w.uri, w.base, w.line, w.col)
		}
		if !strings.HasPrefix(r.Message.Text, w.msgPrefix) || !strings.Contains(r.Message.Text, w.msgContain) {
			t.Errorf("result %d: message %q", i, r.Message.Text)
		}
	}
	if a, b := run.Results[0].PartialFingerprints, run.Results[7].PartialFingerprints; a["wopkitProblem/v1"] == b["wopkitProblem/v1"] {
		t.Error("two problems share a fingerprint")
	}
}

// TestFormatSARIFSchema validates the output against the SARIF 2.1.0 JSON
// Schema (testdata, vendored) with ajv: a sample of every shape, and an
// empty run.
func TestFormatSARIFSchema(t *testing.T) {
	out, _ := writeSample(t)
	var empty bytes.Buffer
	if err := WriteSARIF(&empty, nil, SARIFOptions{Tool: Tool{Name: "wopkit", Version: "(devel)"}}); err != nil {
		t.Fatal(err)
	}
	check := ajvSARIF(t)
	for name, doc := range map[string][]byte{"sample": out, "empty": empty.Bytes()} {
		if ok, msg := check(doc); !ok {
			t.Errorf("%s: ajv refuses the SARIF log:\n%s\n%s", name, msg, doc)
		}
	}
	// The check can fail: a result without a message is not SARIF.
	var bad map[string]any
	json.Unmarshal(out, &bad)
	res := bad["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	delete(res, "message")
	b, _ := json.Marshal(bad)
	if ok, _ := check(b); ok {
		t.Error("ajv accepts a result without a message: the schema check checks nothing")
	}
}

// ajvSARIF returns a function that validates a SARIF log with ajv against
// testdata/sarif-schema-2.1.0.json (it skips as fixtures.Ajv does).
func ajvSARIF(t *testing.T) func([]byte) (bool, string) {
	t.Helper()
	dir := fixtures.Ajv(t)
	schema, err := filepath.Abs(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	return func(doc []byte) (bool, string) {
		f := filepath.Join(t.TempDir(), "log.json") // ajv-cli picks its parser by extension
		if err := os.WriteFile(f, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "ajv"), "validate", "--spec=draft2020", "--strict=false",
			"-c", "ajv-formats", "-s", schema, "-d", f)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	}
}

// TestFormatSARIFRules checks every rule's description: each lint rule of
// internal/validate's table links to the docs/RULES.md section whose table
// lists it, and the docs/GUIDE.md sections other rules link to exist.
func TestFormatSARIFRules(t *testing.T) {
	rulesMD := sectionsOf(t, filepath.Join("..", "..", "docs", "RULES.md"))
	guide := sectionsOf(t, filepath.Join("..", "..", "docs", "GUIDE.md"))
	for _, lr := range validate.Rules() {
		r := RuleFor(lr.ID)
		if r.Short != lr.Summary || r.Full == "" || r.Help == "" {
			t.Errorf("%s: %+v", lr.ID, r)
		}
		if (lr.Severity == validate.Warning) != (r.Level == LevelWarning) {
			t.Errorf("%s: level %s for severity %s", lr.ID, r.Level, lr.Severity)
		}
		_, frag, _ := strings.Cut(r.HelpURI, "#")
		body, ok := rulesMD[frag]
		if !strings.HasPrefix(r.HelpURI, DocsBase+"docs/RULES.md#") || !ok {
			t.Errorf("%s: help %s names no section of docs/RULES.md", lr.ID, r.HelpURI)
			continue
		}
		if !strings.Contains(body, "| "+lr.ID+" |") {
			t.Errorf("%s: the section %s does not list it", lr.ID, frag)
		}
	}
	for id := range packRefusals {
		r := RuleFor(id)
		_, frag, _ := strings.Cut(r.HelpURI, "#")
		if !strings.Contains(rulesMD[frag], id) {
			t.Errorf("%s: the section %s (%s) does not list it", id, frag, r.HelpURI)
		}
	}
	for _, id := range []string{"schema/required", "json/syntax", "json/duplicate_key", "json/new_code", "tarball/tarball_path_traversal",
		"kind/unknown", "pack_signature_invalid", "some_new_code", RuleNote} {
		r := RuleFor(id)
		if r.ID != id || r.Short == "" || r.Full == "" || r.Help == "" {
			t.Errorf("%s: %+v", id, r)
		}
		doc, frag, _ := strings.Cut(strings.TrimPrefix(r.HelpURI, DocsBase), "#")
		secs := map[string]map[string]string{"docs/RULES.md": rulesMD, "docs/GUIDE.md": guide}[doc]
		if _, ok := secs[frag]; !ok {
			t.Errorf("%s: help %s names no section", id, r.HelpURI)
		}
	}
}

// sectionsOf reads a Markdown file's "## " sections by their GitHub anchor.
func sectionsOf(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	cur := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur = strings.TrimPrefix(anchor(h), "#")
			out[cur] = ""
			continue
		}
		if cur != "" {
			out[cur] += line + "\n"
		}
	}
	return out
}

func TestFormatAnchor(t *testing.T) {
	for h, want := range map[string]string{
		"Node packs (`pack.json`)":                                 "#node-packs-packjson",
		"Card, form-content, prompt and artifact-type packs":       "#card-form-content-prompt-and-artifact-type-packs",
		"JSON syntax and bounds (every file wopkit reads as JSON)": "#json-syntax-and-bounds-every-file-wopkit-reads-as-json",
		"What `pack` refuses (pack directories)":                   "#what-pack-refuses-pack-directories",
	} {
		if got := anchor(h); got != want {
			t.Errorf("anchor(%q) = %q, want %q", h, got, want)
		}
	}
}

package fix

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// copyTestdata copies testdata/name (a pack `wopkit new` wrote) into a new
// folder.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	fixtures.CopyInto(t, src, dst)
	return dst
}

// edit sets value at pointer in the JSON file dir/rel.
func edit(t *testing.T, dir, rel, pointer string, value any) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = jsonedit.Set(b, pointer, value); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func checker(t *testing.T, paths ...string) func() (*validate.Report, error) {
	v, err := validate.New(validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return func() (*validate.Report, error) { return v.Paths(paths) }
}

func rulesOf(rep *validate.Report) map[string]int {
	out := map[string]int{}
	for _, p := range rep.Problems() {
		out[p.Rule]++
	}
	return out
}

// broken is the pack of testdata/pack with a problem of each kind of fix:
// a version raised by hand (5 stale $ids, OW013), an unclean reference
// (OW016), a missing prompt (OW005: created from the template), an eval
// suite aimed at another agent (OW011: an edit of another file), a v1 peer
// key of the alias table left empty (PK002 renames it, OW010 writes
// "supported" there: the second made after the first moved it), and two
// fixes that need a choice: a peer key whose family is a guess (PK002) and
// an agent id without the pack's name (OW003).
func broken(t *testing.T) string {
	dir := copyTestdata(t, "pack")
	edit(t, dir, "pack.json", "/version", "0.2.0")
	edit(t, dir, "pack.json", "/nodes/0/configSchemaRef", "schemas/./hello.config.json")
	edit(t, dir, "pack.json", "/agents/0/systemPromptRef", "prompts/helper.md")
	edit(t, dir, "pack.json", "/agents/0/evalSuiteRef", "evals/writer.eval.json")
	edit(t, dir, "pack.json", "/peerDependencies", map[string]any{"host.agentRuntime": "", "my.custom.aiProviders.x": "supported"})
	suite, ok, err := scaffold.RefFile("evalSuiteRef", "evals/writer.eval.json", "vendor.acme.fx", "0.2.0")
	if err != nil || !ok {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "evals"), 0o755)
	os.WriteFile(filepath.Join(dir, "evals", "writer.eval.json"), suite, 0o644)
	edit(t, dir, "evals/writer.eval.json", "/targetAgentId", "vendor.acme.fx.other")
	b, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	b, err = jsonedit.Append(b, "/agents", map[string]any{"agentId": "stray", "persona": "Stray", "modelClass": "general", "role": "assistant", "label": "Stray", "description": "d"})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "pack.json"), b, 0o644)
	return dir
}

// TestRunFixes: every fix that needs no choice is made, each said; the
// ones that need a choice are listed and left; the result no longer has
// the problems fixed.
func TestRunFixes(t *testing.T) {
	t.Parallel()
	dir := broken(t)
	check := checker(t, dir)
	rep0, _ := check()
	before := rulesOf(rep0)
	for _, r := range []string{"OW013", "OW016", "OW005", "OW011", "PK002", "OW010", "OW003"} {
		if before[r] == 0 {
			t.Fatalf("the broken pack has no %s: %v", r, before)
		}
	}
	res, err := Run(Options{Roots: []string{dir}, Validate: check})
	if err != nil {
		t.Fatal(err)
	}
	after := rulesOf(res.Report)
	for _, r := range []string{"OW013", "OW016", "OW005", "OW011", "OW010"} {
		if after[r] != 0 {
			t.Errorf("%s still reported after --fix: %v", r, res.Report.Problems())
		}
	}
	if after["PK002"] != 1 || after["OW003"] != 1 {
		t.Errorf("the fixes that need a choice were made: %v", after)
	}
	fixed := map[string]int{}
	for _, c := range res.Fixed {
		fixed[c.Rule]++
		if c.Line < 1 || c.What == "" || c.File == "" {
			t.Errorf("a change without its place: %+v", c)
		}
	}
	if fixed["OW013"] != 5 || fixed["OW016"] != 1 || fixed["OW005"] != 1 || fixed["OW011"] != 1 || fixed["PK002"] != 1 || fixed["OW010"] != 1 {
		t.Errorf("fixed: %v", fixed)
	}
	listed := map[string]string{}
	for _, l := range res.Listed {
		listed[l.Rule] = l.Why
	}
	if !strings.Contains(listed["PK002"], "guess") || !strings.Contains(listed["OW003"], "choice") {
		t.Errorf("listed: %+v", res.Listed)
	}
	prompt, err := os.ReadFile(filepath.Join(dir, "prompts", "helper.md"))
	if err != nil || len(prompt) == 0 {
		t.Errorf("the missing prompt was not created: %v", err)
	}
	pj, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !strings.Contains(string(pj), `"agentRuntime": "supported"`) || !strings.Contains(string(pj), `"configSchemaRef": "schemas/hello.config.json"`) {
		t.Errorf("pack.json:\n%s", pj)
	}
}

// TestDryRun: nothing is written, and the diff is the one between the
// files as they are and as the real run writes them.
func TestDryRun(t *testing.T) {
	t.Parallel()
	dry, real := broken(t), broken(t)
	snapshot := func(dir string) map[string]string {
		out := map[string]string{}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				out[filepath.ToSlash(rel)] = string(b)
			}
			return nil
		})
		return out
	}
	was := snapshot(dry)
	res, err := Run(Options{Roots: []string{dry}, Validate: checker(t, dry), DryRun: true})
	if err != nil || res.Written {
		t.Fatal(err, res.Written)
	}
	for rel, data := range snapshot(dry) {
		if was[rel] != data {
			t.Errorf("%s changed in a dry run", rel)
		}
	}
	if len(snapshot(dry)) != len(was) {
		t.Error("a dry run created a file")
	}
	// The real run, one round only being what a dry run can show: the
	// dry run's diff covers every file the first round changes.
	if _, err := Run(Options{Roots: []string{real}, Validate: checker(t, real)}); err != nil {
		t.Fatal(err)
	}
	now := snapshot(real)
	for rel, data := range now {
		if was[rel] == data {
			continue
		}
		hunk := udiff.Unified(filepath.ToSlash(filepath.Join(dry, rel)), filepath.ToSlash(filepath.Join(dry, rel)), was[rel], data)
		if _, existed := was[rel]; !existed {
			hunk = udiff.Unified("/dev/null", filepath.ToSlash(filepath.Join(dry, rel)), "", data)
		}
		if rel == "pack.json" {
			continue // the second round (OW010 after PK002's rename) is not in a dry run
		}
		if !strings.Contains(res.Diff, hunk) {
			t.Errorf("the dry run's diff lacks %s's change:\n%s\n--- diff ---\n%s", rel, hunk, res.Diff)
		}
	}
}

// TestHostile: a fix never writes out of the pack: a prompt to create in a
// folder that links out, an eval suite that links out, a tarball's
// problems (listed), and paths outside the roots given.
func TestHostile(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	dir := copyTestdata(t, "pack")
	edit(t, dir, "pack.json", "/agents/0/systemPromptRef", "linked/helper.md")
	if err := os.Symlink(outside, filepath.Join(dir, "linked")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	victim := filepath.Join(outside, "writer.eval.json")
	suite, _, _ := scaffold.RefFile("evalSuiteRef", "evals/writer.eval.json", "vendor.acme.fx", "0.1.0")
	os.WriteFile(victim, suite, 0o644)
	edit(t, outside, "writer.eval.json", "/targetAgentId", "vendor.acme.fx.other")
	was, _ := os.ReadFile(victim)
	os.MkdirAll(filepath.Join(dir, "evals"), 0o755)
	os.Symlink(victim, filepath.Join(dir, "evals", "writer.eval.json"))
	edit(t, dir, "pack.json", "/agents/0/evalSuiteRef", "evals/writer.eval.json")

	res, err := Run(Options{Roots: []string{dir}, Validate: checker(t, dir)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "helper.md")); err == nil {
		t.Error("a prompt was created through a link out of the pack")
	}
	if now, _ := os.ReadFile(victim); string(now) != string(was) {
		t.Error("an eval suite outside the pack was written through a link")
	}
	for _, c := range res.Fixed {
		if strings.Contains(c.Path, "linked") || strings.Contains(c.Path, "evals") {
			t.Errorf("made %+v", c)
		}
	}

	// A pack validated through a path outside the roots: nothing made.
	dir2 := copyTestdata(t, "pack")
	edit(t, dir2, "pack.json", "/version", "0.2.0")
	res, err = Run(Options{Roots: []string{t.TempDir()}, Validate: checker(t, dir2)})
	if err != nil || len(res.Fixed) != 0 || len(res.Listed) == 0 || !strings.Contains(res.Listed[0].Why, "outside") {
		t.Errorf("outside the roots: %v %+v", err, res)
	}

	// A huge file and one that does not parse: reported, not fixed, no crash.
	dir3 := copyTestdata(t, "pack")
	os.WriteFile(filepath.Join(dir3, "schemas", "hello.config.json"), []byte(`{"$id": "x", `+strings.Repeat(" ", 9<<20)+`}`), 0o644)
	os.WriteFile(filepath.Join(dir3, "schemas", "hello.input.json"), []byte(`{"$id": `), 0o644)
	if _, err := Run(Options{Roots: []string{dir3}, Validate: checker(t, dir3)}); err != nil {
		t.Errorf("huge and broken files: %v", err)
	}
}

// TestTarballListed: problems in a tarball are listed, not fixed.
func TestTarballListed(t *testing.T) {
	t.Parallel()
	rep := &validate.Report{Files: []validate.FileReport{{Path: "x.tgz!/pack.json", Errors: []validate.Problem{{Rule: "OW016", Line: 3, Fix: &validate.Fix{Title: "Write", Edits: []validate.Edit{{Pointer: "/a", Value: "b"}}}}}}}}
	res, err := Run(Options{Roots: []string{"x.tgz"}, Validate: func() (*validate.Report, error) { return rep, nil }})
	if err != nil || len(res.Fixed) != 0 || len(res.Listed) != 1 || !strings.Contains(res.Listed[0].Why, "tarball") {
		t.Errorf("%v %+v", err, res)
	}
}

// TestRivals: two different values for one place are a choice; the same
// fix twice is made once.
func TestRivals(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, "pack")
	file := filepath.Join(dir, "schemas", "hello.config.json")
	set := func(v string) validate.Problem {
		return validate.Problem{Rule: "OW013", Line: 3, Fix: &validate.Fix{Title: "Set " + v, Edits: []validate.Edit{{Pointer: "/$id", Value: v}}}}
	}
	rep := &validate.Report{Files: []validate.FileReport{{Path: file, Warnings: []validate.Problem{set("a"), set("b")}}}}
	res, err := Run(Options{Roots: []string{dir}, Validate: func() (*validate.Report, error) { return rep, nil }, DryRun: true})
	if err != nil || len(res.Fixed) != 0 || len(res.Listed) != 2 || !strings.Contains(res.Listed[0].Why, "several fixes") {
		t.Errorf("rivals: %v %+v", err, res)
	}
	rep.Files[0].Warnings = []validate.Problem{set("a"), set("a")}
	res, err = Run(Options{Roots: []string{dir}, Validate: func() (*validate.Report, error) { return rep, nil }, DryRun: true})
	if err != nil || len(res.Fixed) != 1 || len(res.Listed) != 0 {
		t.Errorf("a repeat: %v %+v", err, res)
	}
}

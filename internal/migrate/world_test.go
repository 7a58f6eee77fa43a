package migrate

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// migrated are the members migrate may change; everything else must come
// out identical, in value and in bytes.
var migrated = []string{"kind", "engines", "signing", "peerDependencies", "peerDependenciesMeta"}

// allowedChange reports whether a structural difference at pointer lies in
// a migrated member (engines only in its openwop member).
func allowedChange(pointer string) bool {
	for _, p := range []string{"/kind", "/engines/openwop", "/signing", "/peerDependencies", "/peerDependenciesMeta"} {
		if pointer == p || strings.HasPrefix(pointer, p+"/") {
			return true
		}
	}
	return false
}

// structuralDiff lists the pointers where a and b differ: values that
// differ, members or items present on one side only.
func structuralDiff(a, b any, at string) []string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return []string{at}
		}
		var out []string
		for k, v := range x {
			if w, ok := y[k]; ok {
				out = append(out, structuralDiff(v, w, jsondoc.Child(at, k))...)
			} else {
				out = append(out, jsondoc.Child(at, k))
			}
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				out = append(out, jsondoc.Child(at, k))
			}
		}
		sort.Strings(out)
		return out
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return []string{at}
		}
		var out []string
		for i := range x {
			out = append(out, structuralDiff(x[i], y[i], jsondoc.Index(at, i))...)
		}
		return out
	}
	if !reflect.DeepEqual(a, b) {
		return []string{at}
	}
	return nil
}

// skeleton is the text of a JSON object with the named top-level members
// cut out, each with the joint before it (or, for the first member, the
// joint after it). Written here, independently of jsonedit.
func skeleton(t *testing.T, src []byte, cut []string) string {
	t.Helper()
	doc, err := jsondoc.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ms := doc.Root.Members
	type span struct{ from, to int }
	var spans []span
	for i, m := range ms {
		if !slices.Contains(cut, m.Key) {
			continue
		}
		switch {
		case i > 0:
			spans = append(spans, span{ms[i-1].Value.End, m.Value.End})
		case len(ms) > 1:
			spans = append(spans, span{m.KeyStart, ms[1].KeyStart})
		default:
			spans = append(spans, span{m.KeyStart, m.Value.End})
		}
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		if s.from < last { // the first member's span overlaps the next cut
			s.from = last
		}
		b.Write(src[last:s.from])
		last = s.to
	}
	b.Write(src[last:])
	return b.String()
}

// checkMigration asserts what the issue asks of a migrated manifest: ajv
// accepts it under the v2 node schema; it differs from the original only in
// the migrated members; the bytes outside them are unchanged; wopkit's own
// v2 check of the directory passes.
func checkMigration(t *testing.T, ajv func(schema, file string) (bool, string), dir string, before, after []byte) {
	t.Helper()
	pj := filepath.Join(dir, "pack.json")
	if ok, out := ajv("node-pack-manifest.schema.json", pj); !ok {
		t.Errorf("ajv refuses the migrated pack.json under the v2 schema:\n%s\n%s", out, after)
	}
	var a, b any
	if err := json.Unmarshal(before, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &b); err != nil {
		t.Fatal(err)
	}
	diffs := structuralDiff(a, b, "")
	for _, p := range diffs {
		if !allowedChange(p) {
			t.Errorf("migration changed %s, which is not a migrated member", p)
		}
	}
	if !slices.Contains(diffs, "/kind") && b.(map[string]any)["kind"] == nil {
		t.Error("no kind")
	}
	if sa, sb := skeleton(t, before, migrated), skeleton(t, after, migrated); sa != sb {
		t.Errorf("bytes outside the migrated members changed:\n--- before\n%s\n--- after\n%s", sa, sb)
	}
	v, err := validate.New(validate.Options{Spec: kinds.V2})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems() {
		if p.Severity == validate.Error {
			t.Errorf("validate --spec v2: %s", p)
		}
	}
}

// TestSourcePacks migrates every real source pack of the registry
// (../shared/fixtures/source-packs), each in a copy whose missing JS entry
// gets a placeholder, and checks the result as the issue says; the diff of
// a dry run, applied by GNU patch to the original, gives the same bytes.
func TestSourcePacks(t *testing.T) {
	t.Parallel()
	root := fixtures.Path(t, "source-packs")
	ajv := ajvV2(t)
	dirs, _ := filepath.Glob(filepath.Join(root, "*"))
	if len(dirs) == 0 {
		t.Fatalf("no source packs in %s", root)
	}
	for _, src := range dirs {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := fixtures.CopyDir(t, src)
			before, err := os.ReadFile(filepath.Join(dir, "pack.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Runtime struct{ Language, Entry string }
			}
			json.Unmarshal(before, &m)
			if e := strings.TrimPrefix(m.Runtime.Entry, "./"); m.Runtime.Language != "remote" && e != "" {
				if _, err := os.Stat(filepath.Join(dir, e)); err != nil {
					os.WriteFile(filepath.Join(dir, e), []byte("// placeholder: the fixture ships without its entry\nexport const nodes = {};\n"), 0o644)
				}
			}
			if ok, _ := ajv("node-pack-manifest.schema.json", filepath.Join(dir, "pack.json")); ok {
				t.Errorf("ajv accepts the v1 original under the v2 schema: the check could not fail")
			}
			dry, err := Pack(dir, Options{DryRun: true})
			if err != nil {
				t.Fatalf("dry run: %v %v", err, dry)
			}
			if now, _ := os.ReadFile(filepath.Join(dir, "pack.json")); !bytes.Equal(now, before) {
				t.Fatal("the dry run wrote pack.json")
			}
			res, err := Pack(dir, Options{})
			if err != nil || !res.Written {
				t.Fatalf("%v: %+v", err, res)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
			if !bytes.Equal(after, res.After) || !bytes.Equal(after, dry.After) {
				t.Error("written bytes differ from the result or the dry run")
			}
			checkMigration(t, ajv, dir, before, after)
			applyPatch(t, before, dry.Diff, after)
			again, err := Pack(dir, Options{})
			if err != nil || !again.Already || again.Written {
				t.Errorf("second migrate: %v %+v", err, again)
			}
		})
	}
}

// ajvV2 returns a function that validates a file with ajv (the registry's
// validator, installed by fixtures.Ajv) against one of the repository's v2
// schemas, with all the others as references.
func ajvV2(t *testing.T) func(schema, file string) (bool, string) {
	t.Helper()
	return fixtures.AjvSchemas(t, "v2")
}

// applyPatch applies diff to before with GNU patch and compares with want.
func applyPatch(t *testing.T, before []byte, diff string, want []byte) {
	t.Helper()
	if _, err := exec.LookPath("patch"); err != nil {
		t.Log("patch not found: the diff is not applied")
		return
	}
	dir := t.TempDir()
	orig, out, d := filepath.Join(dir, "orig.json"), filepath.Join(dir, "out.json"), filepath.Join(dir, "x.diff")
	os.WriteFile(orig, before, 0o644)
	os.WriteFile(d, []byte(diff), 0o644)
	cmd := exec.Command("patch", "-s", "-o", out, orig, d)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s\n%s", err, b, diff)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want) {
		t.Errorf("the diff, applied by patch, gives\n%s\nnot\n%s", got, want)
	}
}

// TestScaffoldedV1 migrates the v1 packs wopkit itself scaffolds (every
// runtime, with an agent and its eval suite) and checks them the same way.
func TestScaffoldedV1(t *testing.T) {
	t.Parallel()
	ajv := ajvV2(t)
	for _, lang := range []string{"javascript", "python", "go", "wasm", "remote"} {
		t.Run(lang, func(t *testing.T) {
			dir := scaffoldV1(t, lang)
			before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
			res, err := Pack(dir, Options{})
			if err != nil || !res.Written {
				t.Fatalf("%v: %+v", err, res)
			}
			after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
			checkMigration(t, ajv, dir, before, after)
		})
	}
}

// TestScaffoldedV1Chain migrates the v1 workflow-chain pack wopkit
// scaffolds: its kind is there already, its engines range is not v2.
func TestScaffoldedV1Chain(t *testing.T) {
	t.Parallel()
	ajv := ajvV2(t)
	a := scaffold.ChainPackAnswers{}.Defaults()
	a.Name, a.Spec = "vendor.acme.chain", scaffold.SpecV1
	p, err := scaffold.PlanChainPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := p.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	res, err := Pack(dir, Options{})
	if err != nil || !res.Written || len(res.Changes) != 1 || res.Changes[0].Pointer != "/engines/openwop" {
		t.Fatalf("%v: %+v", err, res)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if ok, out := ajv("workflow-chain-pack-manifest.schema.json", filepath.Join(dir, "pack.json")); !ok {
		t.Errorf("ajv refuses the migrated chain pack:\n%s", out)
	}
	if sa, sb := skeleton(t, before, migrated), skeleton(t, after, migrated); sa != sb {
		t.Errorf("bytes outside the migrated members changed")
	}
}

// scaffoldV1 writes a v1 pack as `wopkit new --spec v1` does.
func scaffoldV1(t *testing.T, lang string) string {
	t.Helper()
	a := scaffold.PackAnswers{}.Defaults()
	a.Name, a.Spec = "vendor.acme.hello", scaffold.SpecV1
	a.Runtime.Language = lang
	ag := scaffold.AgentAnswers{}.Defaults()
	ev := scaffold.EvalAnswers{}.Defaults()
	ag.Eval = &ev
	a.Agents = []scaffold.AgentAnswers{ag}
	p, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := p.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

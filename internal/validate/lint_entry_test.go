package validate_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// scaffoldJS writes a javascript pack with two nodes through the scaffold.
func scaffoldJS(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: OW017 loads the entry with node")
	}
	dir := filepath.Join(t.TempDir(), "p")
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = "vendor.acme.js"
	a.Runtime.Language = "javascript"
	plan, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	src, err := scaffold.OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := scaffold.NodeAnswers{}.Defaults()
	n.ID = "shout"
	plan, err = scaffold.PlanNode(src, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func ow017(t *testing.T, dir string, run bool) []validate.Problem {
	t.Helper()
	v, err := validate.New(validate.Options{RunEntry: run})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []validate.Problem
	for _, p := range rep.Problems() {
		if p.Rule == "OW017" {
			out = append(out, p)
		}
	}
	return out
}

// TestOW017ScaffoldedPackPasses: a javascript pack made by the scaffold,
// with a node added, exports what its manifest declares.
func TestOW017ScaffoldedPackPasses(t *testing.T) {
	dir := scaffoldJS(t)
	if ps := ow017(t, dir, true); len(ps) != 0 {
		t.Fatalf("scaffolded pack fails OW017: %v", ps)
	}
}

// TestOW017FindsMissingExports: the registry's failure (the typeId map only
// as the default export), a typeId missing from nodes, a module that does
// not load; and nothing runs without RunEntry.
func TestOW017FindsMissingExports(t *testing.T) {
	dir := scaffoldJS(t)
	entry := filepath.Join(dir, "index.mjs")
	orig, _ := os.ReadFile(entry)
	for _, c := range []struct {
		name, src, want string
	}{
		{"default only", strings.Replace(string(orig), "export const nodes", "const nodes", 1), "exports no `nodes` object"},
		{"typeId missing", string(orig) + "\ndelete nodes[\"vendor.acme.js.shout\"];\n", `"vendor.acme.js.shout" is not a key`},
		{"extra export", string(orig) + "\nnodes[\"vendor.acme.js.ghost\"] = () => {};\n", "does not declare"},
		{"throws", "throw new Error(\"boom\");\n", "boom"},
		{"writes a file", "import fs from \"node:fs\";\nfs.writeFileSync(" + "\"" + filepath.ToSlash(filepath.Join(dir, "pwned")) + "\", \"x\");\nexport const nodes = {};\n", "could not load"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(entry, []byte(c.src), 0o644)
			defer os.WriteFile(entry, orig, 0o644)
			ps := ow017(t, dir, true)
			if len(ps) == 0 || !strings.Contains(ps[0].Message, c.want) {
				t.Fatalf("want a problem saying %q, got %v", c.want, ps)
			}
			if ps := ow017(t, dir, false); len(ps) != 0 {
				t.Errorf("RunEntry off still ran the entry: %v", ps)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the entry could write a file while being checked")
	}
}

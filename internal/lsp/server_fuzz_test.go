package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzDocNames are where the fuzzed document is open: the pack's manifest,
// a suite and a schema beside it, and a manifest under the folder that
// links out of the pack.
var fuzzDocNames = []string{"pack.json", "suite.json", "schemas/hello.input.json", "conf/pack.json", "evals/writer.json"}

// FuzzCodeActions offers the code actions of a hostile document in a
// hostile pack (a folder linking out to a stand-in for the home folder, a
// dangling link, a file behind the link) and fails when one would write
// where the write door does not: outside the pack or the workspace after
// links, over a file that exists, or into a file it did not create.
func FuzzCodeActions(f *testing.F) {
	root := f.TempDir()
	home := f.TempDir()
	if err := os.WriteFile(filepath.Join(home, "writer.md"), []byte("# the user's own\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "pack.json"), []byte("{}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	dir := scaffoldPackIn(f, root)
	for _, gone := range []string{"prompts/writer.md", "schemas/hello.output.json"} {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(gone))); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(dir, "conf")); err != nil {
		f.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(home, "gone.md"), filepath.Join(dir, "prompts", "dangling.md")); err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "writer.md"), filepath.Join(dir, "prompts", "out.md")); err != nil {
		f.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		f.Fatal(err)
	}
	seed := string(text)
	f.Add(uint8(0), seed)
	for _, to := range []string{`"conf/writer.md"`, `"conf/.bashrc"`, `"conf/new.md"`, `"prompts/dangling.md"`, `"prompts/out.md"`, `"./conf/x.md"`, `"prompts/../conf/writer.md"`} {
		f.Add(uint8(0), strings.Replace(seed, `"prompts/writer.md"`, to, 1))
		f.Add(uint8(3), strings.Replace(seed, `"prompts/writer.md"`, to, 1))
	}
	f.Add(uint8(0), strings.Replace(seed, `"schemas/hello.output.json"`, `"conf/pack.json"`, 1))
	f.Add(uint8(0), strings.Replace(seed, `"kind": "node",`, "", 1))
	f.Add(uint8(0), strings.Replace(seed, `"vendor.acme.hello"`, `"vendor.acme.$(id)\"'`+"`", 1))
	f.Add(uint8(1), `{"suiteId": "vendor.acme.evals.basic", "version": "1.0.0", "modes": ["rubric"], "tasks": [{"taskId": "t", "input": "hi", "expected": {"kind": "rubric", "rubric": [{"criterion": "a", "weight": 0.7}, {"criterion": "b", "weight": 0.6}]}}]}`)
	f.Add(uint8(2), `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/x.json", "type": "object"}`)
	f.Add(uint8(4), `{"suiteId": "x", "version": "1", "tasks": []}`)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, which uint8, doc string) {
		if len(doc) > 64<<10 {
			return
		}
		path := filepath.Join(dir, filepath.FromSlash(fuzzDocNames[int(which)%len(fuzzDocNames)]))
		acts := actionsFor(t, root, path, []byte(doc))
		realDir, err := realPath(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		if !within(realRoot, realDir) {
			if len(acts) > 0 {
				t.Fatalf("a document whose folder links out of the workspace got %d actions: %+v", len(acts), acts)
			}
			return
		}
		checkEdits(t, acts, realDir)
	})
}

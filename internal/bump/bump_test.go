package bump

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/third_party/jsonschema"
	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// A v2 node pack at 1.2.0 whose schemas name its version in $id (one of
// them stale, at 1.0.0) and in a $ref, written with a layout of its own
// (tabs, a member order no tool would choose) that the bump must keep.
const packJSON = `{
	"version": "1.2.0",
	"name": "vendor.acme.bumpme",
	"kind": "node",
	"description": "bump test",
	"license": "Apache-2.0",
	"engines": {"openwop": ">=1.0.0 <3.0.0"},
	"runtime": {"language": "javascript", "entry": "index.mjs"},
	"nodes": [
		{"typeId": "vendor.acme.bumpme.echo", "version": "1.0.0", "label": "Echo", "category": "data", "role": "pure", "description": "echo",
		 "configSchemaRef": "schemas/echo.config.json", "inputSchemaRef": "schemas/echo.input.json", "outputSchemaRef": "schemas/echo.output.json"}
	]
}
`

func schema(id, extra string) string {
	return "{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"$id\": \"" + id + "\",\n  \"type\": \"object\"" + extra + "\n}\n"
}

const idv = "https://packs.openwop.dev/vendor.acme.bumpme/"

// writeTree writes files (slash path → content) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func nodePack() map[string]string {
	return map[string]string{
		"pack.json":                packJSON,
		"index.mjs":                "export const nodes = { 'vendor.acme.bumpme.echo': async (x) => x };\n",
		"schemas/echo.config.json": schema(idv+"1.2.0/echo.config.json", ",\n  \"properties\": {\"mode\": {\"$ref\": \""+idv+"1.0.0/common.json#/$defs/mode\"}}"),
		"schemas/echo.input.json":  schema(idv+"1.2.0/echo.input.json", ",\n  \"properties\": {\"text\": {\"type\": \"string\"}}"),
		"schemas/echo.output.json": schema(idv+"1.2.0/echo.output.json", ""),
		"schemas/common.json":      schema(idv+"1.0.0/common.json", ",\n  \"$defs\": {\"mode\": {\"enum\": [\"a\", \"b\"]}}"),
		// Not the pack's: another pack's $id, and a JSON file that is no schema.
		"schemas/other.json": schema("https://packs.openwop.dev/vendor.acme.other/1.2.0/other.json", ""),
	}
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExplicitLevels: each level raises pack.json's version, every $id the
// pack owns (the stale one too) and the $ref to one, and nothing else: the
// files are the originals with exactly those strings replaced.
func TestExplicitLevels(t *testing.T) {
	t.Parallel()
	for level, want := range map[string]string{Major: "2.0.0", Minor: "1.3.0", Patch: "1.2.1"} {
		files := nodePack()
		dir := writeTree(t, files)
		res, err := Run(dir, Options{Level: level})
		if err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		if res.Old != "1.2.0" || res.New != want || res.Level != level || !res.Written {
			t.Errorf("%s: %+v", level, res)
		}
		expect := map[string]string{
			"pack.json":                strings.Replace(files["pack.json"], `"version": "1.2.0"`, `"version": "`+want+`"`, 1),
			"schemas/echo.config.json": strings.ReplaceAll(strings.ReplaceAll(files["schemas/echo.config.json"], "1.2.0/", want+"/"), "1.0.0/common", want+"/common"),
			"schemas/echo.input.json":  strings.Replace(files["schemas/echo.input.json"], "1.2.0/", want+"/", 1),
			"schemas/echo.output.json": strings.Replace(files["schemas/echo.output.json"], "1.2.0/", want+"/", 1),
			"schemas/common.json":      strings.Replace(files["schemas/common.json"], "1.0.0/", want+"/", 1),
			"schemas/other.json":       files["schemas/other.json"],
			"index.mjs":                files["index.mjs"],
		}
		for rel, w := range expect {
			if got := read(t, dir, rel); got != w {
				t.Errorf("%s: %s is\n%s\nwant\n%s", level, rel, got, w)
			}
		}
		if len(res.Files) != 5 {
			t.Errorf("%s: %d files rewritten, want 5: %+v", level, len(res.Files), res.Files)
		}
		// What the registry's gate reads now passes: no OW013 under --for-registry.
		v, _ := validate.New(validate.Options{ForRegistry: true, Spec: kinds.V2})
		rep, err := v.Paths([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Problems() {
			if p.Rule == "OW013" && !strings.Contains(p.File, "other.json") {
				t.Errorf("%s: after the bump: %s", level, p)
			}
		}
	}
}

// TestDryRunWritesNothing: --dry-run gives the diff and leaves every byte.
func TestDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	files := nodePack()
	dir := writeTree(t, files)
	res, err := Run(dir, Options{Level: Minor, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written || !strings.Contains(res.Diff, `-	"version": "1.2.0",`) || !strings.Contains(res.Diff, `+	"version": "1.3.0",`) ||
		!strings.Contains(res.Diff, "+++ "+filepath.ToSlash(dir)+"/schemas/common.json") {
		t.Errorf("dry run: written %v, diff\n%s", res.Written, res.Diff)
	}
	for rel, data := range files {
		if read(t, dir, rel) != data {
			t.Errorf("%s changed in a dry run", rel)
		}
	}
}

// TestChainPins: a chain pack's step pinned to its own namespace at the old
// version and a sub-chain pinned to the pack itself follow the bump; a
// foreign pin, the chain's own version and another version stay.
func TestChainPins(t *testing.T) {
	t.Parallel()
	pj := `{
  "name": "vendor.acme.flows",
  "version": "0.4.1",
  "kind": "workflow-chain",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "chains": [{
    "chainId": "vendor.acme.flows.digest", "version": "0.4.1", "label": "Digest", "description": "d", "parameters": {"type": "object"},
    "subChains": [{"ref": {"packName": "vendor.acme.flows", "chainId": "vendor.acme.flows.inner", "version": "0.4.1"}},
                  {"ref": {"packName": "vendor.acme.other", "chainId": "vendor.acme.other.x", "version": "0.4.1"}}],
    "dag": {"nodes": [
      {"id": "a", "typeId": "vendor.acme.flows.step@0.4.1"},
      {"id": "b", "typeId": "core.ai.chatCompletion@0.4.1"},
      {"id": "c", "typeId": "vendor.acme.flows.step@0.3.0"}
    ], "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]}
  }]
}
`
	dir := writeTree(t, map[string]string{"pack.json": pj})
	res, err := Run(dir, Options{Level: Minor, NoValidate: true})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`"version": "0.4.1",
  "kind"`, `"version": "0.5.0",
  "kind"`, `"vendor.acme.flows.inner", "version": "0.4.1"`, `"vendor.acme.flows.inner", "version": "0.5.0"`,
		`"vendor.acme.flows.step@0.4.1"`, `"vendor.acme.flows.step@0.5.0"`).Replace(pj)
	if got := read(t, dir, "pack.json"); got != want {
		t.Errorf("pack.json is\n%s\nwant\n%s", got, want)
	}
	if len(res.Files) != 1 || len(res.Files[0].Edits) != 3 {
		t.Errorf("edits: %+v", res.Files)
	}
}

// TestVersionManifestShipped: a version manifest of the pack at the old
// version that the pack ships follows, with a note on its integrity; a
// copy in a folder the pack does not ship (dist/) is not the pack's and is
// left (bump reads what pack.ShippedFiles lists).
func TestVersionManifestShipped(t *testing.T) {
	t.Parallel()
	files := nodePack()
	vm := `{"name": "vendor.acme.bumpme", "version": "1.2.0", "kind": "node", "integrity": "sha256-AAAA",
  "tarballUrl": "/v2/packs/vendor.acme.bumpme/-/1.2.0.tgz", "signatureUrl": "/v2/packs/vendor.acme.bumpme/-/1.2.0.sig"}`
	files["schemas/published/vendor.acme.bumpme-1.2.0.json"] = vm
	files["dist/vendor.acme.bumpme-1.2.0.json"] = vm
	dir := writeTree(t, files)
	res, err := Run(dir, Options{Level: Patch, NoValidate: true})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(vm, "1.2.0", "1.2.1")
	if got := read(t, dir, "schemas/published/vendor.acme.bumpme-1.2.0.json"); got != want {
		t.Errorf("version manifest is\n%s\nwant\n%s", got, want)
	}
	if got := read(t, dir, "dist/vendor.acme.bumpme-1.2.0.json"); got != vm {
		t.Errorf("a file the pack does not ship was rewritten:\n%s", got)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "integrity") {
		t.Errorf("notes: %q", res.Notes)
	}
}

// TestRefusals: an invalid pack is refused (and bumped with NoValidate),
// a version that is not SemVer, an unknown level and auto without a base.
func TestRefusals(t *testing.T) {
	t.Parallel()
	files := nodePack()
	files["pack.json"] = strings.Replace(packJSON, `"category": "data"`, `"category": 7`, 1)
	dir := writeTree(t, files)
	res, err := Run(dir, Options{Level: Minor})
	if werr.CodeOf(err) != CodeInvalid || len(res.Problems) == 0 || res.Written {
		t.Errorf("invalid pack: %v %+v", err, res)
	}
	if read(t, dir, "pack.json") != files["pack.json"] {
		t.Error("an invalid pack was written")
	}
	if _, err := Run(dir, Options{Level: Minor, NoValidate: true}); err != nil {
		t.Errorf("--no-validate: %v", err)
	}
	files = nodePack()
	files["pack.json"] = strings.Replace(packJSON, `"1.2.0"`, `"1.2"`, 1)
	if _, err := Run(writeTree(t, files), Options{Level: Minor, NoValidate: true}); werr.CodeOf(err) != CodeNotSemVer {
		t.Errorf("1.2: %v", err)
	}
	dir = writeTree(t, nodePack())
	for _, o := range []Options{{Level: "huge"}, {Level: Auto}, {Level: Minor, From: dir}} {
		if _, err := Run(dir, o); !isUsage(err) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

func isUsage(err error) bool {
	c, ok := werr.ClassOf(err)
	return ok && c == werr.Usage
}

// TestHostile: a pack.json that links out, a schema that is a link (to a
// file inside or outside), a huge schema and one that does not parse: the
// bump writes nothing outside the pack, never through a link, and does not
// crash.
func TestHostile(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"pack.json": packJSON, "victim.json": schema(idv+"1.2.0/victim.json", "")})
	victim := read(t, outside, "victim.json")

	// pack.json is a link out of the pack.
	dir := writeTree(t, map[string]string{"index.mjs": "x"})
	if err := os.Symlink(filepath.Join(outside, "pack.json"), filepath.Join(dir, "pack.json")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := Run(dir, Options{Level: Minor, NoValidate: true}); err == nil {
		t.Error("a pack.json that links out was bumped")
	}
	if read(t, outside, "pack.json") != packJSON {
		t.Error("the file a linked pack.json names was rewritten")
	}

	// A schema that is a link out, one that is a link inside.
	files := nodePack()
	dir = writeTree(t, files)
	if err := os.Symlink(filepath.Join(outside, "victim.json"), filepath.Join(dir, "schemas", "victim.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("echo.output.json", filepath.Join(dir, "schemas", "alias.json")); err != nil {
		t.Fatal(err)
	}
	// A JSON file that does not parse.
	if err := os.WriteFile(filepath.Join(dir, "schemas", "broken.json"), []byte(`{"$id": "`+idv+`1.2.0/broken.json",`), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(dir, Options{Level: Minor, NoValidate: true})
	if err != nil {
		t.Fatalf("%v", err)
	}
	if read(t, outside, "victim.json") != victim {
		t.Error("a schema linking out was written through")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "schemas", "alias.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link inside the pack was replaced: %v", err)
	}
	for _, f := range res.Files {
		if strings.Contains(f.Path, "victim") || strings.Contains(f.Path, "alias") || strings.Contains(f.Path, "broken") {
			t.Errorf("rewrote %s", f.Path)
		}
	}
	if !strings.Contains(read(t, dir, "schemas/echo.output.json"), "1.3.0/") {
		t.Error("the pack's own schema was not bumped")
	}

	// A file over the registry's size limit: refused, nothing written.
	files = nodePack()
	files["schemas/huge.json"] = `{"$id": "` + idv + `1.2.0/huge.json", "x": "` + strings.Repeat("a", 6<<20) + `"}`
	dir = writeTree(t, files)
	if _, err := Run(dir, Options{Level: Minor, NoValidate: true}); werr.CodeOf(err) == "" {
		t.Errorf("a huge schema: %v, want a refusal with a code", err)
	}
	if read(t, dir, "pack.json") != packJSON {
		t.Error("a pack with a huge file was bumped")
	}
}

// compare is `wopkit diff OLD DIR`'s comparison, read fresh from disk.
func compare(t *testing.T, old *semdiff.Pack, dir string) *semdiff.Result {
	t.Helper()
	p, err := semdiff.Load(dir, semdiff.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return semdiff.Compare(old, p)
}

// lower is the version one level below the bump to nv from ov (the next
// smaller bump), "" when the bump was a patch.
func lower(ov, level string) string {
	v := semver.MustParse(ov)
	switch level {
	case Major:
		return v.IncMinor().String()
	case Minor:
		return v.IncPatch().String()
	}
	return ""
}

// TestAuto: auto takes the smallest bump of OLD's version that makes the
// comparison pass: a breaking change is a major bump (a minor one before
// 1.0.0), a feature a minor one (a patch before 1.0.0), a fix a patch, no
// change nothing; the next smaller bump would fail the comparison.
func TestAuto(t *testing.T) {
	t.Parallel()
	oldFiles := nodePack()
	narrower := strings.Replace(oldFiles["schemas/echo.input.json"], `"properties"`, `"required": ["text"], "properties"`, 1)
	wider := strings.Replace(oldFiles["schemas/echo.input.json"], `"text": {"type": "string"}`, `"text": {"type": "string"}, "more": {"type": "string"}`, 1)
	cases := []struct {
		name, version, file, content, level, want string
	}{
		{"breaking", "1.2.0", "schemas/echo.input.json", narrower, Major, "2.0.0"},
		{"feature", "1.2.0", "schemas/echo.input.json", wider, Minor, "1.3.0"},
		{"fix", "1.2.0", "README.md", "# words\n", Patch, "1.2.1"},
		{"breaking 0.x", "0.3.1", "schemas/echo.input.json", narrower, Minor, "0.4.0"},
		{"feature 0.x", "0.3.1", "schemas/echo.input.json", wider, Patch, "0.3.2"},
		{"nothing", "1.2.0", "", "", None, ""},
	}
	for _, tc := range cases {
		at := func(files map[string]string) map[string]string {
			out := map[string]string{}
			for k, v := range files {
				out[k] = strings.ReplaceAll(v, "1.2.0", tc.version)
			}
			return out
		}
		oldDir := writeTree(t, at(oldFiles))
		nf := at(nodePack())
		if tc.file != "" {
			nf[tc.file] = strings.ReplaceAll(tc.content, "1.2.0", tc.version)
		}
		dir := writeTree(t, nf)
		res, err := Run(dir, Options{Level: Auto, From: oldDir})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Level != tc.level || res.New != tc.want || res.ComparedWith != "vendor.acme.bumpme@"+tc.version {
			t.Errorf("%s: level %s new %s (compared with %s), want %s %s", tc.name, res.Level, res.New, res.ComparedWith, tc.level, tc.want)
		}
		old, err := semdiff.Load(oldDir, semdiff.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := compare(t, old, dir); !r.VersionOK {
			t.Errorf("%s: after the bump, diff says: %s", tc.name, r.Verdict)
		}
		if tc.level == None {
			if len(res.Files) != 0 || len(res.Notes) == 0 {
				t.Errorf("%s: files %+v notes %q", tc.name, res.Files, res.Notes)
			}
			continue
		}
		if lv := lower(tc.version, tc.level); lv != "" {
			probe := writeTree(t, nf)
			if _, err := Run(probe, Options{Level: Patch, NoValidate: true}); err != nil {
				t.Fatal(err)
			}
			// The next smaller bump, written by hand: diff must refuse it.
			pj := strings.Replace(read(t, probe, "pack.json"), `"version": "`+semver.MustParse(tc.version).IncPatch().String()+`"`, `"version": "`+lv+`"`, 1)
			if err := os.WriteFile(filepath.Join(probe, "pack.json"), []byte(pj), 0o644); err != nil {
				t.Fatal(err)
			}
			if r := compare(t, old, probe); r.VersionOK {
				t.Errorf("%s: %s would have been enough (%s): auto did not take the smallest bump", tc.name, lv, r.Verdict)
			}
		}
	}
}

// TestAutoAlreadyEnough: a version raised by hand far enough is left.
func TestAutoAlreadyEnough(t *testing.T) {
	t.Parallel()
	oldDir := writeTree(t, nodePack())
	nf := nodePack()
	nf["pack.json"] = strings.Replace(packJSON, `"1.2.0"`, `"1.5.0"`, 1)
	nf["README.md"] = "# changed\n"
	dir := writeTree(t, nf)
	res, err := Run(dir, Options{Level: Auto, From: oldDir, NoValidate: true})
	if err != nil || res.Level != None || len(res.Files) != 0 {
		t.Errorf("%v %+v", err, res)
	}
	other := nodePack()
	other["pack.json"] = strings.Replace(packJSON, "vendor.acme.bumpme", "vendor.acme.different", 1)
	if _, err := Run(dir, Options{Level: Auto, From: writeTree(t, other), NoValidate: true}); werr.CodeOf(err) != CodeOtherPack {
		t.Errorf("another pack: %v", err)
	}
}

// ownID is an $id of the pack name at some version.
func ownID(name string) *regexp.Regexp {
	return regexp.MustCompile(`(https://packs\.openwop\.dev/` + regexp.QuoteMeta(name) + `/)[0-9]+\.[0-9]+\.[0-9]+(/)`)
}

// TestRegistryHistory: for each pair of consecutive published versions in
// ../shared/fixtures/history, NEW's source as it stood before its release
// (NEW's files with OLD's version in pack.json and in every $id it owns:
// what an author holds after changing OLD and before bumping) is bumped
// by auto --from OLD to exactly the version `diff OLD NEW` asks for: OLD
// raised by the bump diff says NEW's changes need. NEW is published
// without passing the seed schemas (category "flow"), so NoValidate.
func TestRegistryHistory(t *testing.T) {
	t.Parallel()
	dir, ok := fixtures.Find()
	hist := filepath.Join(dir, "history")
	if _, err := os.Stat(hist); !ok || err != nil {
		t.Skipf("../shared/fixtures/history is absent (%v): the registry-history check needs it", err)
	}
	pairs := 0
	packs, _ := filepath.Glob(filepath.Join(hist, "*"))
	for _, pd := range packs {
		tgzs, _ := filepath.Glob(filepath.Join(pd, "*.tgz"))
		vs := make([]*semver.Version, 0, len(tgzs))
		for _, p := range tgzs {
			vs = append(vs, semver.MustParse(strings.TrimSuffix(filepath.Base(p), ".tgz")))
		}
		sortVersions(vs)
		for i := 1; i < len(vs); i++ {
			pairs++
			oldTgz := filepath.Join(pd, vs[i-1].Original()+".tgz")
			newTgz := filepath.Join(pd, vs[i].Original()+".tgz")
			old, err := semdiff.Load(oldTgz, semdiff.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			published, err := semdiff.Load(newTgz, semdiff.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			asked := semdiff.Compare(old, published)
			want := inc(vs[i-1], asked.Required)
			if !strings.Contains(asked.Verdict, want) {
				t.Fatalf("%s: diff's verdict %q does not name %s", newTgz, asked.Verdict, want)
			}
			src := unpackAsSource(t, newTgz, old.Name, old.Version)
			res, err := Run(src, Options{Level: Auto, From: oldTgz, NoValidate: true})
			if err != nil {
				t.Fatalf("%s: %v", newTgz, err)
			}
			if res.New != want || res.Level != asked.Required {
				t.Errorf("%s after %s: bump auto gives %s (%s), diff asks for %s (%s)", newTgz, oldTgz, res.New, res.Level, want, asked.Required)
			}
			if r := compare(t, old, src); !r.VersionOK {
				t.Errorf("%s: after the bump, diff says: %s", newTgz, r.Verdict)
			}
			ids := ownID(old.Name)
			n := 0
			_ = filepath.WalkDir(filepath.Join(src, "schemas"), func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				b, _ := os.ReadFile(p)
				for _, m := range ids.FindAllString(string(b), -1) {
					n++
					if !strings.Contains(m, "/"+want+"/") {
						t.Errorf("%s: %s still names %s", newTgz, p, m)
					}
				}
				return nil
			})
			if n == 0 {
				t.Errorf("%s: no $id of the pack found: the check proves nothing", newTgz)
			}
		}
	}
	if pairs < 2 {
		t.Fatalf("%d consecutive pairs in %s, want at least 2", pairs, hist)
	}
}

func sortVersions(vs []*semver.Version) {
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if vs[j].LessThan(vs[i]) {
				vs[i], vs[j] = vs[j], vs[i]
			}
		}
	}
}

// unpackAsSource writes the tarball's files into a new folder with pack.json's
// version and every $id of the pack set to version.
func unpackAsSource(t *testing.T, tgz, name, version string) string {
	t.Helper()
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tarball.ReadAll(bytes.NewReader(data), tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	ids := ownID(name)
	files := map[string]string{}
	for _, f := range a.Files {
		s := string(f.Data)
		if f.Name == "pack.json" {
			b, err := jsonedit.Set(f.Data, "/version", version)
			if err != nil {
				t.Fatal(err)
			}
			s = string(b)
		} else if strings.HasSuffix(f.Name, ".json") {
			s = ids.ReplaceAllString(s, "${1}"+version+"${2}")
		}
		files[f.Name] = s
	}
	return writeTree(t, files)
}

// dataPack is nodePack whose config schema also holds the pack's own URLs
// as data: a const, an enum, a default, examples and an unknown keyword
// whose values contain "$ref" and "$id" members (issue 42.2).
func dataPack() map[string]string {
	files := nodePack()
	own := idv + "1.2.0/common.json#/$defs/mode"
	files["schemas/echo.config.json"] = schema(idv+"1.2.0/echo.config.json", `,
  "properties": {
    "mode": {"$ref": "`+idv+`1.0.0/common.json#/$defs/mode"},
    "tag": {"const": {"$ref": "`+own+`"}},
    "alt": {"enum": [{"$id": "`+idv+`1.2.0/x.json"}, {"$ref": "`+own+`"}]},
    "def": {"type": "object", "default": {"$ref": "`+own+`"}, "examples": [{"$id": "`+idv+`1.2.0/y.json"}]},
    "ext": {"x-sample": {"$ref": "`+own+`"}}
  }`)
	return files
}

// TestBumpLeavesData: $ref and $id inside const, enum, default, examples
// and an unknown keyword are data, never rewritten; the schema's own $id
// and its $ref are.
func TestBumpLeavesData(t *testing.T) {
	t.Parallel()
	dir := writeTree(t, dataPack())
	if _, err := Run(dir, Options{Level: Minor}); err != nil {
		t.Fatal(err)
	}
	got := read(t, dir, "schemas/echo.config.json")
	if n := strings.Count(got, idv+"1.2.0/"); n != 6 {
		t.Errorf("%d of the 6 URLs in data kept, the file is\n%s", n, got)
	}
	if !strings.Contains(got, `"$id": "`+idv+`1.3.0/echo.config.json"`) || !strings.Contains(got, `{"$ref": "`+idv+`1.3.0/common.json#/$defs/mode"}`) {
		t.Errorf("the schema's own $id and $ref were not bumped:\n%s", got)
	}
}

// TestBumpDifferential (issue 42.9): after a bump that changes nothing
// but the version, every value OLD's schemas accept is accepted by NEW's
// (the validator says, each schema compiled with every file of its pack
// by $id), and diff finds no breaking change between the two.
func TestBumpDifferential(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]map[string]string{"node pack": nodePack(), "data in schemas": dataPack()} {
		dir := writeTree(t, files)
		old, err := semdiff.Load(dir, semdiff.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(dir, Options{Level: Patch}); err != nil {
			t.Fatal(err)
		}
		cur, err := semdiff.Load(dir, semdiff.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := semdiff.Compare(old, cur); len(r.Breaking()) != 0 {
			t.Errorf("%s: diff after a bump: %+v", name, r.Breaking())
		}
		samples := samplesOf(old)
		checked := 0
		for _, rel := range []string{"schemas/echo.config.json", "schemas/echo.input.json", "schemas/echo.output.json"} {
			os, ns := compileIn(t, old, rel), compileIn(t, cur, rel)
			for _, v := range samples {
				if os.Validate(v) == nil {
					checked++
					if err := ns.Validate(v); err != nil {
						t.Errorf("%s: %s accepted %s before the bump, refuses it after: %v", name, rel, js(v), err)
					}
				}
			}
		}
		if checked < 10 {
			t.Errorf("%s: only %d accepted samples: the check proves little", name, checked)
		}
	}
}

// samplesOf are values to try against a pack's schemas: every const,
// enum member, default and example in them, alone and as the value of
// each property any of them names, and a few plain values.
func samplesOf(p *semdiff.Pack) []any {
	atoms := []any{"a", "b", 1.0, nil, true, map[string]any{}, []any{}}
	names := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				switch k {
				case "const", "default":
					atoms = append(atoms, vv)
				case "enum", "examples":
					if l, ok := vv.([]any); ok {
						atoms = append(atoms, l...)
					}
				case "properties":
					if m, ok := vv.(map[string]any); ok {
						for name := range m {
							names[name] = true
						}
					}
				}
				walk(vv)
			}
		case []any:
			for _, vv := range x {
				walk(vv)
			}
		}
	}
	for rel := range p.Files {
		if strings.HasSuffix(rel, ".json") {
			walk(p.JSON(rel))
		}
	}
	out := append([]any(nil), atoms...)
	for name := range names {
		for _, a := range atoms {
			out = append(out, map[string]any{name: a}, map[string]any{"mode": "a", name: a})
		}
	}
	return out
}

// compileIn compiles the schema rel of the pack p with the validator,
// every JSON file of the pack added by its $id (and by its file URL).
func compileIn(t *testing.T, p *semdiff.Pack, rel string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	for name := range p.Files {
		m, ok := p.JSON(name).(map[string]any)
		if !ok || name == "pack.json" {
			continue
		}
		url := "file:///pack/" + name
		if id, ok := m["$id"].(string); ok {
			url = id
		}
		if err := c.AddResource(url, m); err != nil {
			t.Fatal(err)
		}
	}
	url := "file:///pack/" + rel
	if id, ok := p.JSON(rel).(map[string]any)["$id"].(string); ok {
		url = id
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return s
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Issue 44 item 4: the version line of the README `wopkit new` writes
// ships in the tarball; bump rewrites it, also when it names a version
// older than pack.json's (raised by hand), and touches nothing else.
func TestReadmeVersionLine(t *testing.T) {
	t.Parallel()
	files := nodePack()
	files["README.md"] = "# x\n\n| | |\n|---|---|\n| Version | `1.1.0` |\n\nVersion `1.2.0` in prose stays.\n"
	dir := writeTree(t, files)
	res, err := Run(dir, Options{Level: Minor})
	if err != nil {
		t.Fatal(err)
	}
	want := "# x\n\n| | |\n|---|---|\n| Version | `1.3.0` |\n\nVersion `1.2.0` in prose stays.\n"
	if got := read(t, dir, "README.md"); got != want || res.New != "1.3.0" {
		t.Errorf("README.md after bump to %s:\n%s", res.New, got)
	}
}

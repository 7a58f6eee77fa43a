package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/tarball"
)

// TestBumpCommand walks the second release: a new pack at 0.1.0,
// copied as the published version, then changed so that it breaks (its
// text input gains a maxLength); `bump auto --from` makes it 0.2.0 (the breaking bump
// before 1.0.0) in pack.json and in every schema $id, after which `diff`
// exits 0 and `validate --for-registry` reports no OW013 (5 errors when the
// version is raised by hand).
func TestBumpCommand(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "hello")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--set", "name=vendor.acme.hello", "--dir", dir); code != 0 {
		t.Fatalf("new: %d %s%s", code, out, errOut)
	}
	old := fixtures.CopyDir(t, dir)
	in := filepath.Join(dir, "schemas", "hello.input.json")
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = jsonedit.Set(b, "/properties/text/maxLength", 10); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}

	// By hand: the registry's gate refuses every stale $id.
	byHand := fixtures.CopyDir(t, dir)
	pj, _ := os.ReadFile(filepath.Join(byHand, "pack.json"))
	os.WriteFile(filepath.Join(byHand, "pack.json"), bytes.Replace(pj, []byte(`"0.1.0"`), []byte(`"0.2.0"`), 1), 0o644)
	out, _, code := runCmd(t, "validate", "--for-registry", byHand)
	if code != 1 || strings.Count(out, "[OW013]") != 3 {
		t.Fatalf("the version raised by hand: exit %d, want 3 OW013 errors\n%s", code, out)
	}

	before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	out, errOut, code := runCmd(t, "bump", "auto", dir, "--from", old, "--dry-run")
	if code != 0 || !strings.HasPrefix(out, "--- ") || !strings.Contains(out, `+  "version": "0.2.0",`) || !strings.Contains(errOut, "would bump") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "pack.json")); !bytes.Equal(now, before) {
		t.Fatal("the dry run wrote pack.json")
	}

	out, errOut, code = runCmd(t, "bump", "auto", dir, "--from", old, "--json")
	var res struct {
		Old, New, Level, ComparedWith string
		Reasons                       []struct{ Level, File, Pointer, Message, Rule string }
		Files                         []struct {
			Path  string
			Edits []struct{ Pointer, From, To string }
		}
		Written bool
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if res.Old != "0.1.0" || res.New != "0.2.0" || res.Level != "minor" || res.ComparedWith != "vendor.acme.hello@0.1.0" || !res.Written || len(res.Files) != 5 || res.Files[4].Path != "README.md" { // README: its version line
		t.Errorf("bump: %+v", res)
	}
	if len(res.Reasons) == 0 || res.Reasons[0].Level != "breaking" || res.Reasons[0].File != "schemas/hello.input.json" {
		t.Errorf("reasons: %+v", res.Reasons)
	}
	if _, errOut, code := runCmd(t, "diff", old, dir); code != 0 {
		t.Errorf("diff after the bump: exit %d %s", code, errOut)
	}
	if out, _, code := runCmd(t, "validate", "--for-registry", dir); code != 0 || strings.Contains(out, "OW013") {
		t.Errorf("validate --for-registry after the bump: exit %d\n%s", code, out)
	}

	// Nothing more to bump: exit 0, nothing written.
	out, _, code = runCmd(t, "bump", "auto", dir, "--from", old)
	if code != 0 || !strings.Contains(out, "already enough") {
		t.Errorf("a second auto: exit %d\n%s", code, out)
	}
	// Usage errors and refusals.
	for _, args := range [][]string{{"bump", "huge", dir}, {"bump", "auto", dir}, {"bump", "minor", dir, "--from", old}, {"bump"}} {
		if _, _, code := runCmd(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	pj, _ = os.ReadFile(filepath.Join(dir, "pack.json"))
	os.WriteFile(filepath.Join(dir, "pack.json"), bytes.Replace(pj, []byte(`"role": "pure"`), []byte(`"role": 7`), 1), 0o644)
	if _, errOut, code := runCmd(t, "bump", "patch", dir); code != 1 || !strings.Contains(errOut, "bump_pack_invalid") && !strings.Contains(errOut, "does not validate") {
		t.Errorf("an invalid pack: exit %d %s", code, errOut)
	}
}

// TestBumpHistory: for each pair of consecutive versions the registry
// published (../shared/fixtures/history), NEW's source before its release
// (NEW's files, with OLD's version in pack.json and in the pack's $ids) is
// bumped by `bump auto --from OLD` to the version `wopkit diff OLD NEW`
// names in its verdict ("… or later"), and `diff OLD` then exits 0; so is
// NEW as published (a bump too small, made by hand).
func TestBumpHistory(t *testing.T) {
	t.Parallel()
	fx, ok := fixtures.Find()
	hist := filepath.Join(fx, "history")
	if _, err := os.Stat(hist); !ok || err != nil {
		t.Skipf("../shared/fixtures/history is absent (%v): the registry-history check needs it", err)
	}
	pairs := [][3]string{
		{"core.openwop.flow", "1.0.1", "1.1.0"},
		{"core.openwop.agents.react", "1.0.2", "1.0.3"},
	}
	asked := regexp.MustCompile(`\(([0-9]+\.[0-9]+\.[0-9]+) or later\)`)
	for _, p := range pairs {
		oldTgz := filepath.Join(hist, p[0], p[1]+".tgz")
		newTgz := filepath.Join(hist, p[0], p[2]+".tgz")
		out, _, code := runCmd(t, "diff", oldTgz, newTgz)
		m := asked.FindStringSubmatch(out)
		if code != 1 || m == nil {
			t.Fatalf("diff %s %s: exit %d, no version asked for\n%s", p[1], p[2], code, out)
		}
		ids := regexp.MustCompile(`(https://packs\.openwop\.dev/` + regexp.QuoteMeta(p[0]) + `/)[0-9.]+/`)
		src := unpackTgz(t, newTgz, func(name string, b []byte) []byte {
			if name == "pack.json" {
				out, err := jsonedit.Set(b, "/version", p[1])
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			return ids.ReplaceAll(b, []byte("${1}"+p[1]+"/"))
		})
		// NEW does not pass the seed schemas (category "flow"): --no-validate.
		out, errOut, code := runCmd(t, "bump", "auto", src, "--from", oldTgz, "--no-validate", "--json")
		var res struct{ New string }
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.New != m[1] {
			t.Errorf("%s %s → %s: bump auto gives %q (exit %d, %v), diff asks for %s\n%s", p[0], p[1], p[2], res.New, code, err, m[1], errOut)
		}
		if out, _, code := runCmd(t, "diff", oldTgz, src); code != 0 {
			t.Errorf("%s: diff after the bump: exit %d\n%s", p[0], code, out)
		}
		// NEW as published, its version raised too little by hand: the same.
		asIs := unpackTgz(t, newTgz, func(_ string, b []byte) []byte { return b })
		out, errOut, code = runCmd(t, "bump", "auto", asIs, "--from", oldTgz, "--no-validate", "--json")
		res.New = ""
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.New != m[1] {
			t.Errorf("%s %s as published: bump auto gives %q (exit %d, %v), diff asks for %s\n%s", p[0], p[2], res.New, code, err, m[1], errOut)
		}
	}
}

// unpackTgz writes the files of a tarball, each through mutate, into a new
// folder.
func unpackTgz(t *testing.T, tgz string, mutate func(name string, b []byte) []byte) string {
	t.Helper()
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tarball.ReadAll(bytes.NewReader(data), tarball.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f.Name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f.Name), mutate(f.Name, f.Data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBumpAgainstRegistry: auto with --registry alone compares with the
// latest version the checkout holds, and --from NAME@VERSION reads it from
// there: the published core.openwop.agents.react 1.0.3 with a new README
// is a fix, 1.0.4; a pack the checkout does not hold is refused.
func TestBumpAgainstRegistry(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	tgz := filepath.Join(reg, "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.tgz")
	for _, from := range [][]string{nil, {"--from", "core.openwop.agents.react@1.0.3"}} {
		src := unpackTgz(t, tgz, func(name string, b []byte) []byte {
			if name == "README.md" {
				return append(b, "\nMore words.\n"...)
			}
			return b
		})
		args := append([]string{"bump", "auto", src, "--registry", reg, "--no-validate", "--json"}, from...)
		out, errOut, code := runCmd(t, args...)
		var res struct{ New, Level, ComparedWith string }
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.New != "1.0.4" || res.Level != "patch" || res.ComparedWith != "core.openwop.agents.react@1.0.3" {
			t.Errorf("%q: exit %d %+v %v\n%s%s", args, code, res, err, out, errOut)
		}
	}
	src := unpackTgz(t, tgz, func(name string, b []byte) []byte {
		if name == "pack.json" {
			out, _ := jsonedit.Set(b, "/name", "vendor.acme.unpublished")
			return out
		}
		return b
	})
	if _, errOut, code := runCmd(t, "bump", "auto", src, "--registry", reg, "--no-validate"); code != 1 || !strings.Contains(errOut, "no published version") {
		t.Errorf("an unpublished pack: exit %d %s", code, errOut)
	}
}

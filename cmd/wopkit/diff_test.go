package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// diff of the real flow pair: the break 1.1.0 hides, exit 1; the old side
// given as a folder (the tarball unpacked) reads the same.
func TestDiffRealHistory(t *testing.T) {
	t.Parallel()
	old := fixtures.Path(t, "history", "core.openwop.flow", "1.0.1.tgz")
	nw := fixtures.Path(t, "history", "core.openwop.flow", "1.1.0.tgz")
	if _, err := os.Stat(old); err != nil {
		t.Skipf("../shared/fixtures/history is absent: %v", err)
	}
	dir := fixtures.Untar(t, old, t.TempDir())
	for _, from := range []string{old, dir} {
		out, errOut, code := runCmd(t, "diff", from, nw)
		if code != 1 || !strings.Contains(out, "breaking schemas/merge.config.json /allOf/0: node core.flow.merge config accepts less") ||
			!strings.Contains(out, "version too low: 1 breaking, 2 feature, ") || !strings.Contains(out, "(2.0.0 or later)") {
			t.Errorf("diff %s: exit %d\n%s%s", from, code, out, errOut)
		}
	}
}

// --json has exactly the members (and the added notes/verdict);
// NAME@VERSION reads the registry checkout; the same bytes give exit 0.
func TestDiffJSONAndRegistry(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	nw := fixtures.Path(t, "history", "core.openwop.flow", "1.1.0.tgz")
	if _, err := os.Stat(nw); err != nil {
		t.Skipf("../shared/fixtures/history is absent: %v", err)
	}
	out, errOut, code := runCmd(t, "diff", "core.openwop.flow@1.1.0", nw, "--registry", reg, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, ",") != "changes,from,required,to,verdict,versionOK" || got["required"] != "none" || got["versionOK"] != true ||
		got["from"] != "core.openwop.flow@1.1.0" || mustJSON(t, got["changes"]) != "[]" {
		t.Errorf("--json: %s", out)
	}
	old := fixtures.Path(t, "history", "core.openwop.agents.react", "1.0.2.tgz")
	out, _, code = runCmd(t, "diff", old, "core.openwop.agents.react@1.0.3", "--registry", reg, "--json")
	var r struct {
		Required  string
		VersionOK bool
		Changes   []struct{ Level, File, Pointer, Message, Rule string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Required != "major" || r.VersionOK || len(r.Changes) == 0 ||
		r.Changes[0].Level != "breaking" || r.Changes[0].Pointer != "/agents/0/role" || r.Changes[0].Rule != "diff/value-changed" || r.Changes[0].Message == "" {
		t.Errorf("react --json: exit %d %s", code, out)
	}
}

// Exit codes: 2 for usage, 3 for an input that cannot be read or is
// refused (its code kept), never 1, which is the verdict.
func TestDiffExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.tgz")
	os.WriteFile(junk, []byte("not gzip at all"), 0o644)
	pk := filepath.Join(dir, "pack")
	os.MkdirAll(pk, 0o755)
	os.WriteFile(filepath.Join(pk, "pack.json"), []byte(`{"name":"a.b","version":"1.0.0"}`), 0o644)
	broken := filepath.Join(dir, "broken")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "pack.json"), []byte(`{"name":"a.b",`), 0o644)
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"diff", pk}, 2, "wrong arguments"},
		{[]string{"diff", "a.b@1.0.0", pk}, 2, "no registry was given"},
		{[]string{"diff", junk, pk}, 3, "junk.tgz"},
		{[]string{"diff", pk, broken}, 3, "pack.json"},
		{[]string{"diff", pk, filepath.Join(dir, "missing")}, 3, "missing"},
		{[]string{"diff", pk, pk, "--format", "yaml"}, 2, "unknown --format"},
		{[]string{"diff", pk, pk}, 0, ""},
	}
	for _, tc := range cases {
		out, errOut, code := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tc.args, code, tc.code, tc.err, out, errOut)
		}
	}
}

// --format github annotates the new side's files; sarif is SARIF 2.1.0
// with the diff rules described.
func TestDiffFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, version, typeID string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "pack.json"), []byte(`{"name":"acme.x","version":"`+version+`","nodes":[{"typeId":"`+typeID+`"}]}`), 0o644)
		return d
	}
	old, nw := write("old", "1.0.0", "acme.x.a"), write("new", "1.1.0", "acme.x.b")
	out, _, code := runCmd(t, "diff", old, nw, "--format", "github")
	if code != 1 || !strings.Contains(out, "::error file=") || !strings.Contains(out, "title=diff/entry-removed") || !strings.Contains(out, "::error file=") {
		t.Errorf("github: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, "diff", old, nw, "--format", "sarif")
	var s struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Results []struct{ RuleID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != 1 || s.Version != "2.1.0" || len(s.Runs) != 1 || len(s.Runs[0].Results) != 3 {
		t.Fatalf("sarif: exit %d %v\n%s", code, err, out)
	}
	var ids []string
	for _, r := range s.Runs[0].Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	if strings.Join(ids, ",") != "diff/entry-added,diff/entry-removed,diff/version-too-low" {
		t.Errorf("sarif rules: %v", ids)
	}
}

// validate --for-registry --registry compares a pack with the version it
// follows in the checkout: flow 1.1.0 after a published 1.0.1 gets
// diff/version-too-low on /version and the break as a warning on the
// schema; with nothing published before, neither.
func TestValidateComparesWithRegistry(t *testing.T) {
	t.Parallel()
	old := fixtures.Path(t, "history", "core.openwop.flow", "1.0.1.tgz")
	if _, err := os.Stat(old); err != nil {
		t.Skipf("../shared/fixtures/history is absent: %v", err)
	}
	reg := t.TempDir()
	os.MkdirAll(filepath.Join(reg, ".well-known"), 0o755)
	wk, _ := os.ReadFile(filepath.Join(fixtures.Registry(t), ".well-known", "openwop-registry.json"))
	os.WriteFile(filepath.Join(reg, ".well-known", "openwop-registry.json"), wk, 0o644)
	nw := fixtures.Path(t, "history", "core.openwop.flow", "1.1.0.tgz")
	problems := func() map[string]string {
		out, errOut, code := runCmd(t, "validate", nw, "--for-registry", "--registry", reg, "--json")
		if code != 1 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep struct {
			Files []struct {
				Path             string
				Errors, Warnings []struct{ Pointer, Rule, Message string }
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range rep.Files {
			for _, p := range append(f.Errors, f.Warnings...) {
				if strings.HasPrefix(p.Rule, "diff/") {
					got[filepath.Base(f.Path)+" "+p.Pointer+" "+p.Rule] = p.Message
				}
			}
		}
		return got
	}
	if got := problems(); len(got) != 0 {
		t.Errorf("nothing published before, yet: %v", got)
	}
	dst := filepath.Join(reg, "v1", "packs", "core.openwop.flow", "-")
	os.MkdirAll(dst, 0o755)
	data, _ := os.ReadFile(old)
	os.WriteFile(filepath.Join(dst, "1.0.1.tgz"), data, 0o644)
	got := problems()
	if !strings.Contains(got["pack.json /version diff/version-too-low"], "version_bump_too_small") ||
		!strings.Contains(got["merge.config.json /allOf/0 diff/input-narrowed"], "breaking since core.openwop.flow@1.0.1") || len(got) != 2 {
		t.Errorf("problems: %v", got)
	}
}

// validate --for-registry --registry runs publish's gates that need no
// signed release: a folder of core.openwop.flow at the published 1.1.0
// is refused as publish would (version_conflict on /version).
func TestValidateRunsPublishGates(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	dir := fixtures.Untar(t, fixtures.Tarball(t, "core.openwop.flow", "1.1.0"), t.TempDir())
	out, errOut, code := runCmd(t, "validate", dir, "--for-registry", "--registry", reg, "--json")
	if code != 1 || !strings.Contains(out, `"pointer":"/version"`) || !strings.Contains(out, `"rule":"version_conflict"`) || !strings.Contains(out, "publish would refuse it") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	if _, errOut, code := runCmd(t, "validate", dir, "--registry", reg); code != 2 || !strings.Contains(errOut, "--for-registry") {
		t.Errorf("--registry alone: exit %d %s", code, errOut)
	}
}

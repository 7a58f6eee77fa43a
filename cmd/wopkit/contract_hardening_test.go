package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/werr"
)

// writePack writes a minimal valid-looking node pack with extra top-level
// keys (each an unknown property, so one problem each) into a new directory.
func writeCapPack(t *testing.T, extra int) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(fixtures.Path(t, "source-packs", "core.openwop.a2a", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < extra; i++ {
		m[fmt.Sprintf("zz%d", i)] = i
	}
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestValidateCapsProblemsPerFile: 500 unknown keys print at most
// maxTextProblems problem lines and a summary line with the right count;
// --json still has them all.
func TestValidateCapsProblemsPerFile(t *testing.T) {
	t.Parallel()
	dir := writeCapPack(t, 500)
	out, _, code := runCmd(t, "validate", dir)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	lines := strings.Count(out, "[OW") + strings.Count(out, "[schema")
	if lines > 200 {
		t.Fatalf("%d problem lines printed, want at most 200", lines)
	}
	outJ, _, _ := runCmd(t, "validate", dir, "--json")
	var rep struct {
		Files []struct {
			Errors, Warnings []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(outJ), &rep); err != nil || len(rep.Files) != 1 {
		t.Fatalf("%v: %s", err, outJ)
	}
	total := len(rep.Files[0].Errors) + len(rep.Files[0].Warnings)
	if total < 500 {
		t.Fatalf("json has %d problems, want every one of the 500+", total)
	}
	want := fmt.Sprintf("… and %d more problems", total-200)
	if !strings.Contains(out, want) {
		t.Fatalf("no summary %q in text output:\n%s", want, out[len(out)-400:])
	}
}

// TestValidateJSONTarballPaths: a problem in a file inside a tarball is
// reported under "x.tgz!/schemas/a.json" in --json output, not with the
// tarball path twice (issue 10 item 12).
func TestValidateJSONTarballPaths(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	pj := filepath.Join(dir, "pack.json")
	data, _ := os.ReadFile(pj)
	data = []byte(strings.Replace(string(data), `"label": "Greet"`, `"label": "Greet", "inputSchemaRef": "schemas/a.json"`, 1))
	os.WriteFile(pj, data, 0o644)
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	os.WriteFile(filepath.Join(dir, "schemas", "a.json"), []byte(`{"type": "object",}`), 0o644)
	tgz := filepath.Join(t.TempDir(), "x.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errOut)
	}
	out, _, code := runCmd(t, "validate", tgz, "--json")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep struct {
		Files []struct {
			Path   string
			Errors []struct{ Rule string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var paths []string
	found := false
	for _, f := range rep.Files {
		paths = append(paths, f.Path)
		if f.Path == tgz+"!/schemas/a.json" && len(f.Errors) > 0 {
			found = true
		}
	}
	if !found {
		t.Fatalf("no report on %s!/schemas/a.json with errors; paths: %q", tgz, paths)
	}
	golden(t, "validate-tarball.json", strings.ReplaceAll(out, tgz, "X.TGZ"))
	text, _, _ := runCmd(t, "validate", tgz)
	if !strings.Contains(text, tgz+"!/schemas/a.json:1:") {
		t.Errorf("text output does not name the file inside the tarball:\n%s", text)
	}
}

// TestPackExitCodesAgree: a keys directory that is a symbolic link leading
// outside is refused input (exit 1), and an unreadable pack.json is an
// environment failure (exit 3) as validate says (issue 10 item 11).
func TestPackExitCodesAgree(t *testing.T) {
	t.Parallel()
	t.Run("keys symlink outside", func(t *testing.T) {
		dir := writePack(t)
		if err := os.Symlink(t.TempDir(), filepath.Join(dir, "keys")); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--dry-run")
		if code != 1 || !strings.Contains(errOut, "keys") {
			t.Fatalf("exit %d, want 1: %s", code, errOut)
		}
	})
	t.Run("unreadable pack.json", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("running as root: permissions do not deny reading (run as a normal user to check exit 3)")
		}
		dir := writePack(t)
		pj := filepath.Join(dir, "pack.json")
		if err := os.Chmod(pj, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(pj, 0o644)
		_, errOut, vcode := runCmd(t, "validate", dir)
		_, errOut2, pcode := runCmd(t, "pack", dir, "--no-validate", "--dry-run")
		if vcode != 3 || pcode != 3 {
			t.Fatalf("validate exit %d, pack exit %d, want 3 and 3:\n%s\n%s", vcode, pcode, errOut, errOut2)
		}
	})
}

// hostileText erases the line, forges a verdict, sets the window title and
// reverses the text that follows.
const hostileText = "x\x1b[2K\rOK    fake.tgz: all good\x1b]0;pwned\x07 \u202egnp.exe \u009b31m"

func assertInert(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\r", "\x07", "\u202e", "\u009b"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s prints %q raw:\n%q", what, bad, out)
		}
	}
	if !strings.Contains(out, `\x1b[2K`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("%s does not show the escaped sequence:\n%s", what, out)
	}
}

// TestTerminalEscapesInert: strings from a pack, a tarball's name and its
// entries reach inspect, verify and validate text output escaped (issue 10
// item 7); --json stays valid JSON carrying the original string.
func TestTerminalEscapesInert(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	pj := filepath.Join(dir, "pack.json")
	data, _ := os.ReadFile(pj)
	desc, _ := json.Marshal(hostileText)
	data = []byte(strings.Replace(string(data), `"Hello <world> & co"`, string(desc), 1))
	data = []byte(strings.Replace(string(data), `"label": "Greet"`, `"label": "Greet", "x`+"\\u001b[2K"+`\u202e": 1`, 1))
	os.WriteFile(pj, data, 0o644)
	tgz := filepath.Join(t.TempDir(), "e\x1b[2K\u202e.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errOut)
	}
	out, errOut, _ := runCmd(t, "inspect", tgz)
	assertInert(t, "inspect", out+errOut)
	key := filepath.Join(t.TempDir(), "k")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: %s", errOut)
	}
	out, errOut, _ = runCmd(t, "verify", tgz, "--key", key+".pub")
	if !strings.Contains(out, "FAIL") {
		t.Fatalf("verify of an unsigned pack: %s%s", out, errOut)
	}
	assertInert(t, "verify", out+errOut)
	out, errOut, _ = runCmd(t, "validate", dir)
	assertInert(t, "validate", out+errOut)
	out, _, _ = runCmd(t, "inspect", tgz, "--json")
	var info struct{ Manifest struct{ Description string } }
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.Manifest.Description != hostileText {
		t.Errorf("--json: %v, description %q", err, info.Manifest.Description)
	}
}

// TestUsageErrorsByOrigin: cobra's own complaints exit 2 whatever their
// wording, and an unclassified error from a command's code exits 3 even
// when its text reads like a cobra message (issue 10 item 15).
func TestUsageErrorsByOrigin(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--no-such-flag"},
		{"no-such-verb"},
		{"validate", "--kind"},
		{"validate", "--strict=maybe"},
		{"inspect"},
	} {
		if _, errOut, code := runCmd(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, code, errOut)
		}
	}
	root := newRootCmd()
	cmd := &cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error {
		return errors.New("unknown flag: this is an I/O failure worded like cobra")
	}}
	root.AddCommand(cmd)
	markRun(cmd)
	root.SetArgs([]string{"boom"})
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	if code := exitCode(root.Execute()); code != 3 {
		t.Errorf("a command's own unclassified error: exit %d, want 3", code)
	}
	// An unclassified error that did not come from a command: cobra's.
	if code := exitCode(errors.New("something cobra says")); code != 2 {
		t.Errorf("cobra error: exit %d, want 2", code)
	}
}

// TestFieldErrorsCarryTheirClass: scaffold.FieldErrors reaches exit 1 and a
// stable code through werr without any conversion.
func TestFieldErrorsCarryTheirClass(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("wrapped: %w", scaffold.FieldErrors{{Field: "name", Message: "bad"}})
	if code := exitCode(err); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if c := werr.CodeOf(err); c != "scaffold_invalid_answers" {
		t.Errorf("code %q", c)
	}
}

// TestWroteLinesAndJSONInert (issue 24, item 7): a pack whose name holds
// ESC, OSC, RLO and C1 controls: the "wrote …" lines of `pack
// --no-validate` and `sign DIR --no-validate` print it escaped, and the
// --json of inspect, verify and validate carries C1 controls, DEL and the
// bidi controls as \u escapes (valid JSON, the same value).
func TestWroteLinesAndJSONInert(t *testing.T) {
	dir := writePack(t)
	pj := filepath.Join(dir, "pack.json")
	data, _ := os.ReadFile(pj)
	const hostileName = "vendor.acme.x\x1b[2K\x1b]0;pwned\x07\u202egnp\u009b31m\u009d0;t\x7f"
	name, _ := json.Marshal(hostileName)
	data = []byte(strings.Replace(string(data), `"vendor.acme.hello"`, string(name), 1))
	os.WriteFile(pj, data, 0o644)
	t.Chdir(t.TempDir())
	key := filepath.Join(t.TempDir(), "k")
	if _, errOut, code := runCmd(t, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: %s", errOut)
	}
	out, errOut, code := runCmd(t, "pack", dir, "--no-validate")
	if code != 0 || !strings.Contains(out, "wrote ") {
		t.Fatalf("pack: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "pack --no-validate", out+errOut)
	packed, _ := filepath.Glob("vendor.*")
	for _, f := range packed {
		os.Remove(f)
	}
	out, errOut, code = runCmd(t, "sign", dir, "--no-validate", "--key", key+".key", "--key-id", "k-1")
	if code != 0 || !strings.Contains(out, "wrote ") {
		t.Fatalf("sign: exit %d\n%s%s", code, out, errOut)
	}
	assertInert(t, "sign DIR --no-validate", out+errOut)
	tgzs, _ := filepath.Glob("*.tgz")
	if len(tgzs) != 1 {
		t.Fatalf("tarballs: %q", tgzs)
	}
	for _, args := range [][]string{{"inspect", tgzs[0], "--json"}, {"verify", tgzs[0], "--key", key + ".pub", "--json"}, {"validate", dir, "--json"}} {
		out, errOut, _ := runCmd(t, args...)
		for _, r := range out {
			if r == '\u009b' || r == '\u009d' || r == '\x7f' || r == '\u202e' || r == '\x1b' || r == '\x07' {
				t.Errorf("%s prints %U raw", args[0], r)
			}
		}
		if !json.Valid([]byte(out)) || !strings.Contains(out, `\u009b`) || !strings.Contains(out, `\u202e`) {
			t.Errorf("%s --json:\n%s%s", args[0], out, errOut)
		}
	}
}

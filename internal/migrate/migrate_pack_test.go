package migrate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/werr"
)

// v1Pack writes a valid v1 pack (wopkit's own v1 scaffold, remote runtime:
// no code) and returns its directory and pack.json bytes.
func v1Pack(t *testing.T) (string, []byte) {
	t.Helper()
	dir := scaffoldV1(t, "remote")
	b, err := os.ReadFile(filepath.Join(dir, "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, b
}

// edited replaces pack.json of dir with src edited at pointer.
func edited(t *testing.T, dir string, src []byte, pointer string, value any) []byte {
	t.Helper()
	out, err := jsonedit.Set(src, pointer, value)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func unchanged(t *testing.T, dir string, want []byte) {
	t.Helper()
	got, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !bytes.Equal(got, want) {
		t.Errorf("pack.json was written:\n%s", got)
	}
}

func TestPackDryRunAndWrite(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	res, err := Pack(dir, Options{DryRun: true})
	if err != nil || res.Written || res.Already || res.Diff == "" || len(res.Changes) == 0 {
		t.Fatalf("dry run: %v %+v", err, res)
	}
	unchanged(t, dir, src)
	if !strings.Contains(res.Diff, `+  "kind": "node",`) || !strings.Contains(res.Diff, `-    "openwop": ">=1.0.0 <2.0.0"`) {
		t.Errorf("diff:\n%s", res.Diff)
	}
	// A pack.json path works as the directory does.
	res, err = Pack(filepath.Join(dir, "pack.json"), Options{})
	if err != nil || !res.Written {
		t.Fatalf("%v %+v", err, res)
	}
	again, err := Pack(dir, Options{})
	if err != nil || !again.Already || again.Diff != "" || len(again.Notes) != 0 {
		t.Errorf("a v2 pack: %v %+v", err, again)
	}
}

func TestPackRefused(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	src = edited(t, dir, src, "/peerDependencies", map[string]any{"host.teleport": "supported"})
	res, err := Pack(dir, Options{})
	if werr.CodeOf(err) != CodeRefused || werr.ExitCode(err) != 1 {
		t.Fatalf("want %s (exit 1), got %v", CodeRefused, err)
	}
	if res == nil || len(res.Problems) != 1 || res.Problems[0].Rule != "migrate/peer_unknown" || res.Problems[0].File == "" {
		t.Fatalf("problems: %+v", res)
	}
	unchanged(t, dir, src)
	// --no-validate does not override a refusal: nothing was computed.
	if _, err := Pack(dir, Options{NoValidate: true}); werr.CodeOf(err) != CodeRefused {
		t.Errorf("no-validate: %v", err)
	}
	unchanged(t, dir, src)
}

// TestPackResultInvalid: a migration the v2 check refuses is not written
// (here v2's closed engines object refuses engines.node), unless NoValidate.
func TestPackResultInvalid(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	src = edited(t, dir, src, "/engines/node", ">=20")
	res, err := Pack(dir, Options{})
	if werr.CodeOf(err) != CodeResultInvalid || werr.ExitCode(err) != 1 {
		t.Fatalf("want %s, got %v", CodeResultInvalid, err)
	}
	found := false
	for _, p := range res.Problems {
		if p.Pointer == "/engines" || p.Pointer == "/engines/node" {
			found = true
			if strings.Contains(p.Message, "v1 pack has it too") {
				t.Errorf("a problem the migration brought is marked as inherited: %s", p.Message)
			}
		}
	}
	if !found || res.Written || res.Diff == "" {
		t.Errorf("want a problem at /engines and the diff: %+v", res)
	}
	unchanged(t, dir, src)
	res, err = Pack(dir, Options{NoValidate: true})
	if err != nil || !res.Written {
		t.Fatalf("no-validate: %v %+v", err, res)
	}
}

// TestPackInheritedProblems: a problem the v1 pack already had is marked as
// such in the refusal.
func TestPackInheritedProblems(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	edited(t, dir, src, "/agents/0/systemPromptRef", "prompts/missing.md")
	res, err := Pack(dir, Options{})
	if werr.CodeOf(err) != CodeResultInvalid {
		t.Fatalf("want %s, got %v", CodeResultInvalid, err)
	}
	found := false
	for _, p := range res.Problems {
		if p.Rule == "OW005" {
			found = true
			if !strings.Contains(p.Message, "the v1 pack has it too") {
				t.Errorf("not marked as inherited: %s", p.Message)
			}
		}
	}
	if !found {
		t.Errorf("no OW005: %+v", res.Problems)
	}
}

// TestPackSignatureNotes: a signed v1 pack is relabelled and told that its
// signature does not carry over; an unsigned one hears nothing of it.
func TestPackSignatureNotes(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	res, err := Pack(dir, Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "sign") {
			t.Errorf("unsigned pack got a signing note: %s", n)
		}
	}
	edited(t, dir, src, "/signing", map[string]any{"method": "manual", "publicKeyRef": "acme-1", "signatureRef": "keys/pack.json.sig"})
	os.MkdirAll(filepath.Join(dir, "keys"), 0o755)
	os.WriteFile(filepath.Join(dir, "keys", "pack.json.sig"), make([]byte, 64), 0o644)
	res, err = Pack(dir, Options{})
	if err != nil || !res.Written {
		t.Fatalf("%v %+v", err, res)
	}
	all := strings.Join(res.Notes, "\n")
	for _, want := range []string{"keys/pack.json.sig", "--sign v2", "relabelled", "signatureRef"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !bytes.Contains(after, []byte("\"signing\": {\n    \"keyId\": \"acme-1\",\n    \"scheme\": \"ed25519-canonical-json\"\n  }")) {
		t.Errorf("signing block:\n%s", after)
	}
}

func TestPackPaths(t *testing.T) {
	t.Parallel()
	if _, err := Pack(filepath.Join(t.TempDir(), "nope"), Options{}); werr.ExitCode(err) != 3 {
		t.Errorf("missing path: %v (exit %d)", err, werr.ExitCode(err))
	}
	if _, err := Pack(t.TempDir(), Options{}); werr.CodeOf(err) != "pack_manifest_missing" {
		t.Errorf("empty directory: %v", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte("{"), 0o644)
	if _, err := Pack(dir, Options{}); werr.ExitCode(err) != 1 {
		t.Errorf("broken JSON: %v", err)
	}
}

// TestPackLocks: a migration waits for another wopkit holding the pack
// directory (new --pack, another migrate); a dry run does not.
func TestPackLocks(t *testing.T) {
	t.Parallel()
	dir, _ := v1Pack(t)
	unlock, err := atomicfile.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Pack(dir, Options{DryRun: true}); err != nil {
		t.Fatalf("dry run under a lock: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Pack(dir, Options{})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("migrate did not wait for the lock: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testwait.Ceiling):
		t.Fatal("migrate still waiting after the lock was released")
	}
}

// A read-only pack.json, and a pack.json that links to a file outside the
// pack, are refused: nothing is written (the old migrate replaced both).
func TestPackRefusesReadOnlyAndOutsideLink(t *testing.T) {
	t.Parallel()
	dir, src := v1Pack(t)
	file := filepath.Join(dir, "pack.json")
	if err := os.Chmod(file, 0o444); err != nil {
		t.Fatal(err)
	}
	_, err := Pack(dir, Options{})
	if werr.CodeOf(err) != "file_read_only" {
		t.Fatalf("read-only: %v", err)
	}
	unchanged(t, dir, src)
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	// --dry-run still shows the change.
	if res, err := Pack(dir, Options{DryRun: true}); err != nil || res.Diff == "" {
		t.Errorf("dry run of a read-only manifest: %v", err)
	}

	outside := t.TempDir()
	target := filepath.Join(outside, "elsewhere.json")
	if err := os.WriteFile(target, src, 0o644); err != nil {
		t.Fatal(err)
	}
	dir2, _ := v1Pack(t)
	link := filepath.Join(dir2, "pack.json")
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir2, link} {
		if _, err := Pack(p, Options{}); werr.CodeOf(err) != "path_outside_root" {
			t.Fatalf("%s: link out of the pack: %v", p, err)
		}
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, src) {
		t.Errorf("the file outside the pack was rewritten")
	}
}

package pack

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Check lists every refusal, each on its file, where Pack stops at the
// first; a clean pack has none.
func TestCheckListsEveryRefusal(t *testing.T) {
	t.Parallel()
	clean := fixtures.CopyDir(t, "testdata/basic")
	if list, err := Check(Options{Dir: clean}); err != nil || len(list) != 0 {
		t.Fatalf("clean pack: %v %v", list, err)
	}
	dir := fixtures.CopyDir(t, "testdata/basic")
	for name, data := range map[string]string{
		"schemas/.env":        "A=1",
		"keys/.git/config":    "x",
		"keys/dev.key":        "-----BEGIN OPENSSH PRIVATE KEY-----\n" + fake("b3Bl", 60, alnums) + "\n-----END OPENSSH PRIVATE KEY-----\n",
		"schemas/con.json":    "{}",
		"prompts/big.md":      string(make([]byte, 4<<10)),
		".openwopignore":      "prompts/helper.md\n",
		"schemas/nul.txt.bak": "x",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lim := tarball.Limits{MaxEntry: 2 << 10}
	list, err := Check(Options{Dir: dir, Limits: &lim})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list {
		got = append(got, r.File+" "+r.Err.Code)
	}
	for _, want := range []string{
		"schemas/.env pack_file_forbidden",
		"keys/.git pack_file_forbidden",
		"keys/dev.key pack_private_key",
		"schemas/con.json tarball_windows_name",
		"schemas/nul.txt.bak tarball_windows_name",
		"prompts/big.md pack_too_large",
		"prompts/helper.md pack_file_ignored",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	_, perr := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate, Limits: &lim})
	if c := werr.CodeOf(perr); !slices.ContainsFunc(list, func(r Refusal) bool { return r.Err.Code == c }) {
		t.Errorf("pack refused with %q (%v), which Check does not list", c, perr)
	}
}

// A referenced file that .openwopignore excludes is refused like a missing
// one (the tarball would lack it), and packed around with --no-validate.
func TestPackRefusesIgnoredReference(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	os.WriteFile(filepath.Join(dir, IgnoreFile), []byte("schemas/greet.input.json\n"), 0o644)
	_, err := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate})
	if werr.CodeOf(err) != "pack_file_ignored" {
		t.Fatalf("code %q, want pack_file_ignored (%v)", werr.CodeOf(err), err)
	}
	res, err := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), NoValidate: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Path == "schemas/greet.input.json" {
			t.Error("an ignored file was packed")
		}
	}
}

// Two names that are one file on macOS or Windows are listed by Check
// (tarball_name_collision), as the tarball writer refuses them in Pack.
func TestCheckListsNameCollisions(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	for _, name := range []string{"prompts/Notes.md", "prompts/notes.md"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list, err := Check(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list, func(r Refusal) bool {
		return r.Err.Code == tarball.CodeNameCollision && r.File == "prompts/notes.md"
	}) {
		t.Fatalf("no tarball_name_collision on prompts/notes.md in %v", list)
	}
	_, perr := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate})
	if werr.CodeOf(perr) != tarball.CodeNameCollision {
		t.Fatalf("pack: %v", perr)
	}
}

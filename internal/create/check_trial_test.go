package create

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/testwait"
)

// TestPreflightPacksThePlanInMemory (issue 26): the preflight packs the
// plan without writing it anywhere (not in the folder, not in a temporary
// one), and packs it as it will be: the planned files over what the folder
// already holds. A schema left in the folder's schemas/ (which packing
// takes whole) that does not parse is refused before anything is written,
// named where it is, and Run refuses it the same way; without it, the
// preflight finds nothing and Run writes the release.
func TestPreflightPacksThePlanInMemory(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	tmp := filepath.Join(work, "tmp")
	os.Mkdir(tmp, 0o700)
	t.Setenv("TMPDIR", tmp)
	k, _ := sign.GenerateKey(sign.Ed25519)
	if _, _, err := sign.WriteKeyPair("acme", k, nil, false); err != nil {
		t.Fatal(err)
	}
	const name = "community.acme.trial"
	opts := Options{Plan: packPlan(t, name), Dir: "trial", Force: true,
		Release: &Release{Name: name, Version: "0.1.0", Sign: sign.MethodV2, Key: Key{Path: "acme.key", ID: "acme-1"}}}

	os.MkdirAll("trial/schemas", 0o755)
	os.WriteFile("trial/schemas/old.json", []byte("{"), 0o644)
	ps := Preflight(opts)
	if len(ps) != 1 || ps[0].Subject != Packing || !strings.Contains(ps[0].Message, "trial/schemas/old.json is not JSON") {
		t.Fatalf("Preflight with a broken schema in the folder's schemas/: %+v", ps)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("the preflight wrote %d entries to the temporary folder", len(ents))
	}
	if ents, _ := os.ReadDir("trial"); len(ents) != 1 {
		t.Errorf("the preflight wrote into the pack's folder: %d entries", len(ents))
	}
	if _, err := Run(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "schemas/old.json") {
		t.Fatalf("Run with the broken schema there: %v", err)
	}

	os.Remove("trial/schemas/old.json")
	if ps := Preflight(opts); len(ps) != 0 {
		t.Fatalf("Preflight of a clean folder: %+v", ps)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("the preflight wrote %d entries to the temporary folder", len(ents))
	}
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(res.Tarball); err != nil {
		t.Errorf("no tarball: %v", err)
	}
}

// TestPreflightReadsTheFolderAsAStrangers: the folder's own files, which
// the preflight now packs with the plan, are read through the read layer:
// a named pipe, a link to /dev/zero and a link out of the folder in its
// schemas/ are refused by name, promptly, and nothing is read through them;
// a readme.md beside the planned README.md (one file where letter case
// does not count) is refused by name too.
func TestPreflightReadsTheFolderAsAStrangers(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	k, _ := sign.GenerateKey(sign.Ed25519)
	if _, _, err := sign.WriteKeyPair("acme", k, nil, false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile("outside.json", []byte(`{"secret": true}`), 0o644)
	for _, c := range []struct {
		name string // the file in the folder, and what the refusal names
		make func(t *testing.T, p string) error
	}{
		{"schemas/fifo.json", func(t *testing.T, p string) error { return fixtures.Mkfifo(t, p) }},
		{"schemas/zero.json", func(t *testing.T, p string) error { return os.Symlink("/dev/zero", p) }},
		{"schemas/out.json", func(t *testing.T, p string) error { return os.Symlink(filepath.Join(work, "outside.json"), p) }},
		// the plan's README.md in another letter case: one file on macOS and Windows
		{"readme.md", func(t *testing.T, p string) error { return os.WriteFile(p, []byte("# mine\n"), 0o644) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := "f-" + filepath.Base(c.name)
			os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
			if err := c.make(t, filepath.Join(dir, filepath.FromSlash(c.name))); err != nil {
				t.Fatal(err)
			}
			const name = "community.acme.stranger"
			opts := Options{Plan: packPlan(t, name), Dir: dir, Force: true,
				Release: &Release{Name: name, Version: "0.1.0", Sign: sign.MethodV2, Key: Key{Path: "acme.key", ID: "acme-1"}}}
			done := make(chan []Problem, 1)
			go func() { done <- Preflight(opts) }()
			select {
			case ps := <-done:
				if len(ps) != 1 || ps[0].Subject != Packing || !strings.Contains(ps[0].Message, c.name) {
					t.Fatalf("Preflight: %+v", ps)
				}
				if strings.Contains(ps[0].Message, "secret") {
					t.Errorf("the preflight read through the link out: %s", ps[0].Message)
				}
				t.Log(ps[0].Message)
			case <-time.After(testwait.Ceiling):
				t.Fatal("the preflight hangs on the folder's " + c.name)
			}
		})
	}
}

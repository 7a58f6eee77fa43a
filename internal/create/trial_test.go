package create

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
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

package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/testwait"
)

// A pack's referenced files are read inside the pack only: a schema or a
// prompt that is a link to a file outside (a private key, /etc/shadow) is
// refused, never read, so none of its bytes reach a problem's message; a
// FIFO in its place never blocks; and a pack.json that is itself such a
// link is refused before anything is read.
func TestPackDirReadsInsideThePackOnly(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "id_ed25519")
	// Not JSON, so that a reader that followed the link would quote it in a
	// syntax error.
	if err := os.WriteFile(secret, []byte("SECRET-MARKER-7f3a private key {"), 0o600); err != nil {
		t.Fatal(err)
	}
	doc := packWith(`tools.a", "version": "1.0.0", "category": "data", "role": "pure"`,
		`tools.a", "version": "1.0.0", "category": "data", "role": "pure", "inputSchemaRef": "schemas/in.json", "outputSchemaRef": "schemas/out.json"`)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "schemas"), 0o755)
	os.WriteFile(filepath.Join(dir, "pack.json"), []byte(doc), 0o644)
	os.WriteFile(filepath.Join(dir, "index.mjs"), []byte("export const nodes = {};\n"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "schemas", "in.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../"+filepath.Base(outside)+"/id_ed25519", filepath.Join(dir, "schemas", "out.json")); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var rep *Report
	go func() { rep, err = v.Path(dir); close(done) }()
	select {
	case <-done:
	case <-time.After(testwait.Ceiling):
		t.Fatal("validate blocked")
	}
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(rep)
	if strings.Contains(string(out), "SECRET-MARKER") {
		t.Fatalf("a file outside the pack was read into the report:\n%s", out)
	}
	if rep.Valid || !strings.Contains(string(out), "in.json") {
		t.Errorf("the link out of the pack is not reported:\n%s", out)
	}

	// pack.json itself a link out of the pack.
	dir2 := t.TempDir()
	os.Symlink(secret, filepath.Join(dir2, "pack.json"))
	_, err = v.Path(dir2)
	if err == nil || strings.Contains(err.Error(), "SECRET-MARKER") || !strings.Contains(err.Error(), "leaves") {
		t.Errorf("pack.json linking outside: %v", err)
	}
}

package pack

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/werr"
)

// A .json file JSON.parse refuses is refused, referenced or not (the
// registry parses every JSON file of a pack); a member named twice, which
// JSON.parse accepts, is not.
func TestPackRefusesUnparsedJSON(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	for name, data := range map[string]string{
		"schemas/broken.json": `{"type": "object",`,
		"schemas/bom.json":    "\ufeff{}",
		"schemas/empty.json":  "",
		"schemas/dup.json":    `{"a": 1, "a": 2}`,
		"prompts/notes.JSON":  `{'single': 'quotes'}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list, err := Check(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range list {
		got = append(got, r.File+" "+r.Err.Code)
	}
	slices.Sort(got)
	want := []string{"prompts/notes.JSON pack_json_invalid", "schemas/bom.json pack_json_invalid", "schemas/broken.json pack_json_invalid", "schemas/empty.json pack_json_invalid"}
	if !slices.Equal(got, want) {
		t.Errorf("refusals %q, want %q", got, want)
	}
	_, perr := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate})
	if werr.CodeOf(perr) != "pack_json_invalid" {
		t.Errorf("pack: %v", perr)
	}
	// --no-validate packs it (publish still refuses it).
	if _, err := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), NoValidate: true}); err != nil {
		t.Errorf("pack --no-validate: %v", err)
	}
}

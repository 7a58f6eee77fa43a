package schemas

import (
	"encoding/json"
	"io/fs"
	"testing"
)

// TestIndex checks that Index names every embedded file under its own $id.
func TestIndex(t *testing.T) {
	seen := 0
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS, p)
		if err != nil {
			return err
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if Index[doc.ID] != p {
			t.Errorf("%s has $id %q but Index maps it to %q", p, doc.ID, Index[doc.ID])
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(Index) {
		t.Errorf("%d embedded files, %d Index entries", seen, len(Index))
	}
}

package run

import (
	"context"
	"io/fs"
	"path/filepath"
	"time"
)

// Snap is the state of a pack's files: path -> size and modification time.
type Snap map[string][2]int64

// Snapshot lists the pack's files (not node_modules, .git), without
// opening any.
func Snapshot(dir string) Snap {
	s := Snap{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			s[p] = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
		}
		if len(s) > 20000 {
			return filepath.SkipAll
		}
		return nil
	})
	return s
}

func (s Snap) equal(o Snap) bool {
	if len(s) != len(o) {
		return false
	}
	for k, v := range s {
		if o[k] != v {
			return false
		}
	}
	return true
}

// WaitChange polls dir every tick until its files differ from last and
// then stay the same for one more tick (an editor's several writes are one
// change); false when ctx ends.
func WaitChange(ctx context.Context, dir string, last Snap, tick time.Duration) (Snap, bool) {
	t := time.NewTicker(tick)
	defer t.Stop()
	var changed Snap
	for {
		select {
		case <-ctx.Done():
			return nil, false
		case <-t.C:
		}
		now := Snapshot(dir)
		switch {
		case changed != nil && now.equal(changed):
			return now, true
		case !now.equal(last):
			changed = now
		default:
			changed = nil
		}
	}
}

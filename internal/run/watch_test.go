package run

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWaitChange: a save is seen once the files are still; node_modules is
// not watched; ctrl+c (the context) leaves.
func TestWaitChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := filepath.Join(dir, "index.mjs")
	os.WriteFile(f, []byte("a"), 0o644)
	os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755)
	last := Snapshot(dir)
	if len(last) != 1 {
		t.Fatalf("snapshot %v", last)
	}
	got := make(chan Snap, 1)
	go func() {
		s, ok := WaitChange(context.Background(), dir, last, 5*time.Millisecond)
		if ok {
			got <- s
		}
	}()
	os.WriteFile(filepath.Join(dir, "node_modules", "x.js"), []byte("ignored"), 0o644)
	os.WriteFile(f, []byte("bb"), 0o644)
	s := <-got
	if s[f][0] != 2 || len(s) != 1 {
		t.Errorf("the change is not in the snapshot: %v", s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan bool, 1)
	go func() { _, ok := WaitChange(ctx, dir, s, 5*time.Millisecond); left <- ok }()
	cancel()
	if <-left {
		t.Error("WaitChange reported a change after its context ended")
	}
}

package atomicfile

import (
	"testing"
	"time"
)

// TestLockDirExcludes: a second LockDir waits until the first is released.
func TestLockDirExcludes(t *testing.T) {
	dir := t.TempDir()
	unlock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u2, err := LockDir(dir)
		if err == nil {
			u2()
		}
		close(got)
	}()
	time.Sleep(50 * time.Millisecond) // let the second LockDir block
	select {
	case <-got:
		t.Fatal("the second lock was granted while the first was held")
	default:
	}
	unlock()
	<-got
}

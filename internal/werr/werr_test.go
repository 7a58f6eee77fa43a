package werr

import (
	"io/fs"
	"syscall"
	"testing"
)

// TestCauseTextLeavesOutTheSystemCall: an os error on a file the message
// names says what went wrong, not "statat pack.json:" again (issue 17).
func TestCauseTextLeavesOutTheSystemCall(t *testing.T) {
	pe := &fs.PathError{Op: "statat", Path: "pack.json", Err: syscall.ENOENT}
	got := Wrap(Invalid, "x", pe, "%s has no readable pack.json", "demo").Error()
	if got != "demo has no readable pack.json: no such file or directory" {
		t.Errorf("got %q", got)
	}
	got = Wrap(Invalid, "x", pe, "cannot pack demo").Error()
	if got != "cannot pack demo: pack.json: no such file or directory" {
		t.Errorf("a path the message does not name is kept: got %q", got)
	}
}

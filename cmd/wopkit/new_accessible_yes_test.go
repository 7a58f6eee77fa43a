package main

import (
	"strings"
	"testing"
)

// TestNewAccessibleYesRefused (issue 35, item 6): `--accessible --yes`
// asked the questions of neither, ignoring piped answers without a word:
// it is a usage error that says why (exit 2), and writes nothing.
func TestNewAccessibleYesRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errOut, code := runCmd(t, "new", "tool", "--accessible", "--yes", "--dir", dir)
	if code != 2 || !strings.Contains(errOut, "--accessible") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("--accessible --yes: exit %d, want 2 naming both\n%s", code, errOut)
	}
	if _, _, code := runCmd(t, "new", "tool", "--yes", "--dir", dir); code != 0 {
		t.Errorf("--yes alone: exit %d", code)
	}
}

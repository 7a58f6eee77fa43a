package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/testwait"
)

// runWithin runs the command and fails (instead of hanging the suite) when
// it has not returned after d.
func runWithin(t *testing.T, d time.Duration, args ...string) (string, string, int) {
	t.Helper()
	type res struct {
		out, err string
		code     int
	}
	ch := make(chan res, 1)
	go func() {
		o, e, c := runCmd(t, args...)
		ch <- res{o, e, c}
	}()
	select {
	case r := <-ch:
		return r.out, r.err, r.code
	case <-time.After(d):
		t.Fatalf("wopkit %s still blocked after %v (a named pipe was opened for reading)", strings.Join(args, " "), d)
		return "", "", 0
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := fixtures.Mkfifo(t, p); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
}

// Issue 10 item 6: a named pipe where a file is expected hung validate and
// pack forever. Each is now refused, naming the file.
func TestFIFOsNeverBlock(t *testing.T) {
	t.Parallel()
	const deadline = testwait.Ceiling
	t.Run("validate, a referenced schema is a FIFO", func(t *testing.T) {
		dir := writePack(t)
		pj := filepath.Join(dir, "pack.json")
		src, _ := os.ReadFile(pj)
		os.WriteFile(pj, []byte(strings.Replace(string(src), `"label": "Greet"`, `"label": "Greet", "inputSchemaRef": "schemas/x.json"`, 1)), 0o644)
		mkfifo(t, filepath.Join(dir, "schemas", "x.json"))
		out, errOut, code := runWithin(t, deadline, "validate", dir)
		if code != 1 || !strings.Contains(out+errOut, "schemas/x.json") {
			t.Errorf("exit %d: %s%s", code, out, errOut)
		}
		_, errOut, code = runWithin(t, deadline, "pack", dir, "-o", filepath.Join(t.TempDir(), "x.tgz"), "--no-validate")
		if code != 1 || !strings.Contains(errOut, "schemas/x.json") || !strings.Contains(errOut, "named pipe") {
			t.Errorf("pack: exit %d: %s", code, errOut)
		}
	})
	t.Run("pack, .openwopignore is a FIFO", func(t *testing.T) {
		dir := writePack(t)
		mkfifo(t, filepath.Join(dir, ".openwopignore"))
		_, errOut, code := runWithin(t, deadline, "pack", dir, "-o", filepath.Join(t.TempDir(), "x.tgz"), "--no-validate")
		if code != 1 || !strings.Contains(errOut, ".openwopignore") || !strings.Contains(errOut, "named pipe") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})
	t.Run("pack --key is a FIFO", func(t *testing.T) {
		dir := writePack(t)
		key := filepath.Join(t.TempDir(), "k.pem")
		mkfifo(t, key)
		_, errOut, code := runWithin(t, deadline, "pack", dir, "-o", filepath.Join(t.TempDir(), "x.tgz"), "--sign", "v2", "--key", key, "--key-id", "acme-1")
		if code == 0 || !strings.Contains(errOut, key) || !strings.Contains(errOut, "named pipe") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})
	t.Run("validate, inspect and verify of a FIFO tarball", func(t *testing.T) {
		tgz := filepath.Join(t.TempDir(), "x.tgz")
		mkfifo(t, tgz)
		pub := filepath.Join(t.TempDir(), "k.pub")
		mkfifo(t, pub)
		for _, args := range [][]string{{"validate", tgz}, {"inspect", tgz}, {"verify", tgz, "--key", pub}} {
			out, errOut, code := runWithin(t, deadline, args...)
			if code == 0 || !strings.Contains(out+errOut, "named pipe") {
				t.Errorf("%s: exit %d: %s%s", args[0], code, out, errOut)
			}
		}
	})
}

// Issue 45 item 2: a named pipe or a device where a folder is expected is
// refused at once (file_not_regular, as validate refuses one), in every
// verb; `diff FIFO NEW` and `bump auto --from FIFO` hung.
func TestSpecialFoldersRefusedAtOnce(t *testing.T) {
	t.Parallel()
	const deadline = 10 * time.Second
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "pipe")
	mkfifo(t, fifo)
	dir := writePack(t)
	for _, args := range [][]string{
		{"diff", fifo, dir},
		{"diff", dir, fifo},
		{"bump", "auto", dir, "--from", fifo, "--no-validate"},
		{"bump", "minor", fifo},
		{"pack", fifo, "-o", filepath.Join(tmp, "x.tgz")},
		{"publish", dir, "--registry", fifo},
		{"yank", "vendor.acme.hello@1.0.0", "--registry", fifo, "--reason", "x"},
		{"deprecate", "vendor.acme.hello@1.0.0", "--registry", fifo, "--reason", "x"},
		{"keychain", "list", "--registry", fifo},
		{"verify", filepath.Join(tmp, "x.tgz"), "--registry", fifo},
		{"new", "agent", "--pack", fifo, "--yes"},
	} {
		out, errOut, code := runWithin(t, deadline, args...)
		if code == 0 || !strings.Contains(errOut, "is a named pipe (FIFO), not a folder") {
			t.Errorf("wopkit %s: exit %d: %s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
}

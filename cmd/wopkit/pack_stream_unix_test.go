//go:build unix

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
)

// tarNames lists the entries of a gzip'd tarball, failing on a bad one.
func tarNames(t *testing.T, b []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a gzip stream (%d bytes): %v", len(b), err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var n []string
	for _, e := range es {
		n = append(n, e.Name())
	}
	return n
}

// Issue 45 item 1: an output that is a device is written into, never
// replaced, and nothing is written beside it, in every verb with an
// output path.
func TestOutputToDevice(t *testing.T) {
	t.Parallel()
	devDir := t.TempDir()
	dev := fixtures.NullDevice(t, devDir)
	check := func(t *testing.T) {
		t.Helper()
		fi, err := os.Lstat(dev)
		if err != nil || fi.Mode().Type() != fs.ModeDevice|fs.ModeCharDevice {
			t.Fatalf("%s is no longer the device: %v %v", dev, fi, err)
		}
		if got := entries(t, devDir); len(got) != 1 {
			t.Fatalf("beside the device: %v", got)
		}
	}
	t.Run("pack -o", func(t *testing.T) {
		out, errOut, code := runCmd(t, "pack", writePack(t), "--no-validate", "-o", dev)
		if code != 0 || !strings.Contains(out, "version manifest not written: -o "+dev+" is a device") {
			t.Errorf("exit %d: %s%s", code, out, errOut)
		}
		check(t)
	})
	t.Run("pack --sign manual -o", func(t *testing.T) {
		fastKDF(t)
		keys := t.TempDir()
		if _, errOut, code := runCmd(t, "keygen", "--out", filepath.Join(keys, "k"), "--no-passphrase"); code != 0 {
			t.Fatal(errOut)
		}
		out, errOut, code := runCmd(t, "pack", writePack(t), "--no-validate", "-o", dev, "--sign", "manual", "--key", filepath.Join(keys, "k.key"), "--key-id", "acme-1")
		if code != 0 || !strings.Contains(out, "detached signature (.sig) and the version manifest not written") {
			t.Errorf("exit %d: %s%s", code, out, errOut)
		}
		check(t)
	})
	t.Run("tool upgrade -o", func(t *testing.T) {
		src := filepath.Join(t.TempDir(), "tool.json")
		b, err := os.ReadFile(fixtures.Shared(t, "fixtures", "tool-manifests", "gmail.v0.3.json"))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(src, b, 0o644)
		out, errOut, code := runCmd(t, "tool", "upgrade", src, "-o", dev)
		if code != 0 {
			t.Errorf("exit %d: %s%s", code, out, errOut)
		}
		check(t)
	})
	t.Run("keygen --out", func(t *testing.T) {
		_, errOut, code := runCmd(t, "keygen", "--out", dev, "--no-passphrase")
		if code != 2 || !strings.Contains(errOut, "is a device") {
			t.Errorf("exit %d: %s", code, errOut)
		}
		check(t)
	})
}

// A named pipe with a reader gets the tarball; the pipe stays.
func TestPackOutputToFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.tgz")
	mkfifo(t, fifo)
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	out, errOut, code := runWithin(t, 60*time.Second, "pack", writePack(t), "--no-validate", "-o", fifo)
	if code != 0 || !strings.Contains(out, "is a named pipe") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if names := tarNames(t, <-got); !strings.Contains(strings.Join(names, " "), "pack.json") {
		t.Errorf("the reader got a tarball of %v", names)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the pipe was replaced: %v %v", fi, err)
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("beside the pipe: %v", e)
	}
}

// pack -o - writes the tarball to standard output and its summary to
// standard error. Not parallel: it swaps os.Stdout.
func TestPackOutputToStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	got := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	out, errOut, code := runCmd(t, "pack", writePack(t), "--no-validate", "-o", "-")
	os.Stdout = old
	w.Close()
	b := <-got
	if code != 0 || out != "" || !strings.Contains(errOut, "wrote -") || !strings.Contains(errOut, "standard output") {
		t.Fatalf("exit %d: stdout %q, stderr %q", code, out, errOut)
	}
	if names := tarNames(t, b); len(names) < 3 {
		t.Errorf("tarball of %v", names)
	}
}

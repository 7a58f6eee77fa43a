//go:build unix

package atomicfile

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// onlyEntries fails unless dir holds exactly names.
func onlyEntries(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("%s holds %v, want %v", dir, got, names)
		}
	}
}

func isMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != want {
		t.Fatalf("%s is now %v, want %v", path, fi.Mode().Type(), want)
	}
}

// A device is written into, never renamed over or removed, through every
// way the door writes a file.
func TestDeviceOutputIsStreamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dev := fixtures.NullDevice(t, dir)
	if !IsStream(dev) || StreamKind(dev) != "device" {
		t.Errorf("IsStream(%s) = %v, %q", dev, IsStream(dev), StreamKind(dev))
	}
	ops := map[string]func() error{
		"WriteFile": func() error { return WriteFile(dev, []byte("x"), 0o644) },
		"Replace":   func() error { return Replace(dev, []byte("x"), 0o644) },
		"Place.WriteFile": func() error {
			p, err := OpenPlace(dir)
			if err != nil {
				return err
			}
			defer p.Close()
			return p.WriteFile(dev, []byte("x"), 0o644)
		},
		"Batch": func() error {
			var b Batch
			if err := b.Add(dev, []byte("x"), 0o644); err != nil {
				b.Abort()
				return err
			}
			return b.Commit()
		},
		"Create+Abort": func() error {
			f, err := Create(dev, 0o644)
			if err != nil {
				return err
			}
			f.Write([]byte("x"))
			f.Abort()
			return nil
		},
	}
	for name, op := range ops {
		if err := op(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		isMode(t, dev, fs.ModeDevice|fs.ModeCharDevice)
		onlyEntries(t, dir, "null")
	}
	// Removing or renaming over it is refused.
	if err := Remove(dev); werr.CodeOf(err) != untrusted.CodeNotRegular {
		t.Errorf("Remove of a device: %v", err)
	}
	other := filepath.Join(dir, "other")
	os.WriteFile(other, nil, 0o644)
	if err := Rename(other, dev); werr.CodeOf(err) != untrusted.CodeNotRegular {
		t.Errorf("Rename over a device: %v", err)
	}
	isMode(t, dev, fs.ModeDevice|fs.ModeCharDevice)
}

// A named pipe with a reader gets the bytes; the pipe stays a pipe, and a
// link to it inside the folder is written through.
func TestFIFOOutputIsStreamed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink("pipe", link)
	for _, target := range []string{fifo, link} {
		got := make(chan []byte)
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
		err := within(t, "write into a FIFO", func() error { return WriteFile(target, []byte("tarball bytes"), 0o644) })
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		if b := <-got; !bytes.Equal(b, []byte("tarball bytes")) {
			t.Errorf("%s: the reader got %q", target, b)
		}
		isMode(t, fifo, fs.ModeNamedPipe)
		isMode(t, link, fs.ModeSymlink)
		onlyEntries(t, dir, "link", "pipe")
	}
}

// A link out of the output's folder to a device is refused (the door
// writes through no link that leaves its place), and the link stays.
func TestLinkOutToDeviceRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	dev := fixtures.NullDevice(t, dir)
	link := filepath.Join(out, "pack.tgz")
	os.Symlink(dev, link)
	if err := WriteFile(link, []byte("x"), 0o644); werr.CodeOf(err) != untrusted.CodeOutsideRoot {
		t.Errorf("write through a link out to a device: %v", err)
	}
	isMode(t, link, fs.ModeSymlink)
	isMode(t, dev, fs.ModeDevice|fs.ModeCharDevice)
}

// A socket is no output.
func TestSocketOutputRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("no unix sockets: %v", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Skipf("cannot bind a unix socket in %s: %v", dir, err)
	}
	if err := WriteFile(sock, []byte("x"), 0o644); werr.CodeOf(err) != untrusted.CodeNotRegular {
		t.Errorf("write to a socket: %v", err)
	}
	isMode(t, sock, fs.ModeSocket)
}

// A named pipe put where a new file is going, after it was created, is
// not renamed over at commit.
func TestCommitNeverRenamesOverFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	final := filepath.Join(dir, "pack.tgz")
	f, err := Create(final, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	if err := syscall.Mkfifo(final, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	if err := f.Commit(); werr.CodeOf(err) != untrusted.CodeNotRegular {
		t.Errorf("commit over a FIFO that appeared: %v", err)
	}
	isMode(t, final, fs.ModeNamedPipe)
	onlyEntries(t, dir, "pack.tgz")
}

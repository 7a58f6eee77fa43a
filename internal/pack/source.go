package pack

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// source is where a pack's files are read from: its directory, opened as
// an os.Root and read through the untrusted layer (a link never leads out,
// a FIFO is never opened), or a file system the caller holds in memory
// (Options.FS: a plan not written yet). Everything Pack and Check read goes
// through it, so both read the same files the same way either way.
type source interface {
	fsys() fs.FS                                    // listing: ReadDir, WalkDir
	open(rel string) (io.ReadCloser, error)         // a regular file's content
	readFile(rel string, max int64) ([]byte, error) // at most max+1 bytes of it
	stat(rel string) (fs.FileInfo, error)           // what rel leads to
	lstat(rel string) (fs.FileInfo, error)          // rel itself (a link as a link)
	Close() error
}

// rootSource reads a pack directory through an os.Root.
type rootSource struct{ root *os.Root }

func (r rootSource) fsys() fs.FS { return r.root.FS() }
func (r rootSource) open(rel string) (io.ReadCloser, error) {
	return untrusted.OpenIn(r.root, rel)
}
func (r rootSource) readFile(rel string, max int64) ([]byte, error) {
	return untrusted.ReadFileIn(r.root, rel, max)
}
func (r rootSource) stat(rel string) (fs.FileInfo, error)  { return r.root.Stat(rel) }
func (r rootSource) lstat(rel string) (fs.FileInfo, error) { return r.root.Lstat(rel) }
func (r rootSource) Close() error                          { return r.root.Close() }

// memSource reads a pack held by the caller as a file system. It refuses
// what is not a regular file with the untrusted layer's code, as a
// directory's reading would.
type memSource struct{ fs fs.FS }

func (m memSource) fsys() fs.FS { return m.fs }

func (m memSource) open(rel string) (io.ReadCloser, error) {
	f, err := m.fs.Open(rel)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, werr.New(werr.Invalid, untrusted.CodeNotRegular, "%s is %s, not a regular file", rel, safefile.Describe(st.Mode()))
	}
	return f, nil
}

func (m memSource) readFile(rel string, max int64) ([]byte, error) {
	f, err := m.open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}

func (m memSource) stat(rel string) (fs.FileInfo, error)  { return fs.Stat(m.fs, rel) }
func (m memSource) lstat(rel string) (fs.FileInfo, error) { return fs.Lstat(m.fs, rel) }
func (m memSource) Close() error                          { return nil }

// openPack opens what opts packs: opts.FS when given (opts.Dir then only
// names the pack in messages), else the directory opts.Dir (default ".")
// as a root.
func openPack(opts Options) (string, source, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	if opts.FS != nil {
		return dir, memSource{opts.FS}, nil
	}
	if err := safefile.CheckDir(dir); err != nil {
		return "", nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open pack directory %s", dir).
			WithHint("give the directory that holds pack.json")
	}
	return dir, rootSource{root}, nil
}

// readManifest reads pack.json, bounded.
func readManifest(src source, dir string) ([]byte, error) {
	f, err := src.open(ManifestFile)
	if werr.CodeOf(err) == untrusted.CodeNotRegular {
		return nil, err
	}
	if errors.Is(err, fs.ErrPermission) {
		// Unreadable input is an environment failure (exit 3), as validate says.
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read pack.json in %s", dir).
			WithHint("check the file's permissions")
	}
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_missing", err, "%s has no readable pack.json", dir).
			WithHint("run wopkit in a pack directory, or create one with `wopkit new pack`")
	}
	defer f.Close()
	const max = 16 << 20
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read pack.json in %s", dir)
	}
	if len(data) > max {
		return nil, werr.New(werr.Invalid, "pack_too_large", "pack.json in %s is larger than %d bytes", dir, max)
	}
	return data, nil
}

// describeMode names the type of name in src for messages.
func describeMode(src source, name string) string {
	if fi, err := src.stat(name); err == nil {
		return safefile.Describe(fi.Mode())
	}
	return "unreadable"
}

package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WriteIn replaces name (a path inside r) with data, with mode perm whatever
// the umask: the data goes to a temporary file beside it (O_EXCL), is
// synced and renamed over name, and the directory is synced. Nothing leaves
// r: a link on the way that leads out of it is refused by the root.
func WriteIn(r *os.Root, name string, data []byte, perm fs.FileMode) error {
	final := filepath.Join(r.Name(), name)
	if f, ok, err := openStream(r, r.Name(), name, final); ok || err != nil {
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Abort()
			return failed(err, final)
		}
		return f.Commit()
	}
	tmp, err := tempIn(r, name, perm)
	if err != nil {
		return err
	}
	f, err := r.OpenFile(tmp, os.O_WRONLY, 0)
	if err == nil {
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		err = errors.Join(err, f.Close())
	}
	if err == nil {
		err = renameOver(r, tmp, name, final)
	}
	if err != nil {
		r.Remove(tmp)
		return placeErr(err, filepath.Join(r.Name(), name))
	}
	return SyncDirIn(r, filepath.Dir(name))
}

// tempIn creates an empty temporary file (O_EXCL, mode perm) beside name
// inside r, named as IsTemp recognises, and returns its name.
func tempIn(r *os.Root, name string, perm fs.FileMode) (string, error) {
	for range 10 {
		var b [8]byte
		rand.Read(b[:])
		tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+tempInfix+hex.EncodeToString(b[:]))
		f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			if e := placeErr(err, filepath.Join(r.Name(), name)); e.Code != "write_failed" {
				return "", e
			}
			return "", failed(err, filepath.Join(r.Name(), name)).WithHint("check that the directory exists and is writable")
		}
		err = f.Chmod(perm)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			r.Remove(tmp)
			return "", failed(err, filepath.Join(r.Name(), name))
		}
		return tmp, nil
	}
	return "", failed(fs.ErrExist, filepath.Join(r.Name(), name))
}

// SyncDirIn syncs directory name inside r, so that the renames in it are
// durable (where the system syncs directories).
func SyncDirIn(r *os.Root, name string) error {
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return failed(err, filepath.Join(r.Name(), name))
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, syscall.EINVAL) && !dirSyncUnsupported(err) {
		return failed(err, filepath.Join(r.Name(), name))
	}
	return nil
}

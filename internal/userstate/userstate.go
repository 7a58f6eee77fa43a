// Package userstate is where wopkit keeps its own state outside any folder
// it works on: the journals of registry transactions (internal/publish).
// A file there was written by this user's wopkit on this machine; nothing a
// stranger's tree holds is ever taken for it.
package userstate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/werr"
)

// Env names the variable that moves the state folder (tests, and users who
// want it elsewhere): $XDG_STATE_HOME, as the XDG base directory
// specification defines it.
const Env = "XDG_STATE_HOME"

// Dir returns wopkit's state folder: $XDG_STATE_HOME/wopkit when that is an
// absolute path, else ~/.local/state/wopkit on Unix, else wopkit/state under
// the user's configuration folder (macOS, Windows). It is not created.
func Dir() (string, error) {
	if d := os.Getenv(Env); filepath.IsAbs(d) {
		return filepath.Join(d, "wopkit"), nil
	}
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		home, err := os.UserHomeDir()
		if err == nil {
			return filepath.Join(home, ".local", "state", "wopkit"), nil
		}
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", werr.Wrap(werr.Env, "state_unavailable", err, "wopkit has no folder for its own state").
			WithHint("set %s (or HOME) to a folder of yours", Env)
	}
	return filepath.Join(dir, "wopkit", "state"), nil
}

// Open opens the folder sub of the state folder as a root, making it (0700)
// when create is set; without create, a folder that does not exist gives a
// nil root and no error (there is no state). The folder must be this
// user's and writable by no one else: a journal another account could
// plant there would not be this user's.
func Open(sub string, create bool) (*atomicfile.Place, string, error) {
	base, err := Dir()
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(base, sub)
	if !create {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil, dir, nil
		}
	} else if err := atomicfile.MkdirAll(dir, 0o700); err != nil {
		return nil, dir, werr.Wrap(werr.Env, "state_unwritable", err, "cannot make wopkit's state folder %s", dir).
			WithHint("check that %s is yours and writable, or set %s to another folder", base, Env)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, dir, werr.Wrap(werr.Env, "state_unwritable", err, "cannot open wopkit's state folder %s", dir)
	}
	if err := private(fi); err != nil {
		return nil, dir, werr.Wrap(werr.Env, "state_not_private", err, "wopkit's state folder %s is not private to you", dir).
			WithHint("make it yours and 0700 (chmod 700 %s), or set %s to a folder of yours", dir, Env)
	}
	p, err := atomicfile.OpenPlace(dir)
	if err != nil {
		return nil, dir, werr.Wrap(werr.Env, "state_unwritable", err, "cannot open wopkit's state folder %s", dir)
	}
	return p, dir, nil
}

// notDir is private's answer for a state folder that is not a directory.
func notDir(fi fs.FileInfo) error {
	if !fi.IsDir() {
		return fmt.Errorf("it is not a directory (mode %v)", fi.Mode())
	}
	return nil
}

// ID names the file fi describes on this machine (its device and inode on
// Unix), to tell a folder from another put at the same path; "" where the
// system gives no such number.
func ID(fi fs.FileInfo) string { return fileID(fi) }

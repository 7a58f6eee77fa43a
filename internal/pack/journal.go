package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/userstate"
	"github.com/openwop/wopkit/internal/werr"
)

// A release (the .tgz, its .sig and its version .json) is written as one
// batch whose renames are journalled: the journal, in this user's state
// folder and named after the output folder's real path, is written once
// every file is written and synced under its temporary name, and removed
// after the last rename. The next pack or sign into that folder, before it
// writes, completes the renames a kill cut short (the folder then holds
// the release that run wrote, never its .tgz beside an older .json), and
// removes the temporary files of the release's names a kill left behind.

const (
	releaseFolder = "releases"
	releaseFormat = "wopkit-release-renames/1"
)

// releaseJournal is the journal of the release renames into one folder.
type releaseJournal struct {
	Format string              `json:"format"`
	Dir    string              `json:"dir"`   // the output folder's real path
	DirID  string              `json:"dirId"` // its identity (userstate.ID)
	Files  []atomicfile.Staged `json:"files"`

	name string // the journal's file name in the state folder
}

// openReleaseJournal names the journal of the output folder dir.
func openReleaseJournal(dir string) (*releaseJournal, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = os.Stat(real)
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "write_failed", err, "cannot open the output folder %s", dir)
	}
	sum := sha256.Sum256([]byte(real))
	return &releaseJournal{Format: releaseFormat, Dir: real, DirID: userstate.ID(fi), name: hex.EncodeToString(sum[:16]) + ".json"}, nil
}

// Begin records the renames (the commit point). Without a state folder
// wopkit can write (no home folder), the release is written unjournalled,
// as before journals.
func (j *releaseJournal) Begin(files []atomicfile.Staged) error {
	state, _, err := userstate.Open(releaseFolder, true)
	if err != nil {
		j.name = ""
		return nil
	}
	defer state.Close()
	j.Files = files
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	return state.WriteFile(state.In(j.name), b, 0o600)
}

// Done removes the journal: every rename is made.
func (j *releaseJournal) Done() error {
	if j.name == "" {
		return nil
	}
	state, _, err := userstate.Open(releaseFolder, false)
	if err != nil || state == nil {
		return err
	}
	defer state.Close()
	if err := state.Remove(state.In(j.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return state.Sync(state.Dir())
}

// recoverRelease completes the renames a killed release into dir left
// (only from this user's journal for this folder, and only renames of
// wopkit's own temporary names over the names beside them), then removes
// the temporaries of finals that a kill left in dir.
func recoverRelease(dir string, finals []string) error {
	j, err := openReleaseJournal(dir)
	if err != nil {
		return err
	}
	state, _, err := userstate.Open(releaseFolder, false)
	if err == nil && state != nil {
		defer state.Close()
		var was releaseJournal
		data, err := state.ReadFile(state.In(j.name), untrusted.MaxDocument)
		if err == nil && untrusted.DecodeJSON(data, &was) == nil && was.Format == releaseFormat && was.Dir == j.Dir && was.DirID == j.DirID {
			for _, f := range was.Files {
				if !ownTemp(f) {
					continue
				}
				if _, err := os.Lstat(f.Temp); err != nil {
					continue // renamed before the kill
				}
				if err := atomicfile.Rename(f.Temp, f.Final); err != nil {
					return err
				}
				atomicfile.CrashPoint()
			}
		}
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			j.Done()
			atomicfile.CrashPoint()
		}
	}
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return nil // nothing to clean: the write reports what is wrong with the folder
	}
	defer d.Close()
	ents, err := d.ReadDir(".")
	if err != nil {
		return nil
	}
	for _, e := range ents {
		for _, final := range finals {
			if strings.HasPrefix(e.Name(), "."+filepath.Base(final)+".tmp-") && atomicfile.IsTemp(e.Name()) && e.Type().IsRegular() {
				atomicfile.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	return nil
}

// ownTemp reports a rename wopkit's release batch makes: a temporary name
// of the final's own, in the final's folder.
func ownTemp(f atomicfile.Staged) bool {
	return filepath.IsAbs(f.Final) && filepath.Dir(f.Temp) == filepath.Dir(f.Final) &&
		strings.HasPrefix(filepath.Base(f.Temp), "."+filepath.Base(f.Final)+".tmp-") && atomicfile.IsTemp(filepath.Base(f.Temp))
}

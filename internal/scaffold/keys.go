package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Where a pack's release goes: the key that signs it and the tarball with
// its sidecars. A new private key is never put in a git work tree that does
// not ignore it: by default it is kept in UserKeyDir instead.

// KeyDefault is the key a pack is signed with when the author names none:
// a function of the pack name and of what the folder already holds.
type KeyDefault struct {
	// Existing is the .key file already there ("" when none): the default
	// is to sign with it, as the releases before were.
	Existing string `json:"existing,omitempty"`
	// New is the prefix of a new pair (PREFIX.key, PREFIX.pub), where one
	// would go.
	New string `json:"new"`
	// Checkout is the git work tree the folder is in when a new pair is
	// kept out of it (New is then under UserKeyDir), else "".
	Checkout string `json:"checkout,omitempty"`
}

// Path is the default key file of the choice: the existing key, or the
// prefix of a new pair (also when there is no existing key to offer).
func (d KeyDefault) Path(existing bool) string {
	if existing && d.Existing != "" {
		return d.Existing
	}
	return d.New
}

// UserKeyDir is where wopkit keeps private keys outside a checkout:
// wopkit/keys under the user's configuration directory
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux). The folder
// is made 0700 when a key is written there.
func UserKeyDir() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "wopkit", "keys"), nil
}

// DefaultKey derives the key of a pack named packName, seen from the
// current directory, where the tarball goes and a key is looked for:
//   - an existing key: the organisation's ORG.key there, or else the only
//     .key file there; in a git work tree that does not ignore ORG.key,
//     ORG.key in UserKeyDir too;
//   - a new pair: ORG (or the first free ORG-N) there, unless the folder is
//     inside a git work tree that does not ignore it: then in UserKeyDir.
func DefaultKey(packName string) KeyDefault {
	_, org, _ := SplitName(packName)
	if org == "" {
		org = PackDir(packName)
	}
	d := KeyDefault{Existing: folderKey(".", org), New: FreeKeyPrefix("", org)}
	if d.Checkout = KeyCheckout(d.New); d.Checkout == "" {
		return d
	}
	dir, err := UserKeyDir()
	if err != nil {
		d.Checkout = "" // nowhere else: the review says where it would go
		return d
	}
	if key := filepath.Join(dir, org+".key"); d.Existing == "" && regular(key) {
		d.Existing = key
	}
	d.New = filepath.Join(dir, FreeKeyPrefix(dir, org))
	return d
}

// folderKey is the key of org in dir: ORG.key, else the only .key file.
func folderKey(dir, org string) string {
	if regular(filepath.Join(dir, org+".key")) {
		return org + ".key"
	}
	keys, _ := filepath.Glob(filepath.Join(dir, "*.key"))
	keys = slices.DeleteFunc(keys, func(k string) bool { return !regular(k) })
	if len(keys) == 1 {
		return filepath.Base(keys[0])
	}
	return ""
}

func regular(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular()
}

// KeyCheckout is the git work tree a new private key PREFIX.key would be
// written into, when that tree does not ignore it; "" when the key is not
// in a work tree or git ignores it there. The work tree is found by looking
// for .git from the key's folder up; whether it is ignored is decided
// in-process from the ignore files (gitignore.go): no git is started in
// what may be a stranger's checkout.
func KeyCheckout(prefix string) string {
	key, err := filepath.Abs(strings.TrimSuffix(prefix, ".key") + ".key")
	if err != nil {
		return ""
	}
	root := GitCheckout(filepath.Dir(key))
	if root == "" || gitIgnores(root, key) {
		return ""
	}
	return root
}

// GitCheckout is the root of the git work tree dir is in: the nearest
// folder, dir or above it, that holds .git (a folder, or a file for a
// linked work tree); "" when there is none.
func GitCheckout(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// ReleaseFiles are the files packing a pack writes outside its folder, as
// `wopkit pack` names them: the tarball (output, by default
// NAME-VERSION.tgz in the current directory), then, beside it, the
// detached signature BASE+detachedExt when there is one ("" when none)
// and the version manifest BASE.json.
func ReleaseFiles(name, version, output, detachedExt string) []string {
	if output == "" {
		output = name + "-" + version + ".tgz"
	}
	base := strings.TrimSuffix(output, ".tgz")
	out := []string{output}
	if detachedExt != "" {
		out = append(out, base+detachedExt)
	}
	return append(out, base+".json")
}

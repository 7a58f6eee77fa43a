package semdiff

import (
	"fmt"
	"path/filepath"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/tarball"
)

// AgainstRegistry compares p with the version of the same pack it follows
// in the registry checkout dir (both trees): the highest published version
// below p's, or the latest when p's version is not SemVer. It returns nil
// and no error when the checkout holds no earlier version of the pack.
// `validate --for-registry --registry` and the wizard's review call it.
func AgainstRegistry(p *Pack, dir string, lim *tarball.Limits) (*Result, error) {
	root, err := registry.Open(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	base, err := Follows(root, p.Name, p.Version)
	if err != nil || base == "" {
		return nil, err
	}
	l := tarball.DefaultLimits
	if lim != nil {
		l = *lim
	}
	data, where, err := root.Tarball(p.Name, base, l.MaxCompressed)
	if err != nil {
		return nil, err
	}
	old, err := FromTarball(where, data, l)
	if err != nil {
		return nil, err
	}
	old.Source = p.Name + "@" + base
	return Compare(old, p), nil
}

// Follows is the published version of name (either tree) that version
// follows: the highest below it ("" when none).
func Follows(root *registry.Root, name, version string) (string, error) {
	var all []string
	for _, tree := range []string{registry.TreeV2, registry.TreeV1} {
		vs, err := root.Published(tree, name)
		if err != nil {
			return "", err
		}
		all = append(all, vs...)
	}
	cur, curErr := semver.NewVersion(version)
	var best *semver.Version
	bestS := ""
	for _, s := range all {
		v, err := semver.NewVersion(s)
		if err != nil || curErr == nil && !v.LessThan(cur) {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, bestS = v, s
		}
	}
	return bestS, nil
}

// Position is the line and column (1-based) of the JSON pointer ptr in
// the file rel (1, 1 when it is not JSON or not there).
func (p *Pack) Position(rel, ptr string) (line, col int) {
	doc, err := jsondoc.Parse(p.Files[rel])
	if err != nil || ptr == "" {
		return 1, 1
	}
	return doc.Position(doc.Locate(ptr, false))
}

// Planned is the pack a folder will hold once files are written into it:
// the folder's files as they are (none when it does not exist yet) with
// files (slash path → content) laid over them. The wizard's review reads
// the pack it is about to write this way.
func Planned(dir string, files map[string][]byte) (*Pack, error) {
	p := &Pack{Source: dir, Where: dir, Files: map[string][]byte{}}
	// A trailing separator: the folder, never a NAME@VERSION.
	if s, err := pack.ShippedFiles(filepath.Clean(dir)+string(filepath.Separator), pack.ShipOptions{}); err == nil {
		p.Files = s.Files
	}
	for rel, data := range files {
		p.Files[rel] = data
	}
	if _, ok := p.Files["pack.json"]; !ok {
		return nil, fmt.Errorf("%s will hold no pack.json", dir)
	}
	return p, p.init()
}

// ReviewNote says in one line how the pack about to be written into dir
// (see Planned) compares with the version it follows in the registry
// checkout reg, or "" when there is nothing to say (no checkout, no
// earlier version, or a bump that is enough and no change a consumer can
// notice). It never fails: a checkout it cannot read is said in the note.
func ReviewNote(dir string, files map[string][]byte, reg string) string {
	if reg == "" {
		return ""
	}
	p, err := Planned(dir, files)
	if err != nil {
		return ""
	}
	r, err := AgainstRegistry(p, reg, nil)
	switch {
	case err != nil:
		return "not compared with the registry checkout " + reg + ": " + err.Error()
	case r == nil:
		return ""
	case r.VersionOK:
		return "compared with " + r.From + ": " + r.Verdict
	}
	note := "version too low for its changes since " + r.From + " (publish would refuse it): " + r.Verdict
	if br := r.Breaking(); len(br) > 0 {
		note += fmt.Sprintf("; %d breaking, first: %s", len(br), br[0].Message)
	}
	return note
}

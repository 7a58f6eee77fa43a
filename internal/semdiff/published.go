package semdiff

import (
	"github.com/Masterminds/semver/v3"

	"github.com/openwop/wopkit/internal/jsondoc"
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

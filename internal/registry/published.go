package registry

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Tarball reads the published tarball of name@version (at most max bytes)
// from the first tree that holds it, v2 then v1, through the untrusted
// layer; where is the file read.
func (r *Root) Tarball(name, version string, max int64) (data []byte, where string, err error) {
	if r.dir == nil {
		return nil, "", werr.New(werr.Env, "registry_unreadable", "registry %s is not open", r.Dir)
	}
	if !safeSegment(name) || !safeSegment(version) {
		return nil, "", werr.New(werr.Usage, "pack_name_invalid", "pack name %q or version %q cannot name a registry path", name, version).
			WithHint("write NAME@VERSION, e.g. core.openwop.flow@1.1.0")
	}
	var looked []string
	for _, tree := range []string{TreeV2, TreeV1} {
		rel := r.rel(tree, "versionTarball", name, version)
		if rel == "" {
			continue
		}
		looked = append(looked, r.dir.Join(rel))
		data, err := r.dir.ReadFile(rel, max)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return data, r.dir.Join(rel), nil
	}
	return nil, "", werr.New(werr.Invalid, "version_unknown", "registry %s has no tarball of %s@%s (looked for %s)", r.Dir, name, version, strings.Join(looked, ", ")).
		WithHint("name a version the checkout holds (its packs/%s/-/ folders list them)", name)
}

// Published lists the versions of name the tree holds a tarball of (the
// files <version>.tgz of its version folder), unsorted; none when the
// tree has no folder for the pack.
func (r *Root) Published(tree, name string) ([]string, error) {
	if r.dir == nil || !safeSegment(name) {
		return nil, nil
	}
	rel := r.rel(tree, "versionTarball", name, "0.0.0") // only its folder is used
	if rel == "" {
		return nil, nil
	}
	ents, err := r.dir.ReadDir(path.Dir(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if v, ok := strings.CutSuffix(e.Name(), ".tgz"); ok && e.Type().IsRegular() && safeSegment(v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// IndexedPack is one pack of a tree's registry index (index.json): its
// name, its latest version and the ids of its entries (a node pack's
// typeIds, a chain pack's chainIds, …).
type IndexedPack struct {
	Name          string   `json:"name"`
	LatestVersion string   `json:"latestVersion"`
	TypeIDs       []string `json:"typeIds"`
}

// Provided maps each entry id (typeId) of the tree's registry index
// (index.json) to the pack that lists it: `diff` names the pack that
// provides a node type a chain needs. The index is decoded once, through
// the untrusted layer; when two packs list an id the first wins. A tree
// without an index gives an empty map.
func (r *Root) Provided(tree string) (map[string]IndexedPack, error) {
	out := map[string]IndexedPack{}
	rel := r.rel(tree, "registryIndex", "index", "")
	if rel == "" || r.dir == nil {
		return out, nil
	}
	var idx struct {
		Packs []IndexedPack `json:"packs"`
	}
	err := r.dir.ReadJSON(rel, untrusted.MaxDocument, &idx)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, p := range idx.Packs {
		ids := p.TypeIDs
		p.TypeIDs = nil // the map's values need not hold every sibling id
		for _, id := range ids {
			if _, ok := out[id]; !ok {
				out[id] = p
			}
		}
	}
	return out, nil
}

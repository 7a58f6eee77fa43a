package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"slices"
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

// Providers finds, for each id, the pack of the tree's registry index
// (index.json) whose entry ids (typeIds) list it: `diff` names the pack
// that provides a node type a chain needs. The index (a few hundred KB) is
// read once and searched for each quoted id; only the pack objects that
// hold one are decoded, through the untrusted layer. An id no pack lists
// (or a tree without an index) has no entry.
func (r *Root) Providers(tree string, ids []string) (map[string]IndexedPack, error) {
	out := map[string]IndexedPack{}
	rel := r.rel(tree, "registryIndex", "index", "")
	if rel == "" || r.dir == nil || len(ids) == 0 {
		return out, nil
	}
	data, err := r.dir.ReadFile(rel, untrusted.MaxDocument)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, id := range ids {
		quoted, _ := json.Marshal(id)
		for from := 0; ; {
			i := bytes.Index(data[from:], quoted)
			if i < 0 {
				break
			}
			at := from + i
			from = at + len(quoted)
			start, end := enclosingObject(data, at)
			if start < 0 {
				continue
			}
			var cand IndexedPack
			if untrusted.DecodeJSON(data[start:end], &cand) == nil && slices.Contains(cand.TypeIDs, id) {
				out[id] = cand
				break
			}
		}
	}
	return out, nil
}

// enclosingObject is the span of the object at depth 2 of data (a pack of
// {"packs": [...]}) that holds the offset at, or -1: data is scanned once,
// strings skipped, and what it finds is decoded by the untrusted layer
// (which refuses a span that is no JSON object).
func enclosingObject(data []byte, at int) (start, end int) {
	depth, start := 0, -1
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			if depth == 3 && data[i] == '{' {
				start = i
			}
		case '}', ']':
			if depth == 3 && data[i] == '}' && start >= 0 {
				if start <= at && at < i {
					return start, i + 1
				}
				start = -1
			}
			depth--
		}
		if i > at && depth < 3 {
			break
		}
	}
	return -1, -1
}

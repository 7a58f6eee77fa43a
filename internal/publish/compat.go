package publish

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// maxListed bounds the changes a version_bump_too_small message lists.
const maxListed = 10

// checkBump compares the release with the published version it follows
// (the highest below it: the latest, or for a maintenance release the
// latest of its line) and refuses a version bump smaller than the changes
// need (version_bump_too_small, listing them) unless allowBreaking. It
// returns the comparison (nil when nothing was published before) and a
// note when the published version could not be read.
func checkBump(t *Tree, rel *Release, versions []string, allowBreaking bool) (*semdiff.Result, string, error) {
	base := ""
	for _, v := range versions {
		if CompareVersions(v, rel.Version) < 0 && (base == "" || CompareVersions(v, base) > 0) {
			base = v
		}
	}
	if base == "" {
		return nil, "", nil
	}
	oldRel := t.VersionFile(rel.Name, base, ".tgz")
	data, ok, err := t.read(oldRel)
	if err != nil || !ok {
		return nil, fmt.Sprintf("%s@%s was not compared with %s@%s: its tarball %s cannot be read", rel.Name, rel.Version, rel.Name, base, t.abs(oldRel)), nil
	}
	old, err := semdiff.FromTarball(t.abs(oldRel), data, tarball.RegistryLimits)
	if err != nil {
		return nil, fmt.Sprintf("%s@%s was not compared with %s@%s: %v", rel.Name, rel.Version, rel.Name, base, err), nil
	}
	nw, err := semdiff.FromArchive(rel.Name+"@"+rel.Version, rel.archive)
	if err != nil {
		return nil, "", err
	}
	res := semdiff.Compare(old, nw)
	if res.VersionOK || allowBreaking {
		return res, "", nil
	}
	return res, "", BumpTooSmall(res, rootAbs(t))
}

// rootAbs is the registry root by its whole path (a command printed for
// the pack's folder names it so).
func rootAbs(t *Tree) string {
	if abs, err := filepath.Abs(t.Root); err == nil {
		return abs
	}
	return t.Root
}

// bumpCommand is the one command that raises a release's version above
// what the tree holds, with everything that names it, then what follows.
func bumpCommand(t *Tree) string {
	return "in the pack's source folder run `wopkit bump auto --registry " + shellQuote(rootAbs(t)) + "` (the version, and every $id, $ref and the README that name it), then pack and sign again"
}

// BumpTooSmall is the refusal of a release whose version bump is smaller
// than its changes need: the changes of the top level, listed, and the
// one command that raises the version enough, run in the pack's source
// folder against the registry root (whole path, so that it runs there).
func BumpTooSmall(res *semdiff.Result, root string) error {
	top := res.Breaking()
	what := "breaking change"
	if len(top) == 0 {
		what = "change"
		for _, c := range res.Changes {
			if c.Level == semdiff.Feature {
				top = append(top, c)
			}
		}
	}
	var b strings.Builder
	for i, c := range top {
		if i == maxListed {
			fmt.Fprintf(&b, "; and %d more (wopkit diff lists them all)", len(top)-maxListed)
			break
		}
		fmt.Fprintf(&b, "; %s %s: %s", c.File, c.Pointer, c.Message)
	}
	return werr.New(werr.Invalid, "version_bump_too_small", "%s: %s; %d %s(s)%s", res.To, res.Verdict, len(top), what, b.String()).
		WithHint("in the pack's source folder run `wopkit bump auto --registry %s` (it raises the version and everything that names it: $ids, $refs, the README), then pack and sign again; or pass --allow-breaking to publish it anyway (consumers pinned to %s's range get the change)", shellQuote(root), res.From)
}

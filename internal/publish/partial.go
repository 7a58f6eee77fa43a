package publish

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
)

// maxShownPacks caps the pack names a registry_partial refusal or a removal
// note lists.
const maxShownPacks = 5

// missingPacks returns the packs the tree's registry index (as on disk)
// lists whose folders <spec>/packs/<name> are not in the tree, in index
// order. The registry's build-index rebuilds the index from the folders it
// finds, so rebuilding it from a partial checkout (a sparse checkout, a copy
// of a few packs) would drop every one of these entries.
func (t *Tree) missingPacks() ([]string, error) {
	b, ok, err := t.read(t.RegistryIndex())
	if err != nil || !ok {
		return nil, err
	}
	doc, err := jsjson.Parse(b, t.abs(t.RegistryIndex()))
	if err != nil {
		return nil, err
	}
	dirs, err := t.list(t.packsDir(), true)
	if err != nil {
		return nil, err
	}
	have := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		have[d] = true
	}
	var missing []string
	for _, e := range jsjson.Array(jsjson.Field(doc, "packs")) {
		if n, ok := jsjson.Str(jsjson.Field(e, "name")); ok && !have[n] {
			missing = append(missing, n)
		}
	}
	return missing, nil
}

// checkComplete refuses (registry_partial) a tree whose registry index
// lists packs whose folders are missing, unless rebuild: the author asked
// to rebuild the index from the packs the checkout holds (the other
// entries are then removed, and the plan says so).
func (t *Tree) checkComplete(rebuild bool) error {
	missing, err := t.missingPacks()
	if err != nil || len(missing) == 0 || rebuild {
		return err
	}
	return werr.New(werr.Invalid, "registry_partial", "%s lists %d pack(s) whose folders are not in %s (%s): the checkout is partial, and rebuilding the index from it would remove them",
		t.abs(t.RegistryIndex()), len(missing), t.abs(t.packsDir()), shortList(missing)).
		WithHint("publish from a full checkout of the registry (no sparse checkout or path filter), or pass --rebuild-index to rebuild the index from the packs this checkout holds and remove the other entries")
}

// shortList names the first maxShownPacks of names (made terminal-safe) and
// counts the rest.
func shortList(names []string) string {
	shown := names
	if len(shown) > maxShownPacks {
		shown = shown[:maxShownPacks]
	}
	out := make([]string, len(shown))
	for i, n := range shown {
		out[i] = termsafe.String(n)
	}
	s := strings.Join(out, ", ")
	if rest := len(names) - len(shown); rest > 0 {
		s += fmt.Sprintf(", … and %d more", rest)
	}
	return s
}

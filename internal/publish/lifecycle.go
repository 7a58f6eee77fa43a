package publish

import (
	"time"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/werr"
)

// LifecycleOptions name a published version and what to record on it.
type LifecycleOptions struct {
	Registry     string
	Spec         string // SpecV1 or SpecV2 (default)
	Name         string
	Version      string
	Reason       string
	SupersededBy string // deprecate only: the version (or name@version) that replaces this one
	RebuildIndex bool   // as Options.RebuildIndex
	DryRun       bool   // as Options.DryRun
	Now          time.Time
}

// The registry's limits on the lifecycle fields (registry version manifest
// schema: yankedReason and deprecationReason maxLength 512, supersededBy 256).
const (
	maxReason     = 512
	maxSuperseded = 256
)

// Yank records that name@version was published in error, as the registry
// does (PACK-LIFECYCLE §Yank, QUICKSTART §8): yanked true and yankedReason
// in the version manifest, then the indexes rebuilt. The tarball, signature
// and SBOM stay: a yanked version stays served, and is never latest while
// an unyanked version exists (v2).
func Yank(o LifecycleOptions) (*Plan, error) {
	return lifecycle(o, func(t *Tree, m *jsjson.Obj) error {
		m.Set("yanked", true)
		m.Set("yankedReason", o.Reason)
		return nil
	})
}

// Deprecate records that name@version is deprecated: in the v2 tree
// versionDeprecated, deprecationReason and supersededBy (RFC 0178 C11.2); in
// the v1 tree deprecated, deprecationReason and supersededBy.
func Deprecate(o LifecycleOptions) (*Plan, error) {
	return lifecycle(o, func(t *Tree, m *jsjson.Obj) error {
		if o.SupersededBy != "" {
			if err := checkSuperseding(t, o); err != nil {
				return err
			}
		}
		flag := "versionDeprecated"
		if t.Spec == SpecV1 {
			flag = "deprecated"
		}
		m.Set(flag, true)
		m.Set("deprecationReason", o.Reason)
		if o.SupersededBy != "" {
			m.Set("supersededBy", o.SupersededBy)
		}
		return nil
	})
}

// checkSuperseding refuses a replacement that is not a published, unyanked
// version of the same pack.
func checkSuperseding(t *Tree, o LifecycleOptions) error {
	v := o.SupersededBy
	if name, ver, ok := cutAt(v); ok {
		if name != o.Name {
			return nil // another pack: the registry accepts a pointer it cannot check here
		}
		v = ver
	}
	if utf8.RuneCountInString(o.SupersededBy) > maxSuperseded {
		return werr.New(werr.Usage, "usage", "--superseded-by is longer than the registry's %d characters", maxSuperseded)
	}
	if v == o.Version {
		return werr.New(werr.Usage, "usage", "%s@%s cannot be superseded by itself", o.Name, v)
	}
	if ok, err := t.exists(t.VersionFile(o.Name, v, ".json")); err != nil {
		return err
	} else if !ok {
		return werr.New(werr.Invalid, "version_unknown", "--superseded-by %s: %s@%s is not published in %s", o.SupersededBy, o.Name, v, t.abs(t.versionsDir(o.Name))).
			WithHint("name a published version of the pack that replaces this one")
	}
	m, err := t.manifest(o.Name, v)
	if err != nil {
		return err
	}
	if jsjson.Truthy(jsjson.Field(m, "yanked")) {
		return werr.New(werr.Invalid, "version_yanked", "--superseded-by %s names a yanked version", o.SupersededBy).
			WithHint("point at a version users can install")
	}
	return nil
}

func cutAt(s string) (string, string, bool) {
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == '@' {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

func lifecycle(o LifecycleOptions, edit func(*Tree, *jsjson.Obj) error) (*Plan, error) {
	if o.Reason == "" {
		return nil, werr.New(werr.Usage, "usage", "a reason is required").WithHint("pass --reason TEXT: clients show it to users")
	}
	if utf8.RuneCountInString(o.Reason) > maxReason {
		return nil, werr.New(werr.Usage, "usage", "--reason is longer than the registry's %d characters", maxReason)
	}
	t, err := openTree(o.Registry, o.Spec, o.DryRun)
	if err != nil {
		return nil, err
	}
	if err := t.serves(); err != nil {
		return nil, err
	}
	if err := t.checkComplete(o.RebuildIndex); err != nil {
		return nil, err
	}
	if !safeName(o.Name) || !safeName(o.Version) {
		return nil, werr.New(werr.Usage, "usage", "%q@%q cannot name a published version", o.Name, o.Version)
	}
	rel := t.VersionFile(o.Name, o.Version, ".json")
	if ok, err := t.exists(rel); err != nil {
		return nil, err
	} else if !ok {
		return nil, werr.New(werr.Invalid, "version_unknown", "%s@%s is not published in %s (no %s)", o.Name, o.Version, t.Root, t.abs(rel)).
			WithHint("check the name, the version and the tree (--spec v1 for the frozen v1 tree)")
	}
	m, err := t.manifest(o.Name, o.Version)
	if err != nil {
		return nil, err
	}
	if err := edit(t, m); err != nil {
		return nil, err
	}
	plan := &Plan{Registry: t.Root, Tree: t.Spec, TreeReason: t.why, Name: o.Name, Version: o.Version, Notes: t.notes, Changes: []Change{}}
	oldPack, oldReg, err := snapshotIndexes(t, o.Name)
	if err != nil {
		return nil, err
	}
	t.put(rel, jsjson.Stringify(m))
	now := o.Now
	if now.IsZero() {
		now = Clock()
	}
	if err := t.planIndexes([]string{o.Name}, now); err != nil {
		return nil, err
	}
	if err := plan.collect(t); err != nil {
		return nil, err
	}
	return plan, indexDiff(t, plan, o.Name, oldPack, oldReg)
}

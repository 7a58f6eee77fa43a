// Package semdiff compares two versions of a pack and says what a consumer
// of the old one meets in the new one: every change with its level
// (breaking, feature, fix), the file and JSON pointer, words a consumer
// understands and a stable rule id (docs/RULES.md, "What `wopkit diff`
// counts"), then the smallest honest version bump and whether the new
// version meets it. `wopkit diff`, `publish` (version_bump_too_small),
// `validate --for-registry --registry` and the wizard's review call it.
//
// The comparison is conservative: a change it cannot prove compatible (two
// different patterns, a member it has no rule for) is breaking, with the
// reason "could not prove compatible", never silently passed.
package semdiff

import (
	"cmp"
	"slices"

	"github.com/openwop/wopkit/internal/ecmare"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/third_party/semver"
)

// Level is how a change affects a consumer of the old version.
type Level string

// The levels, from the most to the least serious.
const (
	Breaking Level = "breaking" // a consumer of the old version may fail
	Feature  Level = "feature"  // something added that old consumers can ignore
	Fix      Level = "fix"      // wording, documentation, implementation
)

func (l Level) rank() int {
	switch l {
	case Breaking:
		return 3
	case Feature:
		return 2
	case Fix:
		return 1
	}
	return 0
}

// Bumps: the smallest version bump a set of changes requires.
const (
	BumpMajor = "major"
	BumpMinor = "minor"
	BumpPatch = "patch"
	BumpNone  = "none"
)

// Change is one difference a consumer can notice.
type Change struct {
	Level   Level  `json:"level"`
	File    string `json:"file"`    // slash path inside the pack
	Pointer string `json:"pointer"` // JSON pointer in File ("" for a whole file)
	Message string `json:"message"`
	Rule    string `json:"rule"`
}

// Result is the comparison of two versions.
type Result struct {
	From      string   `json:"from"` // NAME@VERSION of the old side
	To        string   `json:"to"`   // NAME@VERSION of the new side
	Required  string   `json:"required"`
	VersionOK bool     `json:"versionOK"`
	Changes   []Change `json:"changes"`
	// Notes are differences that are not code changes (a new signing
	// key) and so have no level.
	Notes []string `json:"notes,omitempty"`
	// Verdict says in words what Required and VersionOK mean.
	Verdict string `json:"verdict"`

	old, new *Pack
}

// Breaking returns the breaking changes.
func (r *Result) Breaking() []Change {
	var out []Change
	for _, c := range r.Changes {
		if c.Level == Breaking {
			out = append(out, c)
		}
	}
	return out
}

// Compare compares old with new.
func Compare(old, new *Pack) *Result {
	r := &Result{From: old.Name + "@" + old.Version, To: new.Name + "@" + new.Version, Changes: []Change{}, old: old, new: new}
	d := &differ{old: old, new: new, res: r, referenced: map[string]bool{}, budget: workBudget,
		emitted: map[emitKey]bool{}, sameDone: map[sameKey]bool{}, sameLocal: map[sameKey]bool{}, regexps: map[string]*ecmare.Regexp{}, keys: map[keysAt][]string{},
		oldIDs: map[loc]int32{}, newIDs: map[loc]int32{}, resolved: map[resolveKey]resolution{}}
	d.manifest()
	d.files()
	slices.SortStableFunc(r.Changes, func(a, b Change) int {
		return cmp.Or(b.Level.rank()-a.Level.rank(), cmp.Compare(a.File, b.File), jsondoc.ComparePointers(a.Pointer, b.Pointer), cmp.Compare(a.Message, b.Message))
	})
	r.Changes = slices.Compact(r.Changes)
	r.Required = required(old.Version, r.Changes)
	r.VersionOK, r.Verdict = meets(old.Version, new.Version, r.Required)
	return r
}

// required is the smallest bump the changes need. Before 1.0.0 a caret
// range (^0.y.z) admits only 0.y.*, so a breaking change needs the minor
// number and anything else the patch number (npm's and Cargo's rule).
func required(oldVersion string, changes []Change) string {
	top := Level("")
	for _, c := range changes {
		if c.Level.rank() > top.rank() {
			top = c.Level
		}
	}
	v, err := semver.NewVersion(oldVersion)
	zero := err == nil && v.Major() == 0
	switch {
	case top == Breaking && zero:
		return BumpMinor
	case top == Breaking:
		return BumpMajor
	case top == Feature && zero:
		return BumpPatch
	case top == Feature:
		return BumpMinor
	case top == Fix:
		return BumpPatch
	}
	return BumpNone
}

// meets reports whether going from oldV to newV is at least the bump
// need, and says so.
func meets(oldV, newV, need string) (bool, string) {
	o, err1 := semver.NewVersion(oldV)
	n, err2 := semver.NewVersion(newV)
	if err1 != nil || err2 != nil {
		return false, "a version is not SemVer (" + oldV + " → " + newV + "): the bump cannot be checked"
	}
	got := BumpNone
	switch {
	case n.Major() > o.Major():
		got = BumpMajor
	case n.Major() == o.Major() && n.Minor() > o.Minor():
		got = BumpMinor
	case n.Major() == o.Major() && n.Minor() == o.Minor() && n.Patch() > o.Patch():
		got = BumpPatch
	}
	if n.LessThan(o) {
		return false, newV + " is lower than " + oldV + ": a new version must be greater"
	}
	rank := map[string]int{BumpNone: 0, BumpPatch: 1, BumpMinor: 2, BumpMajor: 3}
	if rank[got] >= rank[need] {
		if need == BumpNone {
			return true, "no change a consumer can notice; " + oldV + " → " + newV + " is fine"
		}
		return true, oldV + " → " + newV + " is a " + got + " bump: enough for changes that need " + article(need) + " bump"
	}
	return false, oldV + " → " + newV + " is " + bumpWords(got) + ", but the changes need " + article(need) + " bump (" + next(o, need) + " or later)"
}

func article(b string) string {
	if b == BumpNone {
		return "no"
	}
	return "a " + b
}

func bumpWords(b string) string {
	if b == BumpNone {
		return "no bump"
	}
	return "a " + b + " bump"
}

// next is the smallest version that is the bump b from v.
func next(v *semver.Version, b string) string {
	switch b {
	case BumpMajor:
		return v.IncMajor().String()
	case BumpMinor:
		return v.IncMinor().String()
	}
	return v.IncPatch().String()
}

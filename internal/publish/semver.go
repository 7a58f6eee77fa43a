package publish

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
)

// SemVer 2.0.0 precedence and the range syntax the registry files
// advisories in (check-advisories.mjs: comparators >=, <=, >, <, = joined by
// spaces, clauses joined by ||).

type semver struct {
	major, minor, patch uint64
	pre                 string
}

// semverRE is SemVer 2.0.0's own grammar: numeric identifiers without
// leading zeros, no empty identifier, build metadata after '+'.
var semverRE = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?` +
	`(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$`)

// looseSemverRE also reads the versions a registry may already hold that
// SemVer refuses (leading zeros, empty identifiers), so that a new version
// is compared with them by the numbers they spell.
var looseSemverRE = lazyre.New(`^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$`)

// parseSemver parses a SemVer 2.0.0 version; ok is false for anything the
// grammar refuses (01.0.0, 1.00.0, 1.0.0-01, 1.0.0+).
func parseSemver(v string) (semver, bool) { return parseWith(semverRE, v) }

// parseLoose parses a version already published, leading zeros allowed.
func parseLoose(v string) (semver, bool) { return parseWith(looseSemverRE, v) }

func parseWith(re *lazyre.Regexp, v string) (semver, bool) {
	m := re.FindStringSubmatch(v)
	if m == nil {
		return semver{}, false
	}
	var s semver
	var err error
	if s.major, err = strconv.ParseUint(m[1], 10, 64); err != nil {
		return s, false
	}
	if s.minor, err = strconv.ParseUint(m[2], 10, 64); err != nil {
		return s, false
	}
	if s.patch, err = strconv.ParseUint(m[3], 10, 64); err != nil {
		return s, false
	}
	s.pre = m[4]
	return s, true
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func comparePrerelease(a, b string) int {
	ap, bp := strings.Split(a, "."), strings.Split(b, ".")
	numeric := func(s string) bool {
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return s != ""
	}
	for i := 0; i < min(len(ap), len(bp)); i++ {
		x, y := ap[i], bp[i]
		if x == y {
			continue
		}
		xn, yn := numeric(x), numeric(y)
		switch {
		case xn && yn:
			xi, _ := strconv.ParseUint(x, 10, 64)
			yi, _ := strconv.ParseUint(y, 10, 64)
			if c := cmpUint(xi, yi); c != 0 {
				return c
			}
		case xn:
			return -1
		case yn:
			return 1
		case x < y:
			return -1
		default:
			return 1
		}
	}
	return len(ap) - len(bp)
}

func (a semver) compare(b semver) int {
	if c := cmpUint(a.major, b.major); c != 0 {
		return c
	}
	if c := cmpUint(a.minor, b.minor); c != 0 {
		return c
	}
	if c := cmpUint(a.patch, b.patch); c != 0 {
		return c
	}
	switch {
	case a.pre != "" && b.pre == "":
		return -1
	case a.pre == "" && b.pre != "":
		return 1
	case a.pre != "":
		return comparePrerelease(a.pre, b.pre)
	}
	return 0
}

// CompareVersions orders two SemVer versions by precedence; a version that
// does not parse sorts below every one that does.
func CompareVersions(a, b string) int {
	x, okx := parseSemver(a)
	y, oky := parseSemver(b)
	switch {
	case !okx && !oky:
		return strings.Compare(a, b)
	case !okx:
		return -1
	case !oky:
		return 1
	}
	return x.compare(y)
}

var comparatorRE = lazyre.New(`^(>=|<=|>|<|=)?\s*(\S+)$`)

// satisfies reports whether version is in range, as check-advisories.mjs
// matches it.
func satisfies(version, rng string) (bool, error) {
	target, ok := parseSemver(version)
	for _, clause := range strings.Split(rng, "||") {
		parts := strings.Fields(clause)
		if len(parts) == 0 {
			return false, fmt.Errorf("empty comparator in range %q", rng)
		}
		match := true
		for _, part := range parts {
			m := comparatorRE.FindStringSubmatch(part)
			if m == nil {
				return false, fmt.Errorf("unparseable comparator %q", part)
			}
			rhs, okr := parseSemver(m[2])
			if !okr {
				return false, fmt.Errorf("unparseable version %q in comparator", m[2])
			}
			if !ok {
				match = false
				continue
			}
			c := target.compare(rhs)
			switch m[1] {
			case "", "=":
				match = match && c == 0
			case ">=":
				match = match && c >= 0
			case "<=":
				match = match && c <= 0
			case ">":
				match = match && c > 0
			case "<":
				match = match && c < 0
			}
		}
		if match && ok {
			return true, nil
		}
	}
	return false, nil
}

// jsNumber is ECMAScript's Number(s) for the decimal strings versions are
// made of; anything else is NaN, which the scripts turn into 0 with `|| 0`.
func jsNumber(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "xXpP_") {
		return 0
	}
	return f
}

// scriptSemverCmp is build-index.mjs's semverCmp: major, minor and patch
// compared as numbers, prerelease tags ignored.
func scriptSemverCmp(a, b string) int {
	parse := func(v string) [3]float64 {
		var out [3]float64
		for i, p := range strings.Split(v, ".") {
			if i == 3 {
				break
			}
			p, _, _ = strings.Cut(p, "-")
			out[i] = jsNumber(p)
		}
		return out
	}
	x, y := parse(a), parse(b)
	for i := range 3 {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

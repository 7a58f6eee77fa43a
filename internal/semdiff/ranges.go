package semdiff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/lazyre"
)

// ranges compares a map of version ranges: engines (name → range) or
// peerDependencies (pack → range).
func (d *differ) ranges(file, ptr string, ov, nv any, noun string, peers bool) {
	om, _ := ov.(map[string]any)
	nm, _ := nv.(map[string]any)
	for _, k := range unionKeys(om, nm) {
		o, oHas := om[k].(string)
		n, nHas := nm[k].(string)
		at := ptr + "/" + escape(k)
		what := noun + " " + k
		if !peers {
			what = noun + " of " + k
		}
		switch {
		case !oHas && !nHas:
			if canon(om[k]) != canon(nm[k]) {
				d.add(Breaking, RuleValueChanged, file, at, "could not prove compatible: %s is not a range string", what)
			}
		case !oHas && peers:
			d.add(Breaking, RuleRangeNarrowed, file, at, "a new peer dependency %s %s: consumers must now install it", k, n)
		case !oHas:
			d.add(Breaking, RuleRangeNarrowed, file, at, "%s %q was added: hosts outside it are refused", what, n)
		case !nHas && peers:
			d.add(Feature, RuleRangeWidened, file, at, "peer dependency %s is no longer needed", k)
		case !nHas:
			d.add(Feature, RuleRangeWidened, file, at, "%s is no longer limited (was %q)", what, o)
		case o != n:
			lessV, moreV, ok := rangeCmp(o, n)
			switch {
			case !ok:
				d.add(Breaking, RuleRangeNarrowed, file, at, "could not prove compatible: %s went from %q to %q and one of them is not a range wopkit reads", what, o, n)
			case lessV != "":
				d.add(Breaking, RuleRangeNarrowed, file, at, "%s went from %q to %q: %s is no longer admitted", what, o, n, lessV)
			case moreV != "":
				d.add(Feature, RuleRangeWidened, file, at, "%s went from %q to %q: %s is now admitted", what, o, n, moreV)
			case !sameRange(o, n):
				d.add(Breaking, RuleRangeNarrowed, file, at, "could not prove compatible: %s went from %q to %q, and no version wopkit tried (releases and pre-releases) tells them apart", what, o, n)
			}
		}
	}
}

var versionToken = lazyre.New(`\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?`)

// sameRange reports whether two ranges are written alike once parsed
// (">=1.0.0" and ">= 1.0.0").
func sameRange(o, n string) bool {
	oc, err1 := semver.NewConstraint(o)
	nc, err2 := semver.NewConstraint(n)
	return err1 == nil && err2 == nil && oc.String() == nc.String()
}

// rangeCmp compares two npm-style ranges on the versions where either can
// change its mind (every version either names, pre-releases included, the
// next and previous patch, minor and major of each, and the extremes,
// each also as its first pre-release X.Y.Z-0, which a range admits only
// where it names a pre-release of that X.Y.Z): lessV is a version
// the old admits and the new does not, moreV the reverse ("" when none).
// ok is false when a range does not parse.
func rangeCmp(o, n string) (lessV, moreV string, ok bool) {
	oc, err1 := semver.NewConstraint(o)
	nc, err2 := semver.NewConstraint(n)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	for _, v := range probes(o + " " + n) {
		sv, err := semver.NewVersion(v)
		if err != nil {
			continue
		}
		a, b := oc.Check(sv), nc.Check(sv)
		if a && !b && lessV == "" {
			lessV = v
		}
		if b && !a && moreV == "" {
			moreV = v
		}
	}
	return lessV, moreV, true
}

// probes are the versions a pair of ranges is checked at.
func probes(s string) []string {
	const big = 999999
	out := []string{"0.0.0", "0.0.1", "0.1.0", "1.0.0", fmt.Sprintf("%d.0.0", big)}
	for _, tok := range versionToken.Compiled().FindAllString(s, -1) {
		tok, pre, isPre := strings.Cut(tok, "-")
		if isPre && strings.Count(tok, ".") == 2 {
			out = append(out, tok+"-"+pre)
		}
		var p [3]int
		for i, part := range strings.Split(tok, ".") {
			p[i], _ = strconv.Atoi(part)
		}
		M, m, pt := p[0], p[1], p[2]
		add := func(a, b, c int) {
			if a >= 0 && b >= 0 && c >= 0 {
				out = append(out, fmt.Sprintf("%d.%d.%d", a, b, c))
			}
		}
		add(M, m, pt)
		add(M, m, pt+1)
		add(M, m, pt-1)
		add(M, m, big)
		add(M, m+1, 0)
		add(M, m-1, big)
		add(M+1, 0, 0)
		add(M-1, big, big)
		add(M, big, big)
	}
	for _, v := range out {
		if !strings.Contains(v, "-") {
			out = append(out, v+"-0")
		}
	}
	// Each probe once, first place kept (the first separating probe is the
	// witness a line names): the two ranges often share versions.
	seen := make(map[string]bool, len(out))
	uniq := out[:0]
	for _, v := range out {
		if !seen[v] {
			seen[v] = true
			uniq = append(uniq, v)
		}
	}
	return uniq
}

package migrate

import (
	"fmt"
	"strconv"

	"github.com/openwop/wopkit/internal/lazyre"
)

// CeilingMajor is the ceiling a migrated engines range gets when its own
// does not admit protocol major 2: `<3.0.0`, the range the spec's author
// quickstart, the registry's v2 wave (scripts/v2-wave-engines.mjs) and
// `wopkit new` write.
const CeilingMajor = 3

// The engines ranges migrate can rewrite: a floor with an optional ceiling
// on a major (`>=1.1`, `>=1.0.0 <2.0.0`, `>= 1.2.3 < 2`), a caret range on a
// major of 1 or more (`^1.2.0`) and a whole major (`1.x`, `1.*`, `1`).
var (
	floorRange = lazyre.New(`^>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\s*<\s*v?(\d+)(?:\.0(?:\.0)?)?)?$`)
	caretRange = lazyre.New(`^\^\s*v?([1-9]\d*)(?:\.(\d+))?(?:\.(\d+))?$`)
	majorRange = lazyre.New(`^v?([1-9]\d*)(?:\.[x*X](?:\.[x*X])?)?$`)
)

// rewriteEngines returns the v2 form of an engines.openwop range: the same
// floor, written with three segments, and an explicit ceiling `<M.0.0`
// that admits protocol major 2 (the range's own when it already does, else
// CeilingMajor). A range without a ceiling counts as `<2.0.0`, as v2 hosts
// read it (RFC 0177 §A.1). It returns a reason instead when the range
// cannot be written that way without changing what it says about major 1
// hosts (a ceiling inside a major, `~`, `||`, prereleases, no floor).
func rewriteEngines(r string) (string, string) {
	var floor [3]string
	ceiling, explicit := 2, true
	switch m := floorRange.FindStringSubmatch(r); {
	case m != nil:
		floor = [3]string{m[1], m[2], m[3]}
		explicit = m[4] != ""
		if explicit {
			c, err := strconv.Atoi(m[4])
			if err != nil {
				return "", "its ceiling is not a number"
			}
			ceiling = c
		}
	default:
		if m := caretRange.FindStringSubmatch(r); m != nil {
			floor = [3]string{m[1], m[2], m[3]}
		} else if m := majorRange.FindStringSubmatch(r); m != nil {
			floor = [3]string{m[1]}
		} else {
			return "", "only `>=x[.y[.z]] [<M.0.0]`, `^x.y.z` and `x.x` ranges can be rewritten without changing what they say about protocol major 1"
		}
		c, err := strconv.Atoi(floor[0])
		if err != nil {
			return "", "its major is not a number"
		}
		ceiling = c + 1
	}
	for i := range floor {
		if floor[i] == "" {
			floor[i] = "0"
		}
		n, err := strconv.Atoi(floor[i])
		if err != nil {
			return "", "its floor is not a version"
		}
		floor[i] = strconv.Itoa(n)
	}
	major, _ := strconv.Atoi(floor[0])
	switch {
	case major >= CeilingMajor:
		return "", fmt.Sprintf("its floor %s.%s.%s asks for a protocol major that does not exist yet", floor[0], floor[1], floor[2])
	case explicit && ceiling <= major:
		return "", "it admits no version at all"
	case explicit && ceiling < 2:
		return "", "it does not admit protocol major 1 either: claiming major 2 would skip a major"
	}
	if ceiling < CeilingMajor {
		ceiling = CeilingMajor
	}
	return fmt.Sprintf(">=%s.%s.%s <%d.0.0", floor[0], floor[1], floor[2], ceiling), ""
}

// v2Range is the engines grammar of the v2 node schema (RFC 0177 §A.1).
var v2Range = lazyre.New(`^>=\d+(\.\d+){0,2} <(\d+)\.0\.0$`)

// admitsV2 is the registry's test (scripts/lib/registry-tree.mjs): the
// range has the v2 grammar and its ceiling is above 2.
func admitsV2(r string) bool {
	m := v2Range.FindStringSubmatch(r)
	if m == nil {
		return false
	}
	c, err := strconv.Atoi(m[2])
	return err == nil && c > 2
}

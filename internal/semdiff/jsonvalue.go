// Helpers on decoded JSON values: canonical text, sets of strings, sorted keys, JSON pointers.

package semdiff

import (
	"encoding/json"
	"fmt"
	"iter"
	"sort"
	"strings"
)

// canon is v as canonical JSON (encoding/json sorts object keys).
func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canon is canon(v), its length spent from the work budget.
func (c *schemaCmp) canon(v any) string {
	s := canon(v)
	c.d.spend(len(s) / 64)
	return s
}

func short(v any) string {
	s := canon(v)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func stringSet(v any) map[string]bool {
	s := map[string]bool{}
	list, _ := v.([]any)
	for _, x := range list {
		if str, ok := x.(string); ok {
			s[str] = true
		}
	}
	return s
}

// setDiff is the members of a not in b, sorted.
func setDiff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func sorted(s map[string]bool) []string { return setDiff(s, nil) }

// union is unionKeys(om, nm) for the objects at the places o and n, their
// sorted keys kept (a definition compared with many others is sorted
// once).
func (d *differ) union(o node, om map[string]any, n node, nm map[string]any) iter.Seq[string] {
	ok, nk := d.sortedKeys(o, om), d.sortedKeys(n, nm)
	return func(yield func(string) bool) {
		i, j := 0, 0
		for i < len(ok) || j < len(nk) {
			var k string
			switch {
			case j == len(nk) || i < len(ok) && ok[i] < nk[j]:
				k = ok[i]
				i++
			case i == len(ok) || nk[j] < ok[i]:
				k = nk[j]
				j++
			default:
				k = ok[i]
				i, j = i+1, j+1
			}
			if !yield(k) {
				return
			}
		}
	}
}

type keysAt struct {
	p *Pack
	l loc
}

func (d *differ) sortedKeys(x node, m map[string]any) []string {
	k := keysAt{x.p, x.place()}
	if ks, ok := d.keys[k]; ok && len(ks) == len(m) {
		return ks
	}
	d.spend(len(m))
	ks := unionKeys(m, nil)
	d.keys[k] = ks
	return ks
}

func unionKeys(a, b map[string]any) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// pointerGet reads the JSON pointer ptr ("" is the whole document) in v.
func pointerGet(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i := -1
			fmt.Sscan(tok, &i)
			if i < 0 || i >= len(x) || fmt.Sprint(i) != tok {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

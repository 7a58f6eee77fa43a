// Package order holds the comparisons that sort functions across wopkit
// share and the standard library's cmp lacks (cmp.Compare takes no bool).
// It imports nothing of wopkit's.
package order

// Bool compares two booleans for slices.SortFunc and cmp.Or: false sorts
// before true (-1 when only b is true, +1 when only a is, 0 when equal).
func Bool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

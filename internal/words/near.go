package words

import "strings"

// Nearest is the candidate closest to s by edit distance (case ignored)
// when it is a near miss: at most a third of s's letters, and at least
// two, differ. "" when none is that near.
func Nearest(s string, candidates []string) string {
	s = strings.ToLower(s)
	best, bestD := "", max(2, len(s)/3)+1
	for _, c := range candidates {
		if d := Distance(s, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

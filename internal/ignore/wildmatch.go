package ignore

// Wildmatch is git's wildmatch (wildmatch.c), byte for byte: *, ? and a
// bracket expression ([a-z], [!x], [^x], [[:alpha:]] and the other POSIX
// classes) match one byte each, \ escapes the next byte. With pathname set
// (git's WM_PATHNAME), *, ? and a class never match a /, and ** between
// slashes or at either end matches any number of folders; without it * and **
// both match anything. ok is false when the match took more than maxSteps
// steps (a pattern built to cost: the caller then treats it as undecided).
//
// The early exits are git's (WM_ABORT_ALL, WM_ABORT_TO_STARSTAR), with the
// later refinement that a literal after a * not found in the rest of the
// text ends the match: together they keep the work near the product of the
// lengths, and the answer is the one git gives.
func Wildmatch(pattern, text string, pathname bool) (matched, ok bool) {
	w := wild{pathname: pathname}
	r := w.match(pattern, 0, 0, text, 0)
	return r == wmMatch, w.steps <= maxSteps
}

// maxSteps bounds the work one match may cost.
const maxSteps = 1 << 20

// The results of one attempt, as in git.
const (
	wmMatch      = iota
	wmNoMatch    // this alignment fails; an enclosing * may try another
	wmAbortAll   // no alignment can match
	wmAbortStars // only an enclosing ** may try another
)

type wild struct {
	pathname bool
	steps    int
}

// at is s[i], or 0 past its end (git reads C strings: a NUL ends them).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

// match matches pat[p:] against text[t:]; p0 is where this attempt's
// pattern starts (a ** is a folder wildcard only after a / or at that start).
func (w *wild) match(pat string, p0, p int, text string, t int) int {
	for ; p < len(pat); p, t = p+1, t+1 {
		if w.steps++; w.steps > maxSteps {
			return wmAbortAll
		}
		pc := pat[p]
		tc := at(text, t)
		if t >= len(text) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			p++
			if at(pat, p) != tc || p >= len(pat) {
				return wmNoMatch
			}
		case '?':
			if w.pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			return w.star(pat, p0, p, text, t)
		case '[':
			n, r := w.class(pat, p, tc)
			if r != wmMatch {
				return r
			}
			p = n
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if t < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// star matches the * (or run of *) at pat[p] and what follows it.
func (w *wild) star(pat string, p0, p int, text string, t int) int {
	matchSlash := !w.pathname
	p++
	if at(pat, p) == '*' {
		prev := p - 2
		for at(pat, p) == '*' {
			p++
		}
		if w.pathname && (prev < p0 || pat[prev] == '/') &&
			(p >= len(pat) || pat[p] == '/' || (pat[p] == '\\' && at(pat, p+1) == '/')) {
			// **/ also matches no folder at all: foo/**/bar matches foo/bar.
			if at(pat, p) == '/' && w.match(pat, p+1, p+1, text, t) == wmMatch {
				return wmMatch
			}
			matchSlash = true
		}
	}
	if p >= len(pat) {
		// A trailing ** matches everything, a trailing * the rest of one name.
		if !matchSlash && indexSlash(text, t) >= 0 {
			return wmNoMatch
		}
		return wmMatch
	}
	if !matchSlash && pat[p] == '/' {
		// */ matches exactly the next folder's name.
		s := indexSlash(text, t)
		if s < 0 {
			return wmNoMatch
		}
		return w.match(pat, p0, p, text, s) // the / matches the /
	}
	for t < len(text) {
		if w.steps++; w.steps > maxSteps {
			return wmAbortAll
		}
		if c := pat[p]; !isGlobSpecial(c) {
			// What precedes the next literal belongs to the *.
			for t < len(text) && (matchSlash || text[t] != '/') && text[t] != c {
				t++
			}
			if at(text, t) != c || t >= len(text) {
				if matchSlash {
					return wmAbortAll
				}
				return wmAbortStars
			}
		}
		r := w.match(pat, p, p, text, t)
		if r != wmNoMatch {
			if !matchSlash || r != wmAbortStars {
				return r
			}
		} else if !matchSlash && text[t] == '/' {
			return wmAbortStars
		}
		t++
	}
	return wmAbortAll
}

func indexSlash(s string, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// class matches the bracket expression at pat[p] ("[...]") against the
// byte c: end is the index of its closing ].
func (w *wild) class(pat string, p int, c byte) (end, r int) {
	p++
	pc := at(pat, p)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		p++
		pc = at(pat, p)
	}
	var prev byte
	matched := false
	for {
		if p >= len(pat) {
			return p, wmAbortAll
		}
		switch {
		case pc == '\\':
			p++
			if p >= len(pat) {
				return p, wmAbortAll
			}
			pc = pat[p]
			matched = matched || c == pc
		case pc == '-' && prev != 0 && p+1 < len(pat) && pat[p+1] != ']':
			p++
			pc = pat[p]
			if pc == '\\' {
				p++
				if p >= len(pat) {
					return p, wmAbortAll
				}
				pc = pat[p]
			}
			matched = matched || prev <= c && c <= pc
			pc = 0 // a range is no start of another
		case pc == '[' && at(pat, p+1) == ':':
			s := p + 2
			q := s
			for q < len(pat) && pat[q] != ']' {
				q++
			}
			if q >= len(pat) {
				return q, wmAbortAll
			}
			if q-s-1 < 0 || pat[q-1] != ':' {
				// no ":]": a plain [
				matched = matched || c == '['
				pc = '['
				break
			}
			hit, known := posixClass(pat[s:q-1], c)
			if !known {
				return q, wmAbortAll
			}
			matched = matched || hit
			p, pc = q, 0
		default:
			matched = matched || c == pc
		}
		prev = pc
		p++
		pc = at(pat, p)
		if p < len(pat) && pc == ']' {
			break
		}
	}
	if matched == negated || w.pathname && c == '/' {
		return p, wmNoMatch
	}
	return p, wmMatch
}

// posixClass is [:name:] in the C locale (git's ctype, ASCII only).
func posixClass(name string, c byte) (hit, known bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return 0x21 <= c && c <= 0x7e, true
	case "lower":
		return lower, true
	case "print":
		return 0x20 <= c && c <= 0x7e, true
	case "punct":
		return 0x21 <= c && c <= 0x7e && !upper && !lower && !digit, true
	case "space":
		return c == ' ' || '\t' <= c && c <= '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F', true
	}
	return false, false
}

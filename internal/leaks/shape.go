package leaks

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shape is what a rule's expression says about where its matches lie,
// read from its syntax tree (regexp/syntax), so that the expression runs
// only on the bytes a match can occupy and a window is never cut short:
//
//   - every match holds one of the rule's keywords (mustKeyword) in the
//     part of the expression at index k of its top-level concatenation;
//     a match then starts at most before bytes ahead of a keyword it holds
//     and ends at most after bytes past it (the widths of what comes
//     before and after that part, plus the part itself). When the part
//     before (after) cannot match a newline, the match does not leave the
//     keyword's line in that direction.
//   - a width that has no bound (`\s+`, `.*`, `{100,}`) is capped at
//     maxWindow (maxPEMWindow after a PEM header's keyword): a longer match
//     is not needed to find a secret, since the expression still matches on
//     the window's part of it.
//   - run, minRun: a class of bytes and a length such that every match holds
//     minRun bytes of that class in a row (the secret's `[a-z0-9]{32}`). A
//     window without such a run is not given to the expression.
//   - literals: strings every match holds ("kind:" and "data:" of a
//     Kubernetes secret). A window without one of them is not given to the
//     expression either. near: those that lie on the keyword's line,
//     within nearWidth bytes from it (a PEM header's "PRIVATE KEY"): a
//     keyword without them opens no window.
//
// A rule whose expression does not always hold a keyword (contained is
// false) runs, as gitleaks runs every rule, over the whole text when one
// of its keywords is in it.
type shape struct {
	contained     bool
	before, after int
	lineBefore    int // the match starts at most this many bytes before the keyword's line (-1: no bound)
	lineAfter     int // the match ends at most this many bytes after the keyword's line's newline (-1: no bound)
	run           *[256]bool
	minRun        int
	literals      []string // every match holds each (in small letters; see holdsFold)
	near          []string // ... within nearWidth bytes of its keyword, on its line
	nearWidth     int
	// exact: the keyword's part is this literal, case-sensitive (curl's
	// rules say "curl", not "CURLY"); wordBefore, wordAfter: a \b on
	// either side of it. A keyword found otherwise opens no window.
	exact                 string
	wordBefore, wordAfter bool
}

// maxWindow caps a window's width that the expression leaves unbounded;
// maxPEMWindow after a PEM header ("-----BEGIN ... PRIVATE KEY-----", the
// key follows over lines).
const (
	maxWindow    = 4096
	maxPEMWindow = 64 << 10
)

// unbounded is the width of an expression that has no bound.
const unbounded = -1

func shapeOf(expr string, keywords []string) (shape, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return shape{}, err
	}
	parts := flatten([]*syntax.Regexp{re})
	sh := shape{}
	sh.run, sh.minRun = longestRun(parts)
	sh.literals = required(re)
	k, j := keywordSpan(parts, keywords)
	if k < 0 {
		return sh, nil
	}
	sh.contained = true
	capW := maxWindow
	for _, kw := range keywords {
		if strings.HasPrefix(kw, "-----") {
			capW = maxPEMWindow
		}
	}
	bound := func(w int) int {
		if w == unbounded || w > capW {
			return capW
		}
		return w
	}
	if m := literalIn(parts[k : j+1]); m >= 0 && len(keywords) == 1 {
		m += k
		if p := parts[m]; p.Flags&syntax.FoldCase == 0 && strings.ToLower(string(p.Rune)) == keywords[0] {
			sh.exact = string(p.Rune)
			sh.wordBefore = m > 0 && parts[m-1].Op == syntax.OpWordBoundary
			sh.wordAfter = m+1 < len(parts) && parts[m+1].Op == syntax.OpWordBoundary
		}
	}
	wk := widthAll(parts[k : j+1])
	sh.before = bound(addW(widthAll(parts[:k]), wk))
	sh.after = bound(addW(wk, widthAll(parts[j+1:])))
	// Before the last part up to the keyword's that can match a newline,
	// and after the first from the keyword's on, the match stays on the
	// keyword's line.
	sh.lineBefore, sh.lineAfter = -1, -1
	g := j
	for g >= 0 && !newline(parts[g]) {
		g--
	}
	if w := widthAll(parts[:g+1]); w != unbounded {
		sh.lineBefore = w
	}
	f := k
	for f < len(parts) && !newline(parts[f]) {
		f++
	}
	if w := widthAll(parts[f:]); w != unbounded {
		sh.lineAfter = w
	}
	if w := widthAll(parts[k:f]); f > j+1 && w != unbounded {
		sh.near = required(&syntax.Regexp{Op: syntax.OpConcat, Sub: parts[j+1 : f]})
		sh.nearWidth = w
	}
	return sh, nil
}

// flatten lists the parts every match goes through in order: the
// top-level concatenation, with captures and nested concatenations opened.
func flatten(res []*syntax.Regexp) []*syntax.Regexp {
	var out []*syntax.Regexp
	for _, re := range res {
		switch re.Op {
		case syntax.OpConcat, syntax.OpCapture:
			out = append(out, flatten(re.Sub)...)
		default:
			out = append(out, re)
		}
	}
	return out
}

// keywordSpan finds the first parts[k..j] (at most four parts) every match
// of which holds one of keywords, or k = -1.
func keywordSpan(parts []*syntax.Regexp, keywords []string) (k, j int) {
	for k := range parts {
		for j := k; j < len(parts) && j < k+4; j++ {
			if allHold(language(parts[k:j+1]), keywords) {
				return k, j
			}
		}
	}
	return -1, -1
}

// allHold reports whether each of strs holds one of keywords.
func allHold(strs []string, keywords []string) bool {
	for _, s := range strs {
		s = strings.ToLower(s)
		found := false
		for _, k := range keywords {
			if strings.Contains(s, k) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(strs) > 0
}

// unknown stands, in the strings language returns, for a part it does not
// list (a wide character class, a repetition): any string, the empty one
// too. A keyword (which holds no NUL) found in a string of the language is
// then in every match it stands for.
const unknown = "\x00"

// maxLanguage bounds the strings language lists.
const maxLanguage = 512

// language lists the strings the concatenation of parts matches, an
// unknown part written as unknown.
func language(parts []*syntax.Regexp) []string {
	out := []string{""}
	for _, p := range parts {
		l := lang(p)
		if len(out)*len(l) > maxLanguage {
			l = []string{unknown}
		}
		next := make([]string, 0, len(out)*len(l))
		for _, a := range out {
			for _, b := range l {
				next = append(next, a+b)
			}
		}
		out = next
	}
	return out
}

func lang(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}
	case syntax.OpLiteral:
		return []string{string(re.Rune)} // compared in small letters: case folding adds nothing
	case syntax.OpCharClass:
		var out []string
		for i := 0; i < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if len(out) >= 16 {
					return []string{unknown}
				}
				out = append(out, string(c))
			}
		}
		return out
	case syntax.OpCapture:
		return lang(re.Sub[0])
	case syntax.OpQuest:
		return append(lang(re.Sub[0]), "")
	case syntax.OpConcat:
		return language(re.Sub)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return language([]*syntax.Regexp{re.Sub[0], {Op: syntax.OpEmptyMatch}, unknownPart})
		}
	case syntax.OpPlus:
		return language([]*syntax.Regexp{re.Sub[0], unknownPart})
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			out = append(out, lang(s)...)
			if len(out) > maxLanguage {
				return []string{unknown}
			}
		}
		return out
	}
	return []string{unknown}
}

// unknownPart is a part lang does not list.
var unknownPart = &syntax.Regexp{Op: syntax.OpAnyChar}

func newline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ContainsRune(string(re.Rune), '\n')
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar:
		return true
	}
	for _, s := range re.Sub {
		if newline(s) {
			return true
		}
	}
	return false
}

// longestRun finds, among the parts every match goes through (the
// top-level concatenation, into captures and nested concatenations), the
// repeated character class with the largest minimum count: every match
// holds that many bytes of it in a row. Of an alternation whose every
// branch holds such a run, the union of the classes and the least count.
// A class with characters beyond ASCII counts every byte from 0x80 on as
// its own (a multi-byte character is several bytes).
func longestRun(parts []*syntax.Regexp) (*[256]bool, int) {
	var best *[256]bool
	bestN := 0
	for _, p := range parts {
		set, n := runOf(p)
		if n > bestN {
			best, bestN = set, n
		}
	}
	if bestN < 2 {
		return nil, 0
	}
	return best, bestN
}

func runOf(p *syntax.Regexp) (*[256]bool, int) {
	switch p.Op {
	case syntax.OpCapture, syntax.OpConcat:
		return longestRun(flatten(p.Sub))
	case syntax.OpRepeat, syntax.OpPlus:
		n := 1
		if p.Op == syntax.OpRepeat {
			n = p.Min
		}
		if c := p.Sub[0]; c.Op == syntax.OpCharClass && n > 0 {
			return classSet(c), n
		}
		if n > 0 {
			return runOf(p.Sub[0])
		}
	case syntax.OpAlternate:
		var union [256]bool
		least := -1
		for _, s := range p.Sub {
			set, n := runOf(s)
			if set == nil || n < 2 {
				return nil, 0
			}
			for c, in := range set {
				union[c] = union[c] || in
			}
			if least < 0 || n < least {
				least = n
			}
		}
		return &union, least
	}
	return nil, 0
}

func classSet(class *syntax.Regexp) *[256]bool {
	var set [256]bool
	for i := 0; i < len(class.Rune); i += 2 {
		lo, hi := class.Rune[i], class.Rune[i+1]
		for c := lo; c <= hi && c < 0x80; c++ {
			set[c] = true
		}
		if hi >= 0x80 {
			for c := 0x80; c < 256; c++ {
				set[c] = true
			}
		}
	}
	return &set
}

// hasRun reports whether b holds n bytes of set in a row.
func hasRun(b []byte, set *[256]bool, n int) bool {
	run := 0
	for _, c := range b {
		if set[c] {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func addW(a, b int) int {
	if a == unbounded || b == unbounded {
		return unbounded
	}
	return a + b
}

func widthAll(parts []*syntax.Regexp) int {
	t := 0
	for _, p := range parts {
		t = addW(t, width(p))
	}
	return t
}

// width is the most bytes re can match, or unbounded.
func width(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpNoMatch:
		return 0
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			w := utf8.RuneLen(r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					w = max(w, utf8.RuneLen(f))
				}
			}
			n += max(w, 1)
		}
		return n
	case syntax.OpCharClass:
		w := 1
		for i := 1; i < len(re.Rune); i += 2 {
			w = max(w, utf8.RuneLen(min(re.Rune[i], unicode.MaxRune)))
		}
		return w
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return width(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return unbounded
	case syntax.OpRepeat:
		w := width(re.Sub[0])
		if re.Max < 0 || w == unbounded {
			return unbounded
		}
		return w * re.Max
	case syntax.OpConcat:
		return widthAll(re.Sub)
	case syntax.OpAlternate:
		t := 0
		for _, s := range re.Sub {
			w := width(s)
			if w == unbounded {
				return unbounded
			}
			t = max(t, w)
		}
		return t
	}
	return unbounded
}

// required lists literal strings every match of re holds (in small
// letters; at most 8 of them).
func required(re *syntax.Regexp) []string {
	var out []string
	for _, l := range req(re) {
		if l != "" && !slices.Contains(out, l) && len(out) < 8 {
			out = append(out, l)
		}
	}
	return out
}

func req(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture, syntax.OpPlus:
		return req(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return req(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		for _, s := range re.Sub {
			out = append(out, req(s)...)
		}
		return out
	case syntax.OpAlternate:
		out := req(re.Sub[0])
		for _, s := range re.Sub[1:] {
			other := req(s)
			out = slices.DeleteFunc(out, func(l string) bool { return !slices.Contains(other, l) })
		}
		return out
	}
	return nil
}

// holdsAll reports whether b may hold each of lits (see holdsFold).
func holdsAll(b []byte, lits []string) bool {
	for _, l := range lits {
		if !holdsFold(b, l) {
			return false
		}
	}
	return true
}

// holdsFold reports whether b may hold lit (small letters) as a match of
// the expression would: lit in any letter case, U+212A KELVIN SIGN for a
// "k" and U+017F LONG S for an "s" included (the only characters beyond
// ASCII that Go's (?i) takes for an ASCII letter). A lit beyond ASCII is
// taken as held.
func holdsFold(b []byte, lit string) bool {
	for i := 0; i < len(lit); i++ {
		if lit[i] >= utf8.RuneSelf {
			return true
		}
	}
	for i := range b {
		if foldAt(b[i:], lit) {
			return true
		}
	}
	return false
}

func foldAt(b []byte, lit string) bool {
	j := 0
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch {
		case j < len(b) && lowerByte[b[j]] == c:
			j++
		case c == 'k' && strings.HasPrefix(string(b[j:min(len(b), j+3)]), "\u212a"):
			j += 3
		case c == 's' && strings.HasPrefix(string(b[j:min(len(b), j+2)]), "\u017f"):
			j += 2
		default:
			return false
		}
	}
	return true
}

// opens reports whether the keyword at text[i:] can be the keyword part of
// a match (exact, wordBefore, wordAfter).
func (sh *shape) opens(text []byte, i int) bool {
	if sh.exact == "" {
		return true
	}
	e := i + len(sh.exact)
	if e > len(text) || string(text[i:e]) != sh.exact {
		return false
	}
	if sh.wordBefore && i > 0 && isWordByte(text[i-1]) == isWordByte(text[i]) {
		return false
	}
	return !sh.wordAfter || e == len(text) || isWordByte(text[e-1]) != isWordByte(text[e])
}

// isWordByte is \b's word character (ASCII letters, digits and _).
func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// literalIn is the index of the one literal among parts, the others of
// zero width (\b, ^), or -1.
func literalIn(parts []*syntax.Regexp) int {
	m := -1
	for i, p := range parts {
		switch p.Op {
		case syntax.OpLiteral:
			if m >= 0 {
				return -1
			}
			m = i
		case syntax.OpWordBoundary, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText, syntax.OpEmptyMatch:
		default:
			return -1
		}
	}
	return m
}

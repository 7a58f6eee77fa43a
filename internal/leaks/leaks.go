// Package leaks finds credentials in text with gitleaks' default rule set
// (gitleaks.toml of gitleaks v8.30.1, MIT licensed: LICENSE.gitleaks,
// embedded as the JSON it is converted to: config.go), and a
// few rules of wopkit's own for formats it lacks. The rules are read and
// compiled on first use, never at start-up: a command that packs nothing
// pays nothing.
//
// The rules run as gitleaks runs them: a rule's regular expression only on
// text that holds one of its keywords (case-insensitive), the secret taken
// from its capture group, refused below the rule's entropy, and dropped by
// the global and the rule's allowlists (regexes on the secret, the match
// or the line; stop words; paths).
package leaks

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// skipped are gitleaks rules wopkit does not run: generic-api-key is a
// heuristic (any high-entropy value after a word such as key, token or
// auth), not a provider's format, and refuses ids, hashes and schema
// examples of real packs; pkcs12-file is a path-only rule, where wopkit
// reads the file and refuses a PKCS#12 store that is not password-protected
// (internal/pack). An array, not a map: nothing is built at start-up.
var skipped = [...]string{"generic-api-key", "pkcs12-file"}

// Rule is one compiled rule.
type Rule struct {
	ID, Description string
	re              *regexp.Regexp
	path            *regexp.Regexp
	secretGroup     int
	entropy         float64
	keywords        []string
	allow           []allowlist
	check           func(secret string) bool // own rules: a further test of the secret
	shape           shape                    // where its matches lie (shape.go)
	cost            int64                    // what a byte given to its expression costs (its program's size)
}

type allowlist struct {
	and     bool
	target  string // "", "match" or "line"
	regexes []*regexp.Regexp
	paths   []*regexp.Regexp
	stop    []string
}

// Set is the compiled rules and their keyword index.
type Set struct {
	Rules    []*Rule
	global   allowlist
	keywords []string        // distinct, lower case
	kwRules  [][]int         // keyword -> rules
	pairIdx  []uint16        // the two first bytes of a keyword -> 1 + its index in byPair (0: none)
	byPair   [][]int32       // keywords by their two first bytes
	pairs    [1 << 10]uint64 // the pairs byPair holds, as bits
}

var (
	once   sync.Once
	set    *Set
	setErr error
)

// Default is gitleaks' default rules (less skipped) and wopkit's own,
// compiled on the first call.
func Default() (*Set, error) {
	once.Do(func() { set, setErr = compile(gitleaksJSON, ownRules) })
	return set, setErr
}

func compile(data []byte, own []fileRule) (*Set, error) {
	fillTables()
	fillDecodeTables()
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, err
	}
	s := &Set{pairIdx: make([]uint16, 1<<16), byPair: [][]int32{nil}}
	if s.global, err = compileAllowlist(cfg.Allowlist); err != nil {
		return nil, err
	}
	kwIndex := map[string]int{}
	for _, fr := range append(cfg.Rules, own...) {
		if slices.Contains(skipped[:], fr.ID) || fr.Regex == "" {
			continue
		}
		r := &Rule{ID: fr.ID, Description: fr.Description, secretGroup: fr.SecretGroup, entropy: fr.Entropy}
		if r.re, err = regexp.Compile(fr.Regex); err != nil {
			return nil, fmt.Errorf("rule %s: %w", fr.ID, err)
		}
		if fr.Path != "" {
			if r.path, err = regexp.Compile(fr.Path); err != nil {
				return nil, fmt.Errorf("rule %s: %w", fr.ID, err)
			}
		}
		for _, a := range fr.Allowlists {
			al, err := compileAllowlist(a)
			if err != nil {
				return nil, fmt.Errorf("rule %s: %w", fr.ID, err)
			}
			r.allow = append(r.allow, al)
		}
		if fr.ID == ownCheckedURL {
			r.check = urlPassword
		} else if fr.ID == ownCheckedDocker {
			r.check = dockerAuth
		}
		if len(fr.Keywords) == 0 {
			return nil, fmt.Errorf("rule %s has no keywords", fr.ID)
		}
		ri := len(s.Rules)
		s.Rules = append(s.Rules, r)
		for _, k := range fr.Keywords {
			k = strings.ToLower(k)
			if len(k) < 2 {
				return nil, fmt.Errorf("rule %s: keyword %q is shorter than 2 bytes", fr.ID, k)
			}
			r.keywords = append(r.keywords, k)
		}
		if r.shape, err = shapeOf(fr.Regex, r.keywords); err != nil {
			return nil, fmt.Errorf("rule %s: %w", fr.ID, err)
		}
		if r.cost, err = progSize(fr.Regex); err != nil {
			return nil, fmt.Errorf("rule %s: %w", fr.ID, err)
		}
		for _, k := range r.keywords {
			ki, ok := kwIndex[k]
			if !ok {
				ki = len(s.keywords)
				kwIndex[k] = ki
				s.keywords = append(s.keywords, k)
				s.kwRules = append(s.kwRules, nil)
				pair := uint16(k[0])<<8 | uint16(k[1])
				if s.pairIdx[pair] == 0 {
					s.pairIdx[pair] = uint16(len(s.byPair))
					s.byPair = append(s.byPair, nil)
				}
				s.byPair[s.pairIdx[pair]] = append(s.byPair[s.pairIdx[pair]], int32(ki))
				s.pairs[pair>>6] |= 1 << (pair & 63)
			}
			s.kwRules[ki] = append(s.kwRules[ki], ri)
		}
	}
	return s, nil
}

func compileAllowlist(a fileAllowlist) (allowlist, error) {
	al := allowlist{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget}
	for _, p := range a.Regexes {
		re, err := regexp.Compile(p)
		if err != nil {
			return al, err
		}
		al.regexes = append(al.regexes, re)
	}
	for _, p := range a.Paths {
		re, err := regexp.Compile(p)
		if err != nil {
			return al, err
		}
		al.paths = append(al.paths, re)
	}
	for _, w := range a.StopWords {
		al.stop = append(al.stop, strings.ToLower(w))
	}
	return al, nil
}

// Scratch is the memory one scan reuses from window to window, and its
// work budget.
type Scratch struct {
	regions [][]region      // by rule: where its keywords are
	off     []bool          // by rule: it does not run on this file (its path)
	matches []encodingMatch // of a decoding pass
	// Budget is the work the scan may do, 0 for no bound; Work the work
	// done so far, over every text this Scratch scanned. A byte given to a
	// rule's expression costs the size of its compiled program (Go's
	// regexp runs in time about proportional to both: 1 to 3 ns a unit on
	// the two-core machine), a byte only checked for a run of characters or
	// a literal costs 1.
	Budget, Work int64
}

// ErrBudget is Find's error when the scan's work passes its budget: the
// text is refused unscanned (fail closed).
var ErrBudget = errors.New("the secret scan's work budget is used up")

// lowerByte maps ASCII capitals to small letters, other bytes to
// themselves; filled by compile (nothing runs at start-up).
var lowerByte [256]byte

func fillTables() {
	for c := range 256 {
		lowerByte[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			lowerByte[c] = byte(c) + 'a' - 'A'
		}
	}
}

// hasPrefixFold reports whether b starts with kw (small letters) in any
// letter case.
func hasPrefixFold(b []byte, kw string) bool {
	if len(b) < len(kw) {
		return false
	}
	for j := 0; j < len(kw); j++ {
		if lowerByte[b[j]] != kw[j] {
			return false
		}
	}
	return true
}

// region is a part of a text a rule's expression runs on.
type region struct{ start, end int }

// margin is how many bytes a window takes on either side of where its
// matches can lie: the context of a \b at its edge.
const margin = utf8.UTFMax

// Keywords lists the rules' keywords (small letters), each once.
func (s *Set) Keywords() []string { return slices.Clone(s.keywords) }

// PathAllowed reports whether gitleaks' global allowlist skips the file
// at path (pack-relative, with slashes): images, fonts, lock files, vendored
// dependencies.
func (s *Set) PathAllowed(path string) bool {
	return path != "" && anyMatch(s.global.paths, path)
}

// Find returns the first rule that finds a secret in text, a file at path
// ("" when unknown), or nil. text is decoded already (see Decoded). seen is
// how many of text's first bytes the previous call (on the text before
// this one, of which they are the end) saw: the windows that lay wholly in
// them are not run again.
//
// As gitleaks, a rule runs only on text that holds one of its keywords
// (case-insensitive); where its matches always hold a keyword, only on the
// windows around the keywords that its expression's shape allows (merged
// per rule: a rule runs at most once over any byte), else on the whole
// text. Find returns ErrBudget, and nothing else, once sc's work passes its
// budget.
func (s *Set) Find(text []byte, seen int, path string, sc *Scratch) (*Rule, error) {
	return s.find(text, seen, nil, path, sc)
}

// find is Find; when only is not nil (the parts of text a decoding pass
// decoded, in order), only for the matches that touch one of them.
func (s *Set) find(text []byte, seen int, only []region, path string, sc *Scratch) (*Rule, error) {
	if len(text) < 2 || s.PathAllowed(path) {
		return nil, nil
	}
	if len(sc.regions) != len(s.Rules) {
		sc.regions = make([][]region, len(s.Rules))
	}
	if len(sc.off) != len(s.Rules) {
		sc.off = make([]bool, len(s.Rules))
	}
	for i, r := range s.Rules {
		sc.regions[i] = sc.regions[i][:0]
		sc.off[i] = !r.appliesTo(path)
	}
	any := false
	lineStart, lineEnd := 0, -1 // lineEnd: the current line's newline (or len(text)), once needed
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\n' {
			lineStart, lineEnd = i+1, -1
			continue
		}
		pair := uint16(lowerByte[text[i]])<<8 | uint16(lowerByte[text[i+1]])
		if s.pairs[pair>>6]&(1<<(pair&63)) == 0 {
			continue
		}
		for _, k := range s.byPair[s.pairIdx[pair]] {
			kw := s.keywords[k]
			if !hasPrefixFold(text[i:], kw) {
				continue
			}
			any = true
			for _, ri := range s.kwRules[k] {
				if sc.off[ri] {
					continue // a rule of other files (kubernetes-secret-yaml: .yaml) costs nothing
				}
				sh := &s.Rules[ri].shape
				rs := sc.regions[ri]
				if !sh.opens(text, i) {
					continue
				}
				if !sh.contained {
					if len(rs) == 0 {
						sc.regions[ri] = append(rs, region{0, len(text)})
					}
					continue
				}
				if len(sh.near) > 0 {
					lineEnd = endOfLine(text, i, lineEnd)
					near := text[i:min(lineEnd, i+sh.nearWidth+margin)]
					if sc.charge(int64(len(near) * len(sh.near))) {
						return nil, ErrBudget
					}
					if !holdsAll(near, sh.near) {
						continue
					}
				}
				start, end := i-sh.before-margin, i+sh.after+margin
				if sh.lineBefore >= 0 {
					start = max(start, lineStart-sh.lineBefore-margin)
				}
				if sh.lineAfter >= 0 {
					lineEnd = endOfLine(text, i, lineEnd)
					end = min(end, lineEnd+sh.lineAfter+margin)
				}
				if end <= seen {
					continue // run by the previous call
				}
				start, end = max(start, 0), min(end, len(text))
				if only != nil && !touches(only, start, end) {
					continue
				}
				if w := text[start:end]; (sh.run != nil || len(sh.literals) > 0) && len(w) <= maxOwnCheck {
					// A narrow window is checked on its own, before it
					// merges with others: a keyword as frequent as "s." in
					// JavaScript or "EAAC" in a source map then gives the
					// expression only the windows that could hold a match.
					if sc.charge(int64(len(w) * (1 + len(sh.literals)))) {
						return nil, ErrBudget
					}
					if sh.run != nil && !hasRun(w, sh.run, sh.minRun) || !holdsAll(w, sh.literals) {
						continue
					}
				}
				if n := len(rs); n > 0 && start <= rs[n-1].end {
					rs[n-1].end = max(rs[n-1].end, end)
				} else {
					sc.regions[ri] = append(rs, region{start, end})
				}
			}
		}
	}
	if !any {
		return nil, nil
	}
	for ri, rs := range sc.regions {
		r := s.Rules[ri]
		sh := &r.shape
		for _, g := range rs {
			w := text[g.start:g.end]
			if sh.run != nil || len(sh.literals) > 0 {
				if sc.charge(int64(len(w) * (1 + len(sh.literals)))) {
					return nil, ErrBudget
				}
				if sh.run != nil && !hasRun(w, sh.run, sh.minRun) {
					continue
				}
				if !holdsAll(w, sh.literals) {
					continue
				}
			}
			if sc.charge(int64(len(w)) * r.cost) {
				return nil, ErrBudget
			}
			if r.finds(text, g, only, path, &s.global) {
				return r, nil
			}
		}
	}
	return nil, nil
}

// maxOwnCheck is the widest window checked for its rule's run and literals
// on its own (find).
const maxOwnCheck = 1024

// endOfLine is the index of the newline that ends the line of text[i]
// (len(text) when none), or known when it is known already (not -1).
func endOfLine(text []byte, i, known int) int {
	if known >= 0 {
		return known
	}
	if e := bytes.IndexByte(text[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(text)
}

// progSize is the number of instructions of expr's program.
func progSize(expr string) (int64, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0, err
	}
	p, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0, err
	}
	return int64(len(p.Inst)), nil
}

// charge adds work and reports whether it passes the budget.
func (sc *Scratch) charge(work int64) bool {
	sc.Work += work
	return sc.Budget > 0 && sc.Work > sc.Budget
}

// touches reports whether [start, end] touches one of regions (in order),
// as gitleaks' startEnd.overlaps.
func touches(regions []region, start, end int) bool {
	i := sort.Search(len(regions), func(i int) bool { return regions[i].end >= start })
	return i < len(regions) && regions[i].start <= end
}

// appliesTo reports whether the rule runs on the file at path: its path
// expression matches, and none of its allowlists skips the path alone.
func (r *Rule) appliesTo(path string) bool {
	if r.path != nil && (path == "" || !r.path.MatchString(path)) {
		return false
	}
	for _, a := range r.allow {
		if path != "" && !a.and && anyMatch(a.paths, path) {
			return false
		}
	}
	return true
}

// finds runs the rule on text[g.start:g.end] as gitleaks does (only: see
// find).
func (r *Rule) finds(text []byte, g region, only []region, path string, global *allowlist) bool {
	w := text[g.start:g.end]
	for _, m := range r.re.FindAllIndex(w, -1) {
		if only != nil && !touches(only, g.start+m[0], g.start+m[1]) {
			continue
		}
		match := strings.Trim(string(w[m[0]:m[1]]), "\n")
		secret := match
		if groups := r.re.FindStringSubmatch(match); len(groups) >= 2 {
			if r.secretGroup > 0 {
				if len(groups) <= r.secretGroup {
					continue
				}
				secret = groups[r.secretGroup]
			} else {
				for _, g := range groups[1:] {
					if g != "" {
						secret = g
						break
					}
				}
			}
		}
		if r.entropy != 0 && entropy(secret) <= r.entropy {
			continue
		}
		if r.check != nil && !r.check(secret) {
			continue
		}
		line := lineOf(text, g.start+m[0], g.start+m[0]+len(match))
		if global.allows(secret, match, line, path) {
			continue
		}
		allowed := false
		for i := range r.allow {
			if r.allow[i].allows(secret, match, line, path) {
				allowed = true
				break
			}
		}
		if !allowed {
			return true
		}
	}
	return false
}

// allows is gitleaks' checkFindingAllowed for one allowlist.
func (a *allowlist) allows(secret, match, line, path string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	regexOK := target != "" && anyMatch(a.regexes, target)
	stopOK := false
	if secret != "" && len(a.stop) > 0 {
		ls := strings.ToLower(secret)
		for _, w := range a.stop {
			if strings.Contains(ls, w) {
				stopOK = true
				break
			}
		}
	}
	if !a.and {
		return regexOK || stopOK
	}
	var checks []bool
	if len(a.paths) > 0 {
		checks = append(checks, path != "" && anyMatch(a.paths, path))
	}
	if len(a.regexes) > 0 {
		checks = append(checks, regexOK)
	}
	if len(a.stop) > 0 {
		checks = append(checks, stopOK)
	}
	for _, c := range checks {
		if !c {
			return false
		}
	}
	return true
}

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// lineOf is the line (or lines) of text holding text[start:end].
func lineOf(text []byte, start, end int) string {
	ls := bytes.LastIndexByte(text[:start], '\n') + 1
	le := bytes.IndexByte(text[end:], '\n')
	if le < 0 {
		return string(text[ls:])
	}
	return string(text[ls : end+le])
}

// entropy is the Shannon entropy of s's characters, in bits.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	inv := 1 / float64(len(s))
	var e float64
	for _, n := range counts {
		f := float64(n) * inv
		e -= f * math.Log2(f)
	}
	return e
}

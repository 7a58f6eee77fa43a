// Package leaks finds credentials in text with gitleaks' default rule set
// (gitleaks.toml of gitleaks v8.30.1, MIT licensed: LICENSE.gitleaks), and a
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
	_ "embed"
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

//go:embed gitleaks.toml
var gitleaksTOML string

// GitleaksVersion is the gitleaks release gitleaks.toml comes from;
// GitleaksSHA256 its digest (a test holds the file to it: update both
// together, from that release's config/gitleaks.toml).
const (
	GitleaksVersion = "v8.30.1"
	GitleaksSHA256  = "e163e53b9e7e8a8511e77271e2b323ed057759542a6d988258afe3a1fa329caf"
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
	longToken       bool                     // its secret is a run of 16 or more tokenChar: regions without one are passed
}

// longTokenRules are the rules with a keyword of 2 to 4 bytes, which text
// holds everywhere ("s." in code, "ey" in English, "sk" in "task"), whose
// expressions only match a run of 16 or more tokenChar (checked by reading
// each one). A region without such a run is not given to the expression:
// most of the time a scan of text would otherwise spend.
var longTokenRules = [...]string{
	"vault-service-token", "jwt", "twilio-api-key", "azure-ad-client-secret", "1password-secret-key",
	"sendgrid-api-token", "huggingface-access-token", "octopus-deploy-api-key", "flyio-access-token",
	"authress-service-client-access-key", "harness-api-key", "lob-pub-api-key",
}

// tokenRun reports whether b holds n or more tokenChar in a row.
func tokenRun(b []byte, n int) bool {
	run := 0
	for _, c := range b {
		if tokenChar[c] {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
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
	once.Do(func() { set, setErr = compile(gitleaksTOML, ownRules) })
	return set, setErr
}

func compile(data string, own []fileRule) (*Set, error) {
	fillTables()
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
		r := &Rule{ID: fr.ID, Description: fr.Description, secretGroup: fr.SecretGroup, entropy: fr.Entropy, longToken: slices.Contains(longTokenRules[:], fr.ID)}
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

// Scratch is the memory one scan reuses from window to window.
type Scratch struct {
	regions [][]region // by rule: where its keywords are
}

// lowerByte maps ASCII capitals to small letters, other bytes to
// themselves; tokenChar are the bytes of the runs credentials are made of.
// Both are filled by compile (nothing runs at start-up).
var (
	lowerByte [256]byte
	tokenChar [256]bool
)

func fillTables() {
	for c := range 256 {
		lowerByte[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			lowerByte[c] = byte(c) + 'a' - 'A'
		}
		tokenChar[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-+/=.~", byte(c)) >= 0
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

// region is a part of a window a rule's expression runs on.
type region struct{ start, end int }

// Regions around a keyword: back to the start of its line (at most
// lookBack bytes), on to the end of the line (at most lookAhead bytes);
// for a PEM block's keyword, on over lines (pemAhead). A rule's expression
// runs on these, not on the whole window: gitleaks' rules hold their
// keyword, and a window of random bytes or of text full of a short keyword
// ("s.", "ey", "sk") would otherwise cost a full regular expression pass
// per rule.
const (
	lookBack  = 64
	lookAhead = 4096
	pemAhead  = 64 << 10
)

// PathAllowed reports whether gitleaks' global allowlist skips the file
// at path (pack-relative, with slashes): images, fonts, lock files, vendored
// dependencies.
func (s *Set) PathAllowed(path string) bool {
	return path != "" && anyMatch(s.global.paths, path)
}

// Find returns the first rule that finds a secret in text, a file at path
// ("" when unknown), or nil. text is decoded already (see Decoded).
func (s *Set) Find(text []byte, path string, sc *Scratch) *Rule {
	if len(text) < 2 || s.PathAllowed(path) {
		return nil
	}
	if len(sc.regions) != len(s.Rules) {
		sc.regions = make([][]region, len(s.Rules))
	}
	for i := range sc.regions {
		sc.regions[i] = sc.regions[i][:0]
	}
	any := false
	lineStart := 0
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '\n' {
			lineStart = i + 1
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
			start := max(lineStart, i-lookBack)
			var end int
			if strings.HasPrefix(kw, "-----") {
				end = min(len(text), i+pemAhead)
			} else {
				end = min(len(text), i+len(kw)+lookAhead)
				if nl := bytes.IndexByte(text[i+len(kw):end], '\n'); nl >= 0 {
					end = i + len(kw) + nl + 1
				}
			}
			for _, r := range s.kwRules[k] {
				rs := sc.regions[r]
				if n := len(rs); n > 0 && start <= rs[n-1].end {
					rs[n-1].end = max(rs[n-1].end, end)
				} else {
					sc.regions[r] = append(rs, region{start, end})
				}
			}
		}
	}
	if !any {
		return nil
	}
	for ri, rs := range sc.regions {
		long := s.Rules[ri].longToken
		for _, g := range rs {
			if long && !tokenRun(text[g.start:g.end], 16) {
				continue
			}
			if s.Rules[ri].finds(text[g.start:g.end], path, &s.global) {
				return s.Rules[ri]
			}
		}
	}
	return nil
}

// finds runs the rule on text as gitleaks does.
func (r *Rule) finds(text []byte, path string, global *allowlist) bool {
	if r.path != nil && (path == "" || !r.path.MatchString(path)) {
		return false
	}
	for _, a := range r.allow {
		if path != "" && !a.and && anyMatch(a.paths, path) {
			return false
		}
	}
	for _, m := range r.re.FindAllIndex(text, -1) {
		match := strings.Trim(string(text[m[0]:m[1]]), "\n")
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
		line := lineOf(text, m[0], m[0]+len(match))
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

// The rules of wopkit's own, for credentials gitleaks v8.30.1 has no rule
// for (each written like its rules: a keyword, a regular expression, the
// secret's group and entropy).
const (
	ownCheckedURL    = "wopkit-url-password"
	ownCheckedDocker = "wopkit-docker-config-auth"
)

var ownRules = []fileRule{
	{ID: "wopkit-openai-scoped-key", Description: "an OpenAI service-account or admin API key",
		Regex: `\b(sk-(?:svcacct|admin)-[A-Za-z0-9_-]{20,})`, Keywords: []string{"sk-svcacct-", "sk-admin-"}, Entropy: 3.5},
	{ID: "wopkit-dockerhub-pat", Description: "a Docker Hub access token",
		Regex: `\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,})`, Keywords: []string{"dckr_pat_", "dckr_oat_"}, Entropy: 3},
	{ID: ownCheckedDocker, Description: "a registry credential in a Docker config.json (auths.*.auth)",
		Regex: `"auth"\s*:\s*"([A-Za-z0-9+/]{6,}={0,2})"`, Keywords: []string{`"auth"`}},
	{ID: "wopkit-stripe-webhook-secret", Description: "a Stripe webhook signing secret",
		Regex: `\b(whsec_[A-Za-z0-9+/=]{24,})`, Keywords: []string{"whsec_"}, Entropy: 3},
	{ID: "wopkit-gcp-oauth-client-secret", Description: "a Google OAuth client secret",
		Regex: `\b(GOCSPX-[A-Za-z0-9_-]{28})\b`, Keywords: []string{"gocspx-"}, Entropy: 3},
	{ID: "wopkit-azure-storage-account-key", Description: "an Azure storage account key",
		Regex: `(?i)AccountKey\s*=\s*([A-Za-z0-9+/]{86}==)`, Keywords: []string{"accountkey"}, Entropy: 4},
	{ID: "wopkit-wireguard-private-key", Description: "a WireGuard private key",
		Regex: `(?im)^\s*PrivateKey\s*=\s*([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)`, Keywords: []string{"privatekey"}, Entropy: 3},
	{ID: ownCheckedURL, Description: "a password in a URL (scheme://user:password@host)",
		Regex: `(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/?#@'"\x60<>]{1,64}:([^\s/?#@'"\x60<>]{3,128})@[a-z0-9][a-z0-9.-]*`, Keywords: []string{"://"}},
}

// placeholders are words documentation puts where a password goes.
var placeholders = []string{"password", "passwd", "pass", "pwd", "secret", "token", "changeme", "example", "xxx", "***", "..."}

// urlPassword: a URL's password that is not a placeholder or a reference
// (${VAR}, {{var}}, <password>, %s, :port numbers are no password).
func urlPassword(secret string) bool {
	if strings.ContainsAny(secret, "${}<>%*") {
		return false
	}
	l := strings.ToLower(secret)
	for _, p := range placeholders {
		if l == p || strings.Trim(l, p) == "" {
			return false
		}
	}
	return entropy(secret) > 3 // "postgres" (2.75) in a documented compose file is an example, not a secret
}

// dockerAuth: the auth value is base64 of user:password.
func dockerAuth(secret string) bool {
	b, err := base64.StdEncoding.DecodeString(secret)
	if err != nil {
		return false
	}
	user, pass, ok := strings.Cut(string(b), ":")
	return ok && user != "" && pass != ""
}

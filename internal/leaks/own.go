package leaks

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// wopkit's own secret rules, all of them, for what gitleaks' rules lack:
// regular expressions run as gitleaks' are (ownRules, below), and marker
// rules checked by hand on each window of a stream (scanRules: token
// formats wider than gitleaks', .npmrc settings, AWS secret keys after
// their name, PEM and PuTTY private keys, a base64-encoded PEM key).
// internal/pack runs both, and adds what reads a whole file (DER, PKCS#12,
// JSON Web Keys).

// Window is one window of a stream, for the marker rules: B, the byte
// before it (0 at the start), and whether B ends the stream. A check that would need bytes
// past b decides nothing until the stream ends: its marker lies in the
// bytes carried into the next window.
type Window struct {
	B      []byte
	Before byte
	EOF    bool
}

func (s *Window) prev(i int) byte {
	if i > 0 {
		return s.B[i-1]
	}
	return s.Before
}

// scanRule is a marker and the check of what follows it.
type scanRule struct {
	marker string
	anchor int                           // index in marker of its scanAnchors byte
	check  func(s *Window, i int) string // what b[i:] holds (marker included), or ""
}

// scanAnchors are the bytes the scan searches for; every marker holds one.
const scanAnchors = "_-AL"

// scanRules are the secrets recognised anywhere in a file, for what
// gitleaks' rules lack (their token formats are theirs: internal/leaks):
// token formats wider than gitleaks' (GitHub fine-grained tokens of any
// length, OpenAI keys without gitleaks' T3BlbkFJ marker, Hugging Face
// tokens with digits), npm's .npmrc settings, AWS secret keys after their
// name alone, and any PEM or PuTTY private key however short.
var scanRules = []scanRule{
	tokenRule("github_pat_", "a GitHub fine-grained personal access token", alnumUnderscore, 60, 255),
	tokenRule("sk-proj-", "an OpenAI project API key", googleChar, 40, 255),
	tokenRule("sk-", "an OpenAI API key", alnum, 48, 48), // the legacy form; sk-proj- stops at its "-"
	tokenRule("hf_", "a Hugging Face access token", alnum, 34, 34),
	// npm's .npmrc: //registry/:_authToken=VALUE (any value but an
	// environment reference such as ${NPM_TOKEN}), and the legacy _auth
	// (base64 of user:password) and _password (base64) settings.
	{marker: "_authToken", check: npmSetting("_authToken", "an npm auth token (_authToken)", false)},
	{marker: "_auth", check: npmSetting("_auth", "an npm basic-auth credential (_auth)", true)},
	{marker: "_password", check: npmSetting("_password", "an npm registry password (_password)", true)},
	// An AWS secret access key after its name (credentials file,
	// environment, SDK configuration or the CLI's JSON), even alone.
	{marker: "aws_secret_access_key", anchor: 3, check: awsSecret},
	{marker: "AWS_SECRET_ACCESS_KEY", anchor: 3, check: awsSecret},
	{marker: "SecretAccessKey", anchor: 6, check: awsSecret},
	{marker: "secretAccessKey", anchor: 6, check: awsSecret},
	{marker: "-----BEGIN ", check: pemPrivate},
	{marker: "PuTTY-User-Key-File-", anchor: 5, check: func(*Window, int) string { return "a PuTTY private key" }},
	// base64 of "-----BEGIN", as kubeconfig's client-key-data holds a key.
	{marker: "LS0tLS1CRUdJTi", check: base64PEM},
}

// scanIndex dispatches a hit on an anchor byte to the rules that may match
// there, by the byte before the anchor (or, for a marker that starts with
// its anchor, the byte after it): most hits concern no rule at all.
var scanIndex = func() (idx [len(scanAnchors)]struct{ before, after [256][]*scanRule }) {
	for i := range scanRules {
		r := &scanRules[i]
		if r.anchor == 0 {
			r.anchor = strings.IndexAny(r.marker, scanAnchors)
		}
		if r.anchor < 0 || len(r.marker) < 2 || strings.IndexByte(scanAnchors, r.marker[r.anchor]) < 0 {
			panic("leaks: marker rule " + r.marker + " has no anchor byte")
		}
		a := strings.IndexByte(scanAnchors, r.marker[r.anchor])
		if r.anchor > 0 {
			c := r.marker[r.anchor-1]
			idx[a].before[c] = append(idx[a].before[c], r)
		} else {
			c := r.marker[1]
			idx[a].after[c] = append(idx[a].after[c], r)
		}
	}
	return idx
}()

// Find names the first secret the marker rules find in s.B, or "".
func (s *Window) Find() string {
	b := s.B
	for a := range len(scanAnchors) {
		c := scanAnchors[a]
		for k := bytes.IndexByte(b, c); k >= 0; {
			if k > 0 {
				if what := s.match(scanIndex[a].before[b[k-1]], k); what != "" {
					return what
				}
			}
			if k+1 < len(b) {
				if what := s.match(scanIndex[a].after[b[k+1]], k); what != "" {
					return what
				}
			}
			j := bytes.IndexByte(b[k+1:], c)
			if j < 0 {
				break
			}
			k += j + 1
		}
	}
	return ""
}

// match checks the rules whose anchor byte is at b[k].
func (s *Window) match(rules []*scanRule, k int) string {
	for _, r := range rules {
		i := k - r.anchor
		if i >= 0 && i+len(r.marker) <= len(s.B) && string(s.B[i:i+len(r.marker)]) == r.marker {
			if what := r.check(s, i); what != "" {
				return what
			}
		}
	}
	return ""
}

func upperDigit(c byte) bool      { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') }
func alnum(c byte) bool           { return upperDigit(c) || (c >= 'a' && c <= 'z') }
func alnumUnderscore(c byte) bool { return alnum(c) || c == '_' }
func googleChar(c byte) bool      { return alnum(c) || c == '-' || c == '_' }
func base64Char(c byte) bool      { return alnum(c) || c == '+' || c == '/' }

// tokenRule is a credential format: prefix, then a run of characters of
// set of a length in [minN, maxN], not preceded by a letter, digit or "_"
// nor followed by another character of set, and not a placeholder.
func tokenRule(prefix, what string, set func(byte) bool, minN, maxN int) scanRule {
	return scanRule{marker: prefix, check: func(s *Window, i int) string {
		if alnumUnderscore(s.prev(i)) {
			return "" // inside a longer word
		}
		body, ok := s.run(i+len(prefix), set, maxN+1)
		if !ok || len(body) < minN || len(body) > maxN || placeholder(body) {
			return ""
		}
		return what
	}}
}

// run returns the bytes of set from b[j] on, at most limit of them; ok is
// false when the run reaches the end of a window that is not the last.
func (s *Window) run(j int, set func(byte) bool, limit int) (run []byte, ok bool) {
	e := j
	for e < len(s.B) && e-j < limit && set(s.B[e]) {
		e++
	}
	return s.B[j:e], e < len(s.B) || s.EOF
}

// placeholder tells a documentation value from a credential: AWS's
// "EXAMPLE" keys, and runs of fewer than 8 distinct characters
// ("xxxxxxxx", "XXXX-XXXX-...").
func placeholder(v []byte) bool {
	if bytes.Contains(v, []byte("EXAMPLE")) {
		return true
	}
	var seen [256]bool
	n := 0
	for _, c := range v {
		if !seen[c] {
			seen[c] = true
			if n++; n == 8 {
				return false
			}
		}
	}
	return true
}

// value returns what follows a key name at b[j]: spaces and quotes, the
// separator (one of seps), spaces and quotes; ok as for run.
func (s *Window) value(j int, seps string) (at int, ok bool) {
	skip := func(j int) int { // at most 64 bytes: the check stays within the bytes carried over
		for e := min(len(s.B), j+64); j < e && strings.IndexByte(" \t\"'", s.B[j]) >= 0; {
			j++
		}
		return j
	}
	j = skip(j)
	if j == len(s.B) {
		return 0, false
	}
	if strings.IndexByte(seps, s.B[j]) < 0 {
		return -1, true
	}
	j = skip(j + 1)
	return j, j < len(s.B) || s.EOF
}

// npmSetting checks an .npmrc setting key=VALUE. strict: the key starts a
// line or follows a registry scope's ":" and VALUE is base64.
func npmSetting(key, what string, strict bool) func(s *Window, i int) string {
	return func(s *Window, i int) string {
		if strict && !strings.ContainsRune("\x00\n\r\t :", rune(s.prev(i))) {
			return ""
		}
		j, ok := s.value(i+len(key), "=")
		if !ok || j < 0 || j == len(s.B) {
			return ""
		}
		v := s.B[j:]
		switch {
		case v[0] == '\n' || v[0] == '\r' || bytes.HasPrefix(v, []byte("${")):
			return ""
		case strict:
			if run, ok := s.run(j, func(c byte) bool { return base64Char(c) || c == '=' }, 64); !ok || len(run) < 4 || placeholder(run) {
				return ""
			}
		}
		return what
	}
}

// awsSecret checks for a 40-character AWS secret access key after its name.
func awsSecret(s *Window, i int) string {
	k := i
	for k < len(s.B) && (alnumUnderscore(s.B[k])) {
		k++ // the marker and the rest of the name
	}
	j, ok := s.value(k, "=:")
	if !ok || j < 0 {
		return ""
	}
	v, ok := s.run(j, base64Char, 41)
	if !ok || len(v) != 40 || placeholder(v) {
		return ""
	}
	if e := j + 40; e < len(s.B) && s.B[e] == '=' {
		return "" // longer base64, not a key
	}
	return "an AWS secret access key"
}

// pemPrivate checks a PEM "-----BEGIN <label>" line for a private key
// ("RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY",
// "PGP PRIVATE KEY BLOCK") whose body could be one (pemBody): a
// documentation placeholder ("<KEY>", "...", "YOUR_KEY_HERE") is none.
func pemPrivate(s *Window, i int) string {
	j := i + len("-----BEGIN ")
	w := s.B[j:min(len(s.B), j+40)]
	k := bytes.Index(w, []byte("PRIVATE KEY"))
	if k < 0 {
		return ""
	}
	label := w[:k+len("PRIVATE KEY")]
	if bytes.ContainsAny(label, "\n-") {
		return ""
	}
	if !s.pemBody(j + len(label)) {
		return ""
	}
	return "a PEM " + string(label) + " block"
}

// minPEMBody is the least base64 a private key's PEM body holds (the
// smallest, an Ed25519 PKCS#8 key, has 64; gitleaks' private-key rule asks
// for 64 characters too); maxPEMBody how far the body is read for them;
// maxPEMGap the most bytes before the body's first line (headers such as
// DEK-Info, a string's quotes and escapes) and between two of its lines.
const (
	minPEMBody = 64
	maxPEMBody = 4 << 10
	maxPEMGap  = 160
)

// pemBody reports whether the PEM body after its header's label at b[j:]
// could be a key: it starts, within maxPEMGap bytes, with a line of 40 or
// more base64 characters (PEM's lines are 64), and holds minPEMBody of them
// in lines of 16 or more, each within maxPEMGap of the last, before its
// END line. A placeholder ("<KEY>", "...", "YOUR_KEY_HERE") or the code
// around a truncated key is no body. Undecided (false) until the stream
// ends when the body reaches past the window: the header is then in the
// bytes carried into the next.
func (s *Window) pemBody(j int) bool {
	e := min(len(s.B), j+maxPEMBody)
	if k := bytes.Index(s.B[j:min(e, j+16)], []byte("-----")); k >= 0 {
		j += k + len("-----") // the header's closing dashes
	}
	n, run, last := 0, 0, j
	for ; j < e; j++ {
		c := s.B[j]
		if base64Char(c) {
			run++
			continue
		}
		if run >= 40 || n > 0 && run >= 16 {
			n, last = n+run, j
		}
		run = 0
		if n >= minPEMBody {
			return true
		}
		if j-last > maxPEMGap || c == '-' && bytes.HasPrefix(s.B[j:], []byte("-----")) {
			return false // no more body: a gap, or the END line
		}
	}
	if run >= 40 || n > 0 && run >= 16 {
		n += run
	}
	return n >= minPEMBody
}

// base64PEM decodes the base64 text at b[i:] and checks it for a PEM
// private key.
func base64PEM(s *Window, i int) string {
	run, ok := s.run(i, base64Char, 256)
	if !ok {
		return ""
	}
	dec := make([]byte, 192) // the header and the first of the body
	n, _ := base64.StdEncoding.Decode(dec, run[:len(run)/4*4])
	if what := pemPrivate(&Window{B: dec[:n], EOF: true}, 0); what != "" {
		return "a base64-encoded " + strings.TrimPrefix(what, "a ")
	}
	return ""
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
		Regex: `(?im)^[ \t]*PrivateKey[ \t]*=[ \t]*([A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)`, Keywords: []string{"privatekey"}, Entropy: 3},
	{ID: ownCheckedURL, Description: "a password in a URL (scheme://user:password@host)",
		Regex: `(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/?#@'"\x60<>]{1,64}:([^\s/?#@'"\x60<>]{3,128})@[a-z0-9]`, Keywords: []string{"://"}},
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

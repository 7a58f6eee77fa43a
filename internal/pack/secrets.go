package pack

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"path"
	"strings"

	"github.com/openwop/wopkit/internal/leaks"
)

// forbiddenReason says why a pack-relative path may never be packed, or "".
func forbiddenReason(rel string) string {
	for _, seg := range strings.Split(rel, "/") {
		switch seg {
		case ".git", ".hg", ".svn":
			return "version-control data"
		case "node_modules":
			return "a node_modules directory"
		}
	}
	base := path.Base(rel)
	switch base {
	case "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
		"Cargo.lock", "poetry.lock", "Pipfile.lock", "Gemfile.lock", "composer.lock", "deno.lock", "uv.lock":
		return "a lock file"
	}
	if base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") {
		return "an environment file (" + base + ")"
	}
	switch base {
	case ".envrc":
		return "a direnv environment file (.envrc)"
	case ".netrc", "_netrc", ".git-credentials", ".pgpass", ".pypirc":
		return "a credentials file (" + base + ")"
	}
	return ""
}

// maxDERSniff is the largest file sniffed as a binary (DER) private key;
// maxJWKSniff the largest sniffed as a JSON Web Key or a PKCS#12 key store.
const (
	maxDERSniff = 16 << 10
	maxJWKSniff = 1 << 20
)

// scanPrivateKey reports what secret r holds (never the secret itself), or
// "" when none. It streams in bounded memory, one pass per scanAnchors byte
// over each chunk: the markers of scanRules anywhere (PEM and PuTTY keys,
// a base64-encoded PEM key, token formats, credentials after their key
// name); a file that starts with a DER PKCS#8, PKCS#1 or SEC1 key (up to
// 16 KiB, trailing bytes such as a newline allowed) or a PKCS#12 key store
// that is not clearly password-protected (pfxSecret, up to 1 MiB); a JSON
// file (up to 1 MiB) holding a private JSON Web Key (a "d" member).
func scanPrivateKey(r io.Reader) (string, error) { return scanSecrets(r, "", newScanBudget()) }

// scanSecrets is scanPrivateKey for the file at rel (pack-relative, with
// slashes; "" when unknown), which also runs gitleaks' rules (internal/leaks)
// on each window and on its decoded readings (UTF-16, JSON escapes), and
// scanRules on those readings too. b is the work budget, of this file
// alone: ErrScanBudget once it is used up.
func scanSecrets(r io.Reader, rel string, b *scanBudget) (string, error) {
	const chunk = 256 << 10
	const keep = 8 << 10 // longer than any marker and what its check reads after it, and than most rules' windows
	rules, err := leaks.Default()
	if err != nil {
		return "", err
	}
	var dbuf [2][]byte
	sc := &b.sc
	b.bytes, sc.Work = 0, 0
	b.grant(0)
	buf := make([]byte, 0, chunk+keep)
	var head []byte // the first maxJWKSniff+1 bytes
	s := &scanBuf{}
	for {
		carried := len(buf)
		n, err := io.ReadFull(r, buf[carried:cap(buf)])
		buf = buf[:carried+n]
		if len(head) <= maxJWKSniff {
			head = append(head, buf[carried:carried+min(n, maxJWKSniff+1-len(head))]...)
		}
		s.b, s.eof = buf, err != nil
		b.grant(int64(n))
		if what := s.find(); what != "" {
			return what, nil
		}
		if what, err := findLeak(rules, sc, buf, carried, rel, true); what != "" || err != nil {
			return what, err
		}
		for _, d := range leaks.Decoded(buf, &dbuf) {
			if what := (&scanBuf{b: d, eof: s.eof}).find(); what != "" {
				return what + " (" + decodedAs(d, &dbuf) + ")", nil
			}
			if what, err := findLeak(rules, sc, d, 0, rel, decodedAs(d, &dbuf) == "in UTF-16 text"); what != "" || err != nil {
				return what + " (" + decodedAs(d, &dbuf) + ")", err
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return "", err
		}
		cut := encodedStart(buf, len(buf)-min(keep, len(buf)))
		if cut > 0 {
			s.before = buf[cut-1]
		}
		buf = append(buf[:0], buf[cut:]...)
	}
	if der := derPrefix(head, maxDERSniff); der != nil {
		if _, err := x509.ParsePKCS8PrivateKey(der); err == nil {
			return "a DER PKCS#8 private key", nil
		}
		if _, err := x509.ParsePKCS1PrivateKey(der); err == nil {
			return "a DER PKCS#1 RSA private key", nil
		}
		if _, err := x509.ParseECPrivateKey(der); err == nil {
			return "a DER EC private key", nil
		}
	}
	if der := derPrefix(head, maxJWKSniff); der != nil {
		if what := pfxSecret(der); what != "" {
			return what, nil
		}
	}
	if len(head) <= maxJWKSniff && privateJWK(head) {
		return `a private JSON Web Key (a "d" member)`, nil
	}
	return "", nil
}

// maxCarry bounds the encoded run carried whole into the next window.
const maxCarry = 64 << 10

// encodedStart moves the start of the next window, cut, back to the start
// of the encoded run (base64 or hex, gitleaks' [\w/+-]) it falls in, so that
// the run is decoded from its real start, not from the middle and off its
// grid of 4 characters (which decodes to noise and hid a token there); a
// run longer than maxCarry is cut on its grid instead. The window before
// ended its run where the window ended: what it decoded was a prefix.
func encodedStart(buf []byte, cut int) int {
	if cut <= 0 || cut >= len(buf) || !encodedByte(buf[cut-1]) || !encodedByte(buf[cut]) {
		return cut
	}
	start := cut - 1
	for start > 0 && encodedByte(buf[start-1]) {
		start--
	}
	if cut-start <= maxCarry {
		return start
	}
	return cut - (cut-start)%4
}

// encodedByte is a byte of gitleaks' base64 class, which holds hex's.
func encodedByte(c byte) bool { return alnumUnderscore(c) || c == '/' || c == '+' || c == '-' }

// findLeak names what a gitleaks rule (or one of leaks' own) finds in
// text, or "": when decode, in its decodings too (leaks.Set.FindDecoding;
// not for the reading behind JSON escapes, whose \u escapes gitleaks'
// decoding reads already).
func findLeak(rules *leaks.Set, sc *leaks.Scratch, text []byte, seen int, rel string, decode bool) (string, error) {
	var r *leaks.Rule
	var depth int
	var err error
	if decode {
		r, depth, err = rules.FindDecoding(text, seen, rel, sc)
	} else {
		r, err = rules.Find(text, seen, rel, sc)
	}
	decoded := ""
	if depth > 0 {
		decoded = " (encoded: percent, unicode, hex or base64, as gitleaks decodes)"
	}
	switch {
	case err != nil:
		return "", ErrScanBudget
	case r == nil:
		return "", nil
	case strings.HasPrefix(r.ID, "wopkit-"):
		return r.Description + decoded, nil
	}
	return "a credential (gitleaks rule " + r.ID + ")" + decoded, nil
}

// ErrScanBudget is scanSecrets' error when the pack's scan budget is used
// up (see scanBudget).
var ErrScanBudget = errors.New("the secret scan's work budget is used up")

// The secret scan's work budget for one file, counted as leaks.Scratch
// counts: scanBudgetBase, and scanBudgetPerByte more for each byte read.
// The scan is linear in its input: each rule's expression runs at most
// once over a byte, a rule only on the windows its keywords open, and the
// dearest byte costs the sum of the rules' program sizes (about 1,200: a
// file made of every rule's keywords, 2 MiB of which take 1.4 to 2 s).
// Measured over real code (Go's sources, the module cache, npm packages:
// TestScanRealCode, docs/SECURITY.md), no file of 64 KiB or more costs
// more than 590 a byte and no smaller one more than 9.2 M: the budget is
// ten times both, so that no real file comes near it; it remains the guard
// that refuses (naming it) a file the scan could not finish.
var (
	scanBudgetBase    int64 = 128 << 20
	scanBudgetPerByte int64 = 6000
)

// scanBudget is the scan budget of the file being scanned (and the memory
// the scans of a pack's files reuse).
type scanBudget struct {
	sc      leaks.Scratch
	bytes   int64
	bounded bool // false: no budget (measurements)
	spent   bool // refused once: the pack's other files are not scanned
}

func newScanBudget() *scanBudget {
	b := &scanBudget{bounded: true}
	b.sc.Budget = scanBudgetBase
	return b
}

// grant adds what n more bytes read allow.
func (b *scanBudget) grant(n int64) {
	b.bytes += n
	if b.bounded {
		b.sc.Budget = scanBudgetBase + b.bytes*scanBudgetPerByte
	}
}

// decodedAs says which reading of a window d is.
func decodedAs(d []byte, dbuf *[2][]byte) string {
	if len(dbuf[0]) > 0 && &d[0] == &dbuf[0][0] {
		return "in UTF-16 text"
	}
	return "behind JSON escapes"
}

// scanBuf is one window of the stream: b, the byte before it (0 at the
// start), and whether b ends the stream. A check that would need bytes
// past b decides nothing until the stream ends: its marker lies in the
// bytes carried into the next window.
type scanBuf struct {
	b      []byte
	before byte
	eof    bool
}

func (s *scanBuf) prev(i int) byte {
	if i > 0 {
		return s.b[i-1]
	}
	return s.before
}

// scanRule is a marker and the check of what follows it.
type scanRule struct {
	marker string
	anchor int                            // index in marker of its scanAnchors byte
	check  func(s *scanBuf, i int) string // what b[i:] holds (marker included), or ""
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
	{marker: "PuTTY-User-Key-File-", anchor: 5, check: func(*scanBuf, int) string { return "a PuTTY private key" }},
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
			panic("pack: scan rule " + r.marker + " has no anchor byte")
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

// find names the first secret in s.b, or "".
func (s *scanBuf) find() string {
	b := s.b
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
func (s *scanBuf) match(rules []*scanRule, k int) string {
	for _, r := range rules {
		i := k - r.anchor
		if i >= 0 && i+len(r.marker) <= len(s.b) && string(s.b[i:i+len(r.marker)]) == r.marker {
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
	return scanRule{marker: prefix, check: func(s *scanBuf, i int) string {
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
func (s *scanBuf) run(j int, set func(byte) bool, limit int) (run []byte, ok bool) {
	e := j
	for e < len(s.b) && e-j < limit && set(s.b[e]) {
		e++
	}
	return s.b[j:e], e < len(s.b) || s.eof
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
func (s *scanBuf) value(j int, seps string) (at int, ok bool) {
	skip := func(j int) int { // at most 64 bytes: the check stays within the bytes carried over
		for e := min(len(s.b), j+64); j < e && strings.IndexByte(" \t\"'", s.b[j]) >= 0; {
			j++
		}
		return j
	}
	j = skip(j)
	if j == len(s.b) {
		return 0, false
	}
	if strings.IndexByte(seps, s.b[j]) < 0 {
		return -1, true
	}
	j = skip(j + 1)
	return j, j < len(s.b) || s.eof
}

// npmSetting checks an .npmrc setting key=VALUE. strict: the key starts a
// line or follows a registry scope's ":" and VALUE is base64.
func npmSetting(key, what string, strict bool) func(s *scanBuf, i int) string {
	return func(s *scanBuf, i int) string {
		if strict && !strings.ContainsRune("\x00\n\r\t :", rune(s.prev(i))) {
			return ""
		}
		j, ok := s.value(i+len(key), "=")
		if !ok || j < 0 || j == len(s.b) {
			return ""
		}
		v := s.b[j:]
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
func awsSecret(s *scanBuf, i int) string {
	k := i
	for k < len(s.b) && (alnumUnderscore(s.b[k])) {
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
	if e := j + 40; e < len(s.b) && s.b[e] == '=' {
		return "" // longer base64, not a key
	}
	return "an AWS secret access key"
}

// pemPrivate checks a PEM "-----BEGIN <label>" line for a private key
// ("RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY",
// "PGP PRIVATE KEY BLOCK") whose body could be one (pemBody): a
// documentation placeholder ("<KEY>", "...", "YOUR_KEY_HERE") is none.
func pemPrivate(s *scanBuf, i int) string {
	j := i + len("-----BEGIN ")
	w := s.b[j:min(len(s.b), j+40)]
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
func (s *scanBuf) pemBody(j int) bool {
	e := min(len(s.b), j+maxPEMBody)
	if k := bytes.Index(s.b[j:min(e, j+16)], []byte("-----")); k >= 0 {
		j += k + len("-----") // the header's closing dashes
	}
	n, run, last := 0, 0, j
	for ; j < e; j++ {
		c := s.b[j]
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
		if j-last > maxPEMGap || c == '-' && bytes.HasPrefix(s.b[j:], []byte("-----")) {
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
func base64PEM(s *scanBuf, i int) string {
	run, ok := s.run(i, base64Char, 256)
	if !ok {
		return ""
	}
	dec := make([]byte, 192) // the header and the first of the body
	n, _ := base64.StdEncoding.Decode(dec, run[:len(run)/4*4])
	if what := pemPrivate(&scanBuf{b: dec[:n], eof: true}, 0); what != "" {
		return "a base64-encoded " + strings.TrimPrefix(what, "a ")
	}
	return ""
}

// derPrefix returns the DER SEQUENCE b starts with (whatever follows it)
// if it is at most limit bytes, or nil.
func derPrefix(b []byte, limit int) []byte {
	if len(b) < 2 || b[0] != 0x30 {
		return nil
	}
	n, hdr := int(b[1]), 2
	if n >= 0x80 {
		k := n & 0x7f
		if k == 0 || k > 3 || len(b) < 2+k {
			return nil
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		hdr += k
	}
	if end := hdr + n; end <= len(b) && end <= limit {
		return b[:end]
	}
	return nil
}

// privateJWK tells whether b is JSON holding an object with "kty" and a
// non-empty "d" (the private part of an RSA, EC or OKP JSON Web Key),
// at any depth (a JWK set too).
func privateJWK(b []byte) bool {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') || !bytes.Contains(t, []byte(`"d"`)) {
		return false
	}
	var v any
	if json.Unmarshal(t, &v) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			kty, _ := x["kty"].(string)
			d, _ := x["d"].(string)
			if kty != "" && d != "" {
				return true
			}
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// PKCS#12 (RFC 7292) structures and identifiers.
var (
	oidData            = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidShroudedKeyBag  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 2}
	oidCertBag         = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 3}
	oidCRLBag          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 4}
	oidSafeContentsBag = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 6}
	macHashes          = map[string]func() hash.Hash{
		"1.3.14.3.2.26": sha1.New, "2.16.840.1.101.3.4.2.4": sha256.New224, "2.16.840.1.101.3.4.2.1": sha256.New,
		"2.16.840.1.101.3.4.2.2": sha512.New384, "2.16.840.1.101.3.4.2.3": sha512.New,
	}
)

type pfxPDU struct {
	Version  int
	AuthSafe contentInfo
	MacData  struct {
		Mac struct {
			Algorithm pkix.AlgorithmIdentifier
			Digest    []byte
		}
		Salt       []byte
		Iterations int `asn1:"optional,default:1"`
	} `asn1:"optional"`
}

type contentInfo struct {
	Type    asn1.ObjectIdentifier
	Content asn1.RawValue `asn1:"tag:0,explicit,optional"`
}

type safeBag struct {
	ID    asn1.ObjectIdentifier
	Value asn1.RawValue `asn1:"tag:0,explicit"`
	Attrs asn1.RawValue `asn1:"optional"`
}

// maxPFXIterations bounds the MAC key derivation wopkit runs (twice) per
// key store: 16384, above the defaults of OpenSSL (2048), Windows (2000)
// and Java (10000), so that a tarball of many stores costs bounded time.
const maxPFXIterations = 1 << 14

// pfxSecret names a PKCS#12 key store (.p12, .pfx) in der that is not
// clearly password-protected, or "". A key store holding only
// certificates is no secret; one holding a private key or a secret is
// refused unless every key is encrypted (a shrouded key bag, or an
// encrypted or enveloped content) and it carries a password MAC that the
// empty password does not open: a key in a plain key bag or a secret bag
// (openssl pkcs12 -export -keypbe NONE), a store exported with an empty
// password, and one without a MAC (-nomac) or with a MAC wopkit cannot
// check (PBMAC1, more than maxPFXIterations) are all refused. Encrypted
// content is never decrypted: under an empty password it counts as a key
// even when it holds certificates only. A store in BER (indefinite
// lengths) is not recognised.
func pfxSecret(der []byte) string {
	var pfx pfxPDU
	if rest, err := asn1.Unmarshal(der, &pfx); err != nil || len(rest) > 0 || pfx.Version != 3 || !pfx.AuthSafe.Type.Equal(oidData) {
		return ""
	}
	var authSafe []byte
	if _, err := asn1.Unmarshal(pfx.AuthSafe.Content.Bytes, &authSafe); err != nil {
		return ""
	}
	var contents []contentInfo
	if _, err := asn1.Unmarshal(authSafe, &contents); err != nil {
		return ""
	}
	encrypted := false
	for _, ci := range contents {
		if !ci.Type.Equal(oidData) {
			encrypted = true // encrypted, enveloped or unknown: may hold keys
			continue
		}
		var data []byte
		if _, err := asn1.Unmarshal(ci.Content.Bytes, &data); err != nil {
			return "a PKCS#12 private key store that cannot be read"
		}
		plain, shrouded := pfxBags(data, 0)
		if plain {
			return "a PKCS#12 key store with an unencrypted private key or secret"
		}
		encrypted = encrypted || shrouded
	}
	if !encrypted {
		return "" // certificates only
	}
	mac := pfx.MacData.Mac
	newHash := macHashes[mac.Algorithm.Algorithm.String()]
	switch {
	case len(mac.Digest) == 0:
		return "a PKCS#12 private key store without a password MAC"
	case newHash == nil || pfx.MacData.Iterations < 1 || pfx.MacData.Iterations > maxPFXIterations:
		return "a PKCS#12 private key store whose password wopkit cannot check"
	}
	for _, pw := range [][]byte{nil, {0, 0}} { // "" without and with its BMPString terminator
		h := hmac.New(newHash, pkcs12MACKey(newHash, pw, pfx.MacData.Salt, pfx.MacData.Iterations))
		h.Write(authSafe)
		if hmac.Equal(h.Sum(nil), mac.Digest) {
			return "a PKCS#12 private key store with an empty password"
		}
	}
	return ""
}

// pfxBags reports whether SafeContents hold a plain key or secret bag
// (plain) and a shrouded key bag (shrouded), nested bags included.
func pfxBags(der []byte, depth int) (plain, shrouded bool) {
	var bags []safeBag
	if _, err := asn1.Unmarshal(der, &bags); err != nil || depth > 4 {
		return true, false // unreadable: not clearly encrypted
	}
	for _, b := range bags {
		switch {
		case b.ID.Equal(oidShroudedKeyBag):
			shrouded = true
		case b.ID.Equal(oidCertBag), b.ID.Equal(oidCRLBag):
		case b.ID.Equal(oidSafeContentsBag):
			p, s := pfxBags(b.Value.Bytes, depth+1)
			plain, shrouded = plain || p, shrouded || s
		default: // keyBag, secretBag or unknown
			plain = true
		}
	}
	return plain, shrouded
}

// pkcs12MACKey derives the MAC key from a password (RFC 7292 B.2, ID 3):
// the key is as long as one digest, so one block of the derivation.
func pkcs12MACKey(newHash func() hash.Hash, password, salt []byte, iterations int) []byte {
	h := newHash()
	v := h.BlockSize()
	fill := func(s []byte) []byte {
		out := make([]byte, (len(s)+v-1)/v*v)
		for i := range out {
			out[i] = s[i%len(s)]
		}
		return out
	}
	h.Write(bytes.Repeat([]byte{3}, v))
	h.Write(fill(salt))
	h.Write(fill(password))
	a := h.Sum(nil)
	for range iterations - 1 {
		h.Reset()
		h.Write(a)
		a = h.Sum(a[:0])
	}
	return a
}

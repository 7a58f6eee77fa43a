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
// "" when none. It streams in bounded memory, one pass per anchor byte over
// each chunk: the markers of wopkit's own rules anywhere (leaks.Window) (PEM and PuTTY keys,
// a base64-encoded PEM key, token formats, credentials after their key
// name); a file that starts with a DER PKCS#8, PKCS#1 or SEC1 key (up to
// 16 KiB, trailing bytes such as a newline allowed) or a PKCS#12 key store
// that is not clearly password-protected (pfxSecret, up to 1 MiB); a JSON
// file (up to 1 MiB) holding a private JSON Web Key (a "d" member).
func scanPrivateKey(r io.Reader) (string, error) { return scanSecrets(r, "", newScanBudget()) }

// scanSecrets is scanPrivateKey for the file at rel (pack-relative, with
// slashes; "" when unknown), which also runs gitleaks' rules (internal/leaks)
// on each window and on its decoded readings (UTF-16, JSON escapes), and
// wopkit's marker rules on those readings too. b is the work budget, of this file
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
	s := &leaks.Window{}
	for {
		carried := len(buf)
		n, err := io.ReadFull(r, buf[carried:cap(buf)])
		buf = buf[:carried+n]
		if len(head) <= maxJWKSniff {
			head = append(head, buf[carried:carried+min(n, maxJWKSniff+1-len(head))]...)
		}
		s.B, s.EOF = buf, err != nil
		b.grant(int64(n))
		if what := s.Find(); what != "" {
			return what, nil
		}
		if what, err := findLeak(rules, sc, buf, carried, rel, true); what != "" || err != nil {
			return what, err
		}
		for _, d := range leaks.Decoded(buf, &dbuf) {
			if what := (&leaks.Window{B: d, EOF: s.EOF}).Find(); what != "" {
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
			s.Before = buf[cut-1]
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
func encodedByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '/' || c == '+' || c == '-'
}

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

package pack

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"io"
	"path"
	"strings"
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

// The markers of text private keys: PEM ("-----BEGIN RSA PRIVATE KEY-----",
// "... ENCRYPTED PRIVATE KEY", "... OPENSSH PRIVATE KEY", "... PGP PRIVATE
// KEY BLOCK") and PuTTY key files.
var (
	markPrivate = []byte("PRIVATE KEY")
	markBegin   = []byte("-----BEGIN ")
	markPuTTY   = []byte("PuTTY-User-Key-File-")
)

// maxDERSniff is the largest file sniffed as a binary (DER) private key;
// maxJWKSniff the largest sniffed as a JSON Web Key.
const (
	maxDERSniff = 16 << 10
	maxJWKSniff = 1 << 20
)

// scanPrivateKey reports what secret r holds (never the secret itself), or
// "" when none. It streams in bounded memory: PEM and PuTTY markers and
// the known token formats (tokenRules, npm's _authToken) anywhere; a file
// that starts with a DER PKCS#8, PKCS#1 or SEC1 key (up to 16 KiB, trailing
// bytes such as a newline allowed); a JSON file (up to 1 MiB) holding a
// private JSON Web Key (a "d" member).
func scanPrivateKey(r io.Reader) (string, error) {
	const chunk = 256 << 10
	const keep = 256 // longest marker or token window carried between chunks
	buf := make([]byte, 0, chunk+keep)
	var head []byte
	first := true
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if first {
			head = bytes.Clone(buf[:min(len(buf), maxJWKSniff+1)])
			first = false
		}
		if what := findPEMPrivate(buf); what != "" {
			return what, nil
		}
		if what := findToken(buf); what != "" {
			return what, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return "", err
		}
		tail := buf[len(buf)-min(keep, len(buf)):]
		buf = append(buf[:0], tail...)
	}
	if der := derPrefix(head); der != nil {
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
	if len(head) <= maxJWKSniff && privateJWK(head) {
		return `a private JSON Web Key (a "d" member)`, nil
	}
	return "", nil
}

// derPrefix returns the DER SEQUENCE b starts with (whatever follows it),
// or nil.
func derPrefix(b []byte) []byte {
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
	if end := hdr + n; end <= len(b) && end <= maxDERSniff {
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

// tokenRules are the credential formats recognised anywhere in a file: a
// prefix then a run of characters of a set, of an exact length (or a
// range), not preceded or followed by another character of the set.
var tokenRules = []struct {
	prefix, what string
	set          func(c byte) bool
	min, max     int
}{
	{"AKIA", "an AWS access key id", upperDigit, 16, 16},
	{"ASIA", "an AWS temporary access key id", upperDigit, 16, 16},
	{"ghp_", "a GitHub personal access token", alnum, 36, 36},
	{"gho_", "a GitHub OAuth token", alnum, 36, 36},
	{"ghu_", "a GitHub user-to-server token", alnum, 36, 36},
	{"ghs_", "a GitHub server-to-server token", alnum, 36, 36},
	{"ghr_", "a GitHub refresh token", alnum, 36, 36},
	{"github_pat_", "a GitHub fine-grained personal access token", alnumUnderscore, 60, 255},
	{"npm_", "an npm access token", alnum, 36, 36},
	{"xoxb-", "a Slack bot token", slackChar, 20, 255},
	{"xoxp-", "a Slack user token", slackChar, 20, 255},
	{"xoxa-", "a Slack app token", slackChar, 20, 255},
	{"xoxr-", "a Slack refresh token", slackChar, 20, 255},
	{"xoxs-", "a Slack session token", slackChar, 20, 255},
	{"AIza", "a Google API key", googleChar, 35, 35},
}

func upperDigit(c byte) bool      { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') }
func alnum(c byte) bool           { return upperDigit(c) || (c >= 'a' && c <= 'z') }
func alnumUnderscore(c byte) bool { return alnum(c) || c == '_' }
func slackChar(c byte) bool       { return alnum(c) || c == '-' }
func googleChar(c byte) bool      { return alnum(c) || c == '-' || c == '_' }

var markAuthToken = []byte("_authToken")

// findToken names the first known credential format in b, or "".
func findToken(b []byte) string {
	for _, r := range tokenRules {
		p := []byte(r.prefix)
		for off := 0; ; {
			i := bytes.Index(b[off:], p)
			if i < 0 {
				break
			}
			i += off
			off = i + 1
			if i > 0 && alnumUnderscore(b[i-1]) {
				continue // inside a longer word
			}
			n := 0
			for j := i + len(p); j < len(b) && r.set(b[j]); j++ {
				n++
			}
			if n < r.min || n > r.max {
				continue
			}
			if r.prefix == "AKIA" && bytes.HasSuffix(b[:i+len(p)+n], []byte("EXAMPLE")) {
				continue // AWS's documentation key, AKIAIOSFODNN7EXAMPLE
			}
			return r.what
		}
	}
	// npm's .npmrc: //registry/:_authToken=VALUE, unless VALUE is an
	// environment reference such as ${NPM_TOKEN}.
	for off := 0; ; {
		i := bytes.Index(b[off:], markAuthToken)
		if i < 0 {
			return ""
		}
		i += off + len(markAuthToken)
		off = i
		v := bytes.TrimLeft(b[i:], " \t")
		if len(v) == 0 || v[0] != '=' {
			continue
		}
		v = bytes.TrimLeft(v[1:], " \t\"'")
		if len(v) > 0 && v[0] != '\n' && v[0] != '\r' && !bytes.HasPrefix(v, []byte("${")) {
			return "an npm auth token (_authToken)"
		}
	}
}

func findPEMPrivate(b []byte) string {
	if bytes.Contains(b, markPuTTY) {
		return "a PuTTY private key"
	}
	for off := 0; ; {
		i := bytes.Index(b[off:], markPrivate)
		if i < 0 {
			return ""
		}
		i += off
		start := max(0, i-40)
		if j := bytes.LastIndex(b[start:i], markBegin); j >= 0 {
			label := string(b[start+j+len(markBegin) : i+len(markPrivate)])
			if !strings.ContainsAny(label, "\n-") {
				return "a PEM " + label + " block"
			}
		}
		off = i + len(markPrivate)
	}
}

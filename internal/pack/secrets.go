package pack

import (
	"bytes"
	"crypto/x509"
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
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		return "an environment file (.env)"
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

// maxDERSniff is the largest file sniffed as a binary (DER) private key.
const maxDERSniff = 16 << 10

// scanPrivateKey reports what kind of private key r holds, or "" when none.
// It streams in bounded memory: PEM and PuTTY markers anywhere, and a whole
// file (up to 16 KiB) that parses as a DER PKCS#8, PKCS#1 or SEC1 key.
func scanPrivateKey(r io.Reader) (string, error) {
	const chunk = 256 << 10
	const keep = 64 // longest marker window carried between chunks
	buf := make([]byte, 0, chunk+keep)
	var head []byte
	first := true
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if first {
			head = bytes.Clone(buf[:min(len(buf), maxDERSniff+1)])
			first = false
		}
		if what := findPEMPrivate(buf); what != "" {
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
	if len(head) > 0 && len(head) <= maxDERSniff && head[0] == 0x30 {
		if _, err := x509.ParsePKCS8PrivateKey(head); err == nil {
			return "a DER PKCS#8 private key", nil
		}
		if _, err := x509.ParsePKCS1PrivateKey(head); err == nil {
			return "a DER PKCS#1 RSA private key", nil
		}
		if _, err := x509.ParseECPrivateKey(head); err == nil {
			return "a DER EC private key", nil
		}
	}
	return "", nil
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

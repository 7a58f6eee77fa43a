// Package sigstoretest is an offline Sigstore for tests: loopback HTTP
// servers standing in for Fulcio (/api/v2/signingCert), Rekor
// (/api/v1/log/entries) and an RFC 3161 timestamp authority, so that
// sigstore-go's real HTTP clients are exercised, plus a matching
// trusted_root.json. Log entries are signed by sigstore-go's VirtualSigstore
// Rekor key; the TSA chain comes from its pkg/testing/ca generators. Only
// tests import this package.
package sigstoretest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore-go/pkg/testing/ca"
)

// Issuer is the virtual OIDC provider's issuer URL, written into every
// certificate the virtual Fulcio issues.
const Issuer = "https://oidc.wopkit.test"

// Virtual is one offline Sigstore instance.
type Virtual struct {
	t                          testing.TB
	vs                         *ca.VirtualSigstore
	fulcioRoot, fulcioInter    *x509.Certificate
	fulcioKey                  *ecdsa.PrivateKey
	tsaRoot, tsaInter, tsaLeaf *x509.Certificate
	tsaKey                     *ecdsa.PrivateKey
	oidcKey                    *ecdsa.PrivateKey
	rekorV2Key                 *ecdsa.PrivateKey // the virtual Rekor v2 log (see WithRekorV2Entry)
	fulcio, rekor, tsa         *httptest.Server
	logIndex                   atomic.Int64

	// FulcioURL, RekorURL and TSAURL are the loopback services (the TSA URL
	// is the full endpoint).
	FulcioURL, RekorURL, TSAURL string
	// CertStart is the NotBefore of issued certificates relative to now
	// (default -1m; certificates live 10 minutes, as Fulcio's do).
	CertStart time.Duration
	// RekorTime is the integrated time of log entries relative to now.
	RekorTime time.Duration
	// TSATime is the time of RFC 3161 timestamps relative to now.
	TSATime time.Duration
	// FulcioCalls, RekorCalls and TSACalls count requests received.
	FulcioCalls, RekorCalls, TSACalls atomic.Int64
}

// FirstLogIndex is the log index of the first entry a Virtual records.
const FirstLogIndex = 4243

// New starts a Virtual; its servers stop when the test ends.
func New(t testing.TB) *Virtual {
	t.Helper()
	vs, err := ca.NewVirtualSigstore()
	must(t, err)
	v := &Virtual{t: t, vs: vs, CertStart: -time.Minute}
	v.logIndex.Store(FirstLogIndex - 1)
	// ca.GenerateFulcioIntermediate's certificate starts 2 minutes ago, too
	// late for entries logged in the past: make a longer-lived chain.
	v.fulcioRoot, v.fulcioInter, v.fulcioKey = fulcioChain(t)
	var tsaInterKey, rootKey *ecdsa.PrivateKey
	v.tsaRoot, rootKey, err = ca.GenerateRootCa()
	must(t, err)
	v.tsaInter, tsaInterKey, err = ca.GenerateTSAIntermediate(v.tsaRoot, rootKey)
	must(t, err)
	v.tsaKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	v.tsaLeaf, err = ca.GenerateTSALeafCert(time.Now().Add(-5*time.Minute), v.tsaKey, v.tsaInter, tsaInterKey)
	must(t, err)
	v.oidcKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	v.rekorV2Key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(t, err)
	v.fulcio = httptest.NewServer(http.HandlerFunc(v.serveFulcio))
	v.rekor = httptest.NewServer(http.HandlerFunc(v.serveRekor))
	v.tsa = httptest.NewServer(http.HandlerFunc(v.serveTSA))
	t.Cleanup(func() { v.fulcio.Close(); v.rekor.Close(); v.tsa.Close() })
	v.FulcioURL, v.RekorURL, v.TSAURL = v.fulcio.URL, v.rekor.URL, v.tsa.URL
	return v
}

// fulcioChain makes a Fulcio-like root and intermediate valid from 4 hours
// ago.
func fulcioChain(t testing.TB) (rootCert, inter *x509.Certificate, interKey *ecdsa.PrivateKey) {
	mk := func(cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		must(t, err)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()),
			Subject:   pkix.Name{CommonName: cn, Organization: []string{"wopkit.test"}},
			NotBefore: time.Now().Add(-4 * time.Hour), NotAfter: time.Now().Add(4 * time.Hour),
			KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign, BasicConstraintsValid: true, IsCA: true}
		if parent == nil {
			parent, parentKey = tmpl, key
		} else {
			tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
		must(t, err)
		c, err := x509.ParseCertificate(der)
		must(t, err)
		return c, key
	}
	rootCert, rootKey := mk("virtual-fulcio-root", nil, nil)
	inter, interKey = mk("virtual-fulcio-intermediate", rootCert, rootKey)
	return rootCert, inter, interKey
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Token mints an ES256 identity token for email from the virtual OIDC
// provider, valid for ttl (negative: already expired).
func (v *Virtual) Token(email string, ttl time.Duration) string {
	claims := map[string]any{"iss": Issuer, "sub": "u-123", "aud": "sigstore",
		"email": email, "email_verified": true, "exp": time.Now().Add(ttl).Unix(), "iat": time.Now().Unix()}
	return SignJWT(v.t, v.oidcKey, claims)
}

// SignJWT makes an ES256 JWT over claims with key (a key other than the
// Virtual's makes a token its Fulcio refuses).
func SignJWT(t testing.TB, key *ecdsa.PrivateKey, claims map[string]any) string {
	hdr := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","typ":"JWT"}`))
	body, err := json.Marshal(claims)
	must(t, err)
	input := hdr + "." + base64.RawURLEncoding.EncodeToString(body)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
	must(t, err)
	sig := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// verifyJWT is the virtual Fulcio's token check: signature, expiry, issuer.
func (v *Virtual) verifyJWT(tok string) (map[string]any, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, fmt.Errorf("malformed token")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return nil, fmt.Errorf("bad signature encoding")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(&v.oidcKey.PublicKey, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return nil, fmt.Errorf("token signature invalid")
	}
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c map[string]any
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if exp, _ := c["exp"].(float64); time.Now().After(time.Unix(int64(exp), 0)) {
		return nil, fmt.Errorf("token expired")
	}
	if c["iss"] != Issuer {
		return nil, fmt.Errorf("unknown issuer")
	}
	return c, nil
}

// TrustedRoot writes a trusted_root.json for this instance (no CT logs: the
// virtual Fulcio embeds no SCTs) into a temporary directory and returns its
// path.
func (v *Virtual) TrustedRoot() string { return v.writeRoot(map[string]*root.TransparencyLog{}) }

// TrustedRootWithCTLog is TrustedRoot plus a certificate-transparency log,
// as the public-good root has: verifiers then require SCTs, which the
// virtual Fulcio's certificates lack.
func (v *Virtual) TrustedRootWithCTLog() string {
	ct := map[string]*root.TransparencyLog{}
	for id, l := range v.vs.CTLogs() {
		c := *l
		raw, err := hex.DecodeString(id)
		must(v.t, err)
		c.ID, c.BaseURL, c.ValidityPeriodStart, c.ValidityPeriodEnd = raw, "https://ctfe.wopkit.test", time.Now().Add(-24*time.Hour), time.Time{}
		c.SignatureHashFunc = crypto.SHA256
		ct[id] = &c
	}
	return v.writeRoot(ct)
}

func (v *Virtual) writeRoot(ctlogs map[string]*root.TransparencyLog) string {
	v.t.Helper()
	tr, err := root.NewTrustedRoot(root.TrustedRootMediaType01,
		[]root.CertificateAuthority{&root.FulcioCertificateAuthority{Root: v.fulcioRoot,
			Intermediates: []*x509.Certificate{v.fulcioInter}, ValidityPeriodStart: time.Now().Add(-24 * time.Hour), URI: v.fulcio.URL}},
		ctlogs,
		[]root.TimestampingAuthority{&root.SigstoreTimestampingAuthority{Root: v.tsaRoot,
			Intermediates: []*x509.Certificate{v.tsaInter}, Leaf: v.tsaLeaf, ValidityPeriodStart: time.Now().Add(-24 * time.Hour), URI: v.tsa.URL}},
		v.rekorLogs())
	must(v.t, err)
	raw, err := json.Marshal(tr)
	must(v.t, err)
	p := filepath.Join(v.t.TempDir(), "trusted_root.json")
	must(v.t, os.WriteFile(p, raw, 0o644))
	return p
}

// rekorLogs is the virtual Rekor log as a trusted root lists it: the
// VirtualSigstore keeps the hex log ID as the ID's bytes, which only works
// in memory; a trusted_root.json holds the raw key ID.
func (v *Virtual) rekorLogs() map[string]*root.TransparencyLog {
	out := map[string]*root.TransparencyLog{}
	for id, l := range v.vs.RekorLogs() {
		c := *l
		raw, err := hex.DecodeString(id)
		must(v.t, err)
		c.ID = raw
		c.ValidityPeriodStart = time.Now().Add(-24 * time.Hour)
		c.ValidityPeriodEnd = time.Time{}
		out[id] = &c
	}
	id, l := v.rekorV2Log()
	out[id] = l
	return out
}

// FulcioRoot is the virtual Fulcio's root certificate.
func (v *Virtual) FulcioRoot() *x509.Certificate { return v.fulcioRoot }

// FulcioIntermediate is the certificate that signs the virtual Fulcio's leaves.
func (v *Virtual) FulcioIntermediate() *x509.Certificate { return v.fulcioInter }

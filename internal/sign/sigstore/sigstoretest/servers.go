package sigstoretest

// The three HTTP stand-ins, speaking the wire formats sigstore-go's clients use.

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/go-openapi/runtime"
	"github.com/go-openapi/swag/conv"
	"github.com/sigstore/rekor/pkg/generated/models"
	"github.com/sigstore/rekor/pkg/types"
	"github.com/sigstore/sigstore-go/pkg/tlog"
)

func (v *Virtual) serveFulcio(w http.ResponseWriter, r *http.Request) {
	v.FulcioCalls.Add(1)
	if r.Method != http.MethodPost || r.URL.Path != "/api/v2/signingCert" {
		http.NotFound(w, r)
		return
	}
	claims, err := v.verifyJWT(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	if err != nil {
		http.Error(w, `{"code":16,"message":"There was an error processing the identity token"}`, http.StatusUnauthorized)
		return
	}
	var req struct {
		PublicKeyRequest struct {
			PublicKey         struct{ Algorithm, Content string }
			ProofOfPossession string
		}
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	blk, _ := pem.Decode([]byte(req.PublicKeyRequest.PublicKey.Content))
	if blk == nil {
		http.Error(w, "bad public key", http.StatusBadRequest)
		return
	}
	pub, err := x509.ParsePKIXPublicKey(blk.Bytes)
	ecPub, ok := pub.(*ecdsa.PublicKey)
	if err != nil || !ok {
		http.Error(w, "bad public key", http.StatusBadRequest)
		return
	}
	email, _ := claims["email"].(string)
	pop, _ := base64.StdEncoding.DecodeString(req.PublicKeyRequest.ProofOfPossession)
	popSum := sha256.Sum256([]byte(email))
	if !ecdsa.VerifyASN1(ecPub, popSum[:], pop) {
		http.Error(w, "proof of possession failed", http.StatusBadRequest)
		return
	}
	leaf, err := v.issueLeaf(ecPub, email, Issuer)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	chain := []string{PEMCert(leaf), PEMCert(v.fulcioInter), PEMCert(v.fulcioRoot)}
	resp := map[string]any{"signedCertificateEmbeddedSct": map[string]any{"chain": map[string]any{"certificates": chain}}}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// PEMCert encodes a certificate as PEM.
func PEMCert(c *x509.Certificate) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}))
}

// issueLeaf makes a Fulcio-style code-signing certificate for pub.
func (v *Virtual) issueLeaf(pub crypto.PublicKey, email, issuer string) (*x509.Certificate, error) {
	issuerV2, _ := asn1.MarshalWithParams(issuer, "utf8")
	start := time.Now().Add(v.CertStart)
	tmpl := &x509.Certificate{
		SerialNumber:   big.NewInt(time.Now().UnixNano()),
		EmailAddresses: []string{email},
		NotBefore:      start,
		NotAfter:       start.Add(10 * time.Minute),
		KeyUsage:       x509.KeyUsageDigitalSignature,
		ExtKeyUsage:    []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		ExtraExtensions: []pkix.Extension{
			{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 1}, Value: []byte(issuer)},
			{Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 8}, Value: issuerV2},
		},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, v.fulcioInter, pub, v.fulcioKey)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

func (v *Virtual) serveRekor(w http.ResponseWriter, r *http.Request) {
	v.RekorCalls.Add(1)
	if r.Method != http.MethodPost || r.URL.Path != "/api/v1/log/entries" {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	pe, err := models.UnmarshalProposedEntry(bytes.NewReader(raw), runtime.JSONConsumer())
	if err != nil {
		http.Error(w, `{"code":400,"message":"bad entry"}`, http.StatusBadRequest)
		return
	}
	entry, err := types.CreateVersionedEntry(pe)
	if err != nil {
		http.Error(w, `{"code":400,"message":"bad entry"}`, http.StatusBadRequest)
		return
	}
	body, err := types.CanonicalizeEntry(context.Background(), entry)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	logID, _ := v.vs.RekorLogID()
	idx := v.logIndex.Add(1)
	integrated := time.Now().Add(v.RekorTime).Unix()
	b64 := base64.StdEncoding.EncodeToString(body)
	set, err := v.vs.RekorSignPayload(tlog.RekorPayload{Body: b64, IntegratedTime: integrated, LogIndex: idx, LogID: logID})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	proof, err := v.vs.GetInclusionProof(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	leaf := sha256.Sum256(append([]byte{0}, body...))
	uuid := hex.EncodeToString(leaf[:])
	anon := models.LogEntryAnon{Body: b64, IntegratedTime: conv.Pointer(integrated), LogID: conv.Pointer(logID),
		LogIndex: conv.Pointer(idx), Verification: &models.LogEntryAnonVerification{InclusionProof: proof, SignedEntryTimestamp: set}}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("ETag", uuid)
	w.Header().Set("Location", "/api/v1/log/entries/"+uuid)
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]models.LogEntryAnon{uuid: anon})
}

func (v *Virtual) serveTSA(w http.ResponseWriter, r *http.Request) {
	v.TSACalls.Add(1)
	raw, _ := io.ReadAll(r.Body)
	req, err := timestamp.ParseRequest(raw)
	if err != nil {
		http.Error(w, "bad timestamp request", http.StatusBadRequest)
		return
	}
	ts := timestamp.Timestamp{HashAlgorithm: req.HashAlgorithm, HashedMessage: req.HashedMessage, Time: time.Now().Add(v.TSATime),
		Policy: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 2}}
	resp, err := ts.CreateResponseWithOpts(v.tsaLeaf, v.tsaKey, crypto.SHA256)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/timestamp-reply")
	_, _ = w.Write(resp)
}

package sigstoretest

import (
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"net/url"
	"time"

	protobundle "github.com/sigstore/protobuf-specs/gen/pb-go/bundle/v1"
	protocommon "github.com/sigstore/protobuf-specs/gen/pb-go/common/v1"
	protorekor "github.com/sigstore/protobuf-specs/gen/pb-go/rekor/v1"
	rekortilespb "github.com/sigstore/rekor-tiles/v2/pkg/generated/protobuf"
	rekornote "github.com/sigstore/rekor-tiles/v2/pkg/note"
	"github.com/sigstore/rekor-tiles/v2/pkg/types/hashedrekord"
	"github.com/sigstore/sigstore-go/pkg/root"
	"github.com/sigstore/sigstore/pkg/signature"
	f_log "github.com/transparency-dev/formats/log"
	"golang.org/x/mod/sumdb/note"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/openwop/wopkit/internal/jcs"
)

// RekorV2URL is the base URL of the virtual Rekor v2 log; its checkpoints
// name its host as their origin, as a Rekor v2 log's do.
const RekorV2URL = "https://rekor-v2.wopkit.test"

// rekorV2Log is the virtual Rekor v2 log as a trusted root lists it.
func (v *Virtual) rekorV2Log() (string, *root.TransparencyLog) {
	der, err := x509.MarshalPKIXPublicKey(&v.rekorV2Key.PublicKey)
	must(v.t, err)
	id := sha256.Sum256(der)
	return hex.EncodeToString(id[:]), &root.TransparencyLog{BaseURL: RekorV2URL, ID: id[:], HashFunc: crypto.SHA256,
		PublicKey: &v.rekorV2Key.PublicKey, SignatureHashFunc: crypto.SHA256, ValidityPeriodStart: time.Now().Add(-24 * time.Hour)}
}

// WithRekorV2Entry returns bundleJSON (a keyless bundle holding a message
// signature) with its transparency-log entries replaced by one entry of
// the virtual Rekor v2 log: a hashedrekord v0.0.2 entry with an inclusion
// proof under a checkpoint the log signed and, as every Rekor v2 entry, no
// integrated time: only an RFC 3161 timestamp can say when it was signed.
// The trusted roots of v list that log.
func (v *Virtual) WithRekorV2Entry(bundleJSON []byte) []byte {
	t := v.t
	t.Helper()
	var b protobundle.Bundle
	must(t, protojson.Unmarshal(bundleJSON, &b))
	ms := b.GetMessageSignature()
	certDER := b.GetVerificationMaterial().GetCertificate().GetRawBytes()
	leaf, err := x509.ParseCertificate(certDER)
	must(t, err)
	alg, err := signature.GetDefaultAlgorithmDetails(leaf.PublicKey)
	must(t, err)
	sig := &rekortilespb.Signature{Content: ms.GetSignature(), Verifier: &rekortilespb.Verifier{
		Verifier:   &rekortilespb.Verifier_X509Certificate{X509Certificate: &protocommon.X509Certificate{RawBytes: certDER}},
		KeyDetails: alg.GetSignatureAlgorithm(),
	}}
	digest := ms.GetMessageDigest().GetDigest()
	leafHash, err := hashedrekord.ToEntryHash(digest, sig)
	must(t, err)
	entry, err := protojson.Marshal(&rekortilespb.Entry{Kind: "hashedrekord", ApiVersion: "0.0.2", Spec: &rekortilespb.Spec{
		Spec: &rekortilespb.Spec_HashedRekordV002{HashedRekordV002: &rekortilespb.HashedRekordLogEntryV002{
			Data: &protocommon.HashOutput{Algorithm: alg.GetProtoHashType(), Digest: digest}, Signature: sig}}}})
	must(t, err)
	body, err := jcs.Canonicalize(entry, jcs.Options{})
	must(t, err)

	u, err := url.Parse(RekorV2URL)
	must(t, err)
	origin := u.Hostname()
	sv, err := signature.LoadECDSASignerVerifier(v.rekorV2Key, crypto.SHA256)
	must(t, err)
	ns, err := rekornote.NewNoteSigner(context.Background(), origin, sv)
	must(t, err)
	checkpoint, err := note.Sign(&note.Note{Text: string(f_log.Checkpoint{Origin: origin, Size: 1, Hash: leafHash}.Marshal())}, ns)
	must(t, err)
	id, _ := v.rekorV2Log()
	logID, err := hex.DecodeString(id)
	must(t, err)
	b.VerificationMaterial.TlogEntries = []*protorekor.TransparencyLogEntry{{
		LogIndex:    0,
		LogId:       &protocommon.LogId{KeyId: logID},
		KindVersion: &protorekor.KindVersion{Kind: "hashedrekord", Version: "0.0.2"},
		InclusionProof: &protorekor.InclusionProof{LogIndex: 0, TreeSize: 1, RootHash: leafHash, Hashes: [][]byte{},
			Checkpoint: &protorekor.Checkpoint{Envelope: string(checkpoint)}},
		CanonicalizedBody: body,
	}}
	out, err := protojson.Marshal(&b)
	must(t, err)
	return out
}

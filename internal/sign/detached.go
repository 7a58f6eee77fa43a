package sign

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"io"
	"sync"

	"github.com/openwop/wopkit/internal/werr"
)

// Detached signing, for keys wopkit cannot hold or reach (an HSM, a cloud
// KMS, a smart card behind PKCS#11): `sign --prepare` writes the exact bytes
// a scheme signs, any tool signs them with plain Ed25519, and `sign
// --attach` checks that signature and packs it. Both steps are an
// Ed25519Signer whose key is a stand-in: Prepare records the message the
// signer is given, Attach answers it with the outside signature once that
// verifies over it. So the bytes prepared are the ones a key file would
// sign, built by the same code (pack's canonical pack.json with the
// signing block), never by a second copy of it.

// MaxSignatureFile bounds a signature file given to --attach.
const MaxSignatureFile = 4 << 10

// Prepared holds the bytes a Prepare signer was asked to sign.
type Prepared struct {
	mu  sync.Mutex
	msg []byte
}

// Message returns the bytes recorded, or nil when nothing was signed.
func (p *Prepared) Message() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Clone(p.msg)
}

// Public returns nil: a stand-in has no key.
func (p *Prepared) Public() crypto.PublicKey { return nil }

// Sign records msg and returns a placeholder of 64 zero bytes: a Prepare
// signer is for dry runs only (see NewPrepareSigner).
func (p *Prepared) Sign(_ io.Reader, msg []byte, _ crypto.SignerOpts) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msg = bytes.Clone(msg)
	return make([]byte, ed25519.SignatureSize), nil
}

// NewPrepareSigner returns a Signer for method (manual or v2) and keyID
// that signs nothing: it records in the returned Prepared the exact bytes
// it is given and signs them with 64 zero bytes. Use it only for a dry run
// (pack.Options.DryRun), whose signature is never written.
func NewPrepareSigner(method, keyID string) (*Ed25519Signer, *Prepared, error) {
	p := &Prepared{}
	s, err := newEd25519(method, p, keyID)
	if err != nil {
		return nil, nil, err
	}
	return s, p, nil
}

// attached is the stand-in key of NewAttachSigner.
type attached struct {
	pub   ed25519.PublicKey
	sig   []byte
	where string // the signature file, for messages
	pubAt string // the public key file, for messages
}

func (a *attached) Public() crypto.PublicKey { return a.pub }

// Sign returns the outside signature when it verifies over msg, the bytes
// this pack, scheme and key id sign.
func (a *attached) Sign(_ io.Reader, msg []byte, _ crypto.SignerOpts) ([]byte, error) {
	if !ed25519.Verify(a.pub, msg, a.sig) {
		return nil, werr.New(werr.Invalid, "pack_signature_invalid", "the signature in %s does not verify with %s over the bytes this pack, scheme and key id sign", a.where, a.pubAt).
			WithHint("sign exactly the file `wopkit sign --prepare` wrote, with the same --sign and --key-id, and give the public key of the key that signed it; if the pack changed since, prepare again")
	}
	return bytes.Clone(a.sig), nil
}

// NewAttachSigner returns a Signer for method and keyID whose signature is
// sig, made outside wopkit: it signs only the very bytes sig verifies over
// with pub (any other pack.json is refused, exit 1, before anything is
// written). where and pubAt name the signature and public key files in
// messages.
func NewAttachSigner(method, keyID string, pub crypto.PublicKey, sig []byte, where, pubAt string) (*Ed25519Signer, error) {
	pk, ok := pub.(ed25519.PublicKey)
	if !ok {
		return nil, werr.New(werr.Invalid, "key_algorithm_unsupported", "%s holds a %s key; the %s scheme signs with Ed25519", pubAt, orUnknown(AlgorithmOf(pub)), method).
			WithHint("give the SPKI PEM public key of the Ed25519 key that signed (e.g. `openssl pkey -in KEY -pubout`)")
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, werr.New(werr.Invalid, "pack_signature_invalid", "%s holds a %d-byte signature, not %d", where, len(sig), ed25519.SignatureSize)
	}
	return newEd25519(method, &attached{pub: pk, sig: bytes.Clone(sig), where: where, pubAt: pubAt}, keyID)
}

func orUnknown(a Algorithm) string {
	if a == "" {
		return "non-Ed25519"
	}
	return string(a)
}

// ParseSignature reads an Ed25519 signature as outside tools write it: the
// raw 64 bytes (openssl pkeyutl, PKCS#11 tools, gcloud kms) or their base64
// (standard or URL alphabet, padded or not, surrounding white space
// ignored: aws kms, vault). Anything else, a truncated signature included,
// is refused (exit 1). where names the file in messages.
func ParseSignature(data []byte, where string) ([]byte, error) {
	if len(data) == ed25519.SignatureSize && !isBase64Text(data) {
		// 64 bytes all in the base64 alphabet are text (the base64 of 48
		// bytes), never a real signature: the odds are 4^-64.
		return bytes.Clone(data), nil
	}
	text := bytes.TrimSpace(data)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(string(text)); err == nil && len(b) == ed25519.SignatureSize {
			return b, nil
		}
	}
	return nil, werr.New(werr.Invalid, "pack_signature_invalid", "%s holds %d bytes: neither a raw %d-byte Ed25519 signature nor its base64", where, len(data), ed25519.SignatureSize).
		WithHint("give the signer's output as it is (e.g. `openssl pkeyutl -sign -rawin -inkey KEY -in PREPARED -out SIG`); a truncated or hex signature is refused")
}

func isBase64Text(b []byte) bool {
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_' || c == '=') {
			return false
		}
	}
	return true
}

// LoadSignature reads and parses a signature file (see ParseSignature).
func LoadSignature(path string) ([]byte, error) {
	data, err := readSmallMax(path, MaxSignatureFile, "signature", "pack_signature_invalid")
	if err != nil {
		return nil, err
	}
	return ParseSignature(data, path)
}

package sign

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509/pkix"
	"encoding/asn1"
	"hash"

	"github.com/openwop/wopkit/internal/werr"
)

// Encrypted PKCS#8 (RFC 5958 EncryptedPrivateKeyInfo) with PBES2 (RFC 8018):
// the scheme `openssl genpkey -aes-256-cbc` and `openssl pkcs8 -topk8 -v2 aes256` use.

var (
	oidPBES2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidHMACSHA1   = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 7}
	oidHMACSHA256 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 9}
	oidHMACSHA512 = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 11}
	oidAES128CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC  = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
)

// KDFIterations is the PBKDF2 iteration count for new encrypted keys
// (OWASP's 2023 figure for PBKDF2-HMAC-SHA256).
var KDFIterations = 600_000

type encryptedPrivateKeyInfo struct {
	Algo pkix.AlgorithmIdentifier
	Data []byte
}

type pbes2Params struct {
	KDF    pkix.AlgorithmIdentifier
	Scheme pkix.AlgorithmIdentifier
}

type pbkdf2Params struct {
	Salt       []byte
	Iterations int
	KeyLength  int                      `asn1:"optional"`
	PRF        pkix.AlgorithmIdentifier `asn1:"optional"`
}

func encryptPKCS8(der, passphrase []byte) ([]byte, error) {
	salt := make([]byte, 16)
	iv := make([]byte, aes.BlockSize)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	if _, err := rand.Read(iv); err != nil {
		return nil, err
	}
	key, err := pbkdf2.Key(sha256.New, string(passphrase), salt, KDFIterations, 32)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "cannot derive the key-encryption key")
	}
	block, _ := aes.NewCipher(key)
	pad := aes.BlockSize - len(der)%aes.BlockSize
	plain := append(bytes.Clone(der), bytes.Repeat([]byte{byte(pad)}, pad)...)
	out := make([]byte, len(plain))
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, plain)

	kdf, err := asn1.Marshal(pbkdf2Params{Salt: salt, Iterations: KDFIterations,
		PRF: pkix.AlgorithmIdentifier{Algorithm: oidHMACSHA256, Parameters: asn1.NullRawValue}})
	if err != nil {
		return nil, err
	}
	ivDER, _ := asn1.Marshal(iv)
	params, err := asn1.Marshal(pbes2Params{
		KDF:    pkix.AlgorithmIdentifier{Algorithm: oidPBKDF2, Parameters: asn1.RawValue{FullBytes: kdf}},
		Scheme: pkix.AlgorithmIdentifier{Algorithm: oidAES256CBC, Parameters: asn1.RawValue{FullBytes: ivDER}},
	})
	if err != nil {
		return nil, err
	}
	return asn1.Marshal(encryptedPrivateKeyInfo{
		Algo: pkix.AlgorithmIdentifier{Algorithm: oidPBES2, Parameters: asn1.RawValue{FullBytes: params}},
		Data: out,
	})
}

func decryptPKCS8(der, passphrase []byte, where string) ([]byte, error) {
	bad := func(err error, what string) error {
		return werr.Wrap(werr.Invalid, "key_invalid", err, "%s: %s", where, what).
			WithHint("wopkit reads PBES2 (PBKDF2 + AES-CBC) encrypted PKCS#8, as `openssl genpkey -aes-256-cbc` writes")
	}
	var info encryptedPrivateKeyInfo
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) != 0 {
		return nil, bad(err, "malformed encrypted private key")
	}
	if !info.Algo.Algorithm.Equal(oidPBES2) {
		return nil, bad(nil, "unsupported key encryption "+info.Algo.Algorithm.String())
	}
	var p pbes2Params
	if _, err := asn1.Unmarshal(info.Algo.Parameters.FullBytes, &p); err != nil {
		return nil, bad(err, "malformed PBES2 parameters")
	}
	if !p.KDF.Algorithm.Equal(oidPBKDF2) {
		return nil, bad(nil, "unsupported key derivation "+p.KDF.Algorithm.String())
	}
	var kp pbkdf2Params
	if _, err := asn1.Unmarshal(p.KDF.Parameters.FullBytes, &kp); err != nil {
		return nil, bad(err, "malformed PBKDF2 parameters")
	}
	var prf func() hash.Hash
	switch {
	case len(kp.PRF.Algorithm) == 0 || kp.PRF.Algorithm.Equal(oidHMACSHA1):
		prf = sha1.New
	case kp.PRF.Algorithm.Equal(oidHMACSHA256):
		prf = sha256.New
	case kp.PRF.Algorithm.Equal(oidHMACSHA512):
		prf = sha512.New
	default:
		return nil, bad(nil, "unsupported PBKDF2 hash "+kp.PRF.Algorithm.String())
	}
	var keyLen int
	switch {
	case p.Scheme.Algorithm.Equal(oidAES128CBC):
		keyLen = 16
	case p.Scheme.Algorithm.Equal(oidAES192CBC):
		keyLen = 24
	case p.Scheme.Algorithm.Equal(oidAES256CBC):
		keyLen = 32
	default:
		return nil, bad(nil, "unsupported cipher "+p.Scheme.Algorithm.String())
	}
	var iv []byte
	if _, err := asn1.Unmarshal(p.Scheme.Parameters.FullBytes, &iv); err != nil || len(iv) != aes.BlockSize {
		return nil, bad(err, "malformed AES-CBC IV")
	}
	if kp.Iterations < 1 || kp.Iterations > 10_000_000 {
		return nil, bad(nil, "implausible PBKDF2 iteration count")
	}
	key, err := pbkdf2.Key(prf, string(passphrase), kp.Salt, kp.Iterations, keyLen)
	if err != nil {
		return nil, bad(err, "cannot derive the key-encryption key")
	}
	if len(info.Data) == 0 || len(info.Data)%aes.BlockSize != 0 {
		return nil, bad(nil, "encrypted data is not whole AES blocks")
	}
	block, _ := aes.NewCipher(key)
	plain := make([]byte, len(info.Data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, info.Data)
	pad := int(plain[len(plain)-1])
	if pad == 0 || pad > aes.BlockSize || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
		return nil, werr.New(werr.Invalid, "key_passphrase_wrong", "%s: wrong passphrase", where).
			WithHint("check WOPKIT_KEY_PASSPHRASE or retype the passphrase")
	}
	return plain[:len(plain)-pad], nil
}

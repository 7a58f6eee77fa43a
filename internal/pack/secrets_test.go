package pack

import (
	"bytes"
	"crypto/rand"
	"testing"
	"testing/iotest"
)

// A key marker is found wherever it falls, across the scanner's chunk
// boundaries and through one-byte reads.
func TestScanPrivateKeyBoundaries(t *testing.T) {
	const chunk = 256 << 10
	marker := []byte("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n")
	for _, off := range []int{0, 1, chunk - len(marker), chunk - 20, chunk - 5, chunk, chunk + 3, 3*chunk - 11} {
		data := make([]byte, 3*chunk+100)
		rand.Read(data)
		data = bytes.ReplaceAll(data, []byte("-"), []byte("+")) // no accidental markers
		copy(data[off:], marker)
		what, err := scanPrivateKey(bytes.NewReader(data))
		if err != nil || what == "" {
			t.Errorf("marker at %d not found (%q, %v)", off, what, err)
		}
	}
	small := append([]byte("x\n"), marker...)
	if what, _ := scanPrivateKey(iotest.OneByteReader(bytes.NewReader(small))); what == "" {
		t.Error("not found through one-byte reads")
	}
	for _, clean := range []string{"", "PRIVATE KEY", "-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----\nPRIVATE KEY"} {
		if what, _ := scanPrivateKey(bytes.NewReader([]byte(clean))); what != "" {
			t.Errorf("%q reported as %s", clean, what)
		}
	}
}

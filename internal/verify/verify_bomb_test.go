package verify

import (
	"context"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/bombs"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// writeBomb writes a bomb tarball to a temporary file.
func writeBomb(t *testing.T, build func(f *os.File) error) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bomb.tgz")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := build(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Size() > 10<<20 {
		t.Fatalf("the bomb is %d bytes compressed, more than the 10 MB the goal is stated for", fi.Size())
	}
	return p
}

// Issue 10 item 2: verify of 1,000 entries x/NNNN.sig of 1 MiB each (about
// 1 MB compressed) held them all (about 1 GiB). With limits raised far
// enough to read it, only the signatures verification reads are held; with
// the default (registry) limits it is refused at once.
func TestVerifySigBombBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1 GiB tarball stream")
	}
	p := writeBomb(t, func(f *os.File) error { return bombs.Sigs(f, 1000, 1<<20) })
	pub, _, _ := ed25519.GenerateKey(nil)
	raised := tarball.Scaled(2000)
	var r *Result
	peak, took := bombs.Peak(func() { r = File(context.Background(), p, Policy{Key: pub, Limits: &raised}) })
	t.Logf("verify (limits raised): peak heap %d MiB, %v, error %v", peak>>20, took, r.Error)
	if r.Verified || r.Error == nil || r.Error.Code != "signature_missing" {
		t.Errorf("result %+v, want signature_missing", r.Error)
	}
	if peak > 64<<20 {
		t.Errorf("verify held %d MiB for a tarball of 1,000 unneeded .sig entries: they must be streamed", peak>>20)
	}
	peak, took = bombs.Peak(func() { r = File(context.Background(), p, Policy{Key: pub}) })
	t.Logf("verify (default limits): peak heap %d MiB, %v, error %v", peak>>20, took, r.Error)
	if r.Error == nil || r.Error.Code != tarball.CodeTooLarge || peak > 256<<20 {
		t.Errorf("default limits: %+v, peak %d MiB; want %s within 256 MiB", r.Error, peak>>20, tarball.CodeTooLarge)
	}
}

// Issue 10 item 2: inspect of one 400 MiB entry peaked at 930 MB. Entries
// are now streamed past (sizes come from the headers).
func TestInspectBigEntryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 400 MiB tarball stream")
	}
	p := writeBomb(t, func(f *os.File) error { return bombs.BigEntry(f, 400<<20) })
	raised := tarball.Scaled(2000)
	var info *Info
	var err error
	peak, took := bombs.Peak(func() { info, err = Inspect(p, &raised) })
	t.Logf("inspect (limits raised): peak heap %d MiB, %v", peak>>20, took)
	if err != nil || info.Unpacked < 400<<20 || len(info.Entries) != 2 {
		t.Fatalf("inspect: %v %+v", err, info)
	}
	if peak > 64<<20 {
		t.Errorf("inspect held %d MiB for one 400 MiB entry it does not need", peak>>20)
	}
	peak, took = bombs.Peak(func() { _, err = Inspect(p, nil) })
	t.Logf("inspect (default limits): peak heap %d MiB, %v, %v", peak>>20, took, err)
	if werr.CodeOf(err) != tarball.CodeTooLarge || peak > 256<<20 {
		t.Errorf("default limits: %v, peak %d MiB; want %s within 256 MiB", err, peak>>20, tarball.CodeTooLarge)
	}
}

// A signatureRef other than keys/pack.json.sig is fetched by a second pass
// (the first holds only pack.json and the default signature files), among
// decoy .sig entries that are never held.
func TestOtherSignatureRefAmongDecoys(t *testing.T) {
	k, pub := keyPair(t)
	pj := `{"name":"x.y","signing":{"method":"manual","publicKeyRef":"k1","signatureRef":"keys/alt.sig"},"version":"1.0.0"}`
	entries := []entry{{name: "a/0.sig", data: "decoy"}, {name: "keys/alt.sig", data: string(signed(t, k, sign.MethodManual, pj))},
		{name: "pack.json", data: pj}, {name: "z/1.sig", data: "decoy"}}
	p := filepath.Join(t.TempDir(), "p.tgz")
	os.WriteFile(p, makeTGZ(t, entries), 0o644)
	if r := File(context.Background(), p, Policy{Key: pub}); !r.Verified || r.Signature != p+"!keys/alt.sig" {
		t.Errorf("verified %v signature %q error %+v", r.Verified, r.Signature, r.Error)
	}
}

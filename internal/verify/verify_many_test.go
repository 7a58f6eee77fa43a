package verify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
)

// manyCopies copies the fixture registry's tarballs and their detached
// signatures round-robin into n files of one folder (the bytes unchanged,
// so every signature holds), as `wopkit verify DIR/*.tgz --registry ROOT`
// is given them.
func manyCopies(t testing.TB, n int) []string {
	t.Helper()
	src := fixtureTarballs(t)
	dir := t.TempDir()
	out := make([]string, n)
	for i := range out {
		base := src[i%len(src)]
		out[i] = filepath.Join(dir, "v"+strconv.Itoa(i)+".tgz")
		for _, ext := range []string{".tgz", ".sig"} {
			data, err := os.ReadFile(base[:len(base)-len(".tgz")] + ext)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out[i][:len(out[i])-len(".tgz")]+ext, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkVerifyMany verifies 281 tarballs (the live v1 registry's count
// of versions, made of the fixture slice's 7) against the registry root in
// one call, on all CPUs, as `wopkit verify` of a whole registry does.
// Compare with the registry's own verifier:
// internal/verify/testdata/compare-verify-speed.sh.
//
//	go test ./internal/verify -run '^$' -bench VerifyMany -benchmem -count 5
func BenchmarkVerifyMany(b *testing.B) {
	benchFiles(b, manyCopies(b, 281))
}

// A streamed file gives the verdict, the integrity and the notes that the
// same tarball held in memory gives (Bytes, the path publish takes), for
// every fixture; a file cut short, or with bytes after the gzip stream,
// keeps the integrity of every byte of it.
func TestStreamedFileMatchesBytes(t *testing.T) {
	t.Parallel()
	root := openRegistry(t, fixtures.Registry(t))
	p := Policy{Registry: root, AllowYanked: true}
	for _, tgz := range fixtureTarballs(t) {
		data, err := os.ReadFile(tgz)
		if err != nil {
			t.Fatal(err)
		}
		sig, _ := os.ReadFile(tgz[:len(tgz)-len(".tgz")] + ".sig")
		want := &Result{Path: tgz, Signature: tgz[:len(tgz)-len(".tgz")] + ".sig"}
		if err := Bytes(context.Background(), data, sig, p, want); err != nil {
			want.fail(err)
		}
		want.bound()
		got := File(context.Background(), tgz, p)
		// The file is also checked against the version manifest beside it
		// (the registry's own, here), which Bytes has not.
		if _, err := os.Stat(tgz[:len(tgz)-len(".tgz")] + ".json"); (err == nil) != got.ReleaseChecked && got.Verified {
			t.Errorf("%s: release checked %v, a .json beside it: %v", tgz, got.ReleaseChecked, err == nil)
		}
		want.ReleaseManifest, want.ReleaseChecked = got.ReleaseManifest, got.ReleaseChecked
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: streamed %+v\nin memory %+v", tgz, got, want)
		}
		if got.Integrity != integrityOf(data) {
			t.Errorf("%s: integrity %s, sha256 of the file %s", tgz, got.Integrity, integrityOf(data))
		}
	}
	tgz := fixtureTarballs(t)[0]
	data, _ := os.ReadFile(tgz)
	dir := t.TempDir()
	for name, b := range map[string][]byte{"cut.tgz": data[:len(data)/2], "tail.tgz": append(append([]byte(nil), data...), "junk"...)} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, b, 0o644)
		r := File(context.Background(), path, Policy{Registry: root})
		if r.Verified || r.Integrity != integrityOf(b) {
			t.Errorf("%s: verified %v, integrity %s, want %s", name, r.Verified, r.Integrity, integrityOf(b))
		}
	}
}

// Issue 27: verify streams a tarball once and holds only what it checks,
// so what it allocates follows pack.json and the signatures, not the
// tarball: a pack with an 8 MiB incompressible member (8 MiB compressed)
// costs well under 1 MiB (reading the file whole cost twice its size).
func TestVerifyAllocatesPerKeptMember(t *testing.T) {
	blob := make([]byte, 8<<20)
	rand.NewChaCha8([32]byte{27}).Read(blob)
	manifest := []byte(`{"name":"acme.big","version":"1.0.0","signing":{"method":"manual","keyId":"k"}}`)
	entry := func(name string, b []byte) tarball.Entry {
		return tarball.Entry{Name: name, Size: int64(len(b)), Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
	}
	path := filepath.Join(t.TempDir(), "big.tgz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tarball.Write(f, []tarball.Entry{entry("blob.bin", blob), entry("pack.json", manifest)}, tarball.WriteOptions{Level: 1}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pub, _, _ := ed25519.GenerateKey(nil)
	lim := tarball.Scaled(100)
	File(context.Background(), path, Policy{Key: pub, Limits: &lim}) // warm the readers' pools
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := File(context.Background(), path, Policy{Key: pub, Limits: &lim})
	runtime.ReadMemStats(&after)
	if r.Error == nil || r.Error.Code != "signature_missing" {
		t.Fatalf("got %+v, want signature_missing (after the whole tarball was read)", r.Error)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("verify of an 8 MiB tarball allocated %d bytes: the tarball must be streamed, not held", got)
	}
}

package pack

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

func noValidate(string, Options) error { return nil }

func paths(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func TestWhatGoesIn(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	res, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"LICENSE", "README.md", "docs/guide.md", "evals/helper.evals.json", "index.mjs", "keys/acme.pub",
		"pack.json", "prompts/helper.md", "schemas/greet.input.json", "schemas/greet.output.json"}
	if got := paths(res.Files); !slices.Equal(got, want) {
		t.Errorf("files\n got %v\nwant %v", got, want)
	}
	if !res.DryRun || res.Integrity == "" || res.Output != "vendor.acme.hello-1.0.0.tgz" {
		t.Errorf("dry-run result %+v", res)
	}
	if _, err := os.Stat(res.Output); err == nil {
		t.Error("dry run wrote the tarball")
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	key, _ := sign.GenerateKey(sign.Ed25519)
	keyPEM, _ := sign.MarshalPrivateKeyPEM(key, nil)
	der := key.(ed25519.PrivateKey)
	for _, tc := range []struct {
		name   string
		file   string
		data   []byte
		code   string
		inMsg  string
		ignore string
	}{
		{"pem key in keys/", "keys/dev.key", keyPEM, "pack_private_key", "keys/dev.key", ""},
		{"pem key inside a readme", "README.md", append([]byte("# Hi\n\n"), keyPEM...), "pack_private_key", "README.md", ""},
		{"openssh key", "keys/id_ed25519", []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n" + fake("b3Bl", 60, alnums) + "\n-----END OPENSSH PRIVATE KEY-----\n"), "pack_private_key", "keys/id_ed25519", ""},
		{"der pkcs8 key", "keys/k.der", mustPKCS8(t, der), "pack_private_key", "keys/k.der", ""},
		{"ignored key is fine", "keys/dev.key", keyPEM, "", "", "*.key\n"},
		{".env in schemas", "schemas/.env", []byte("TOKEN=x"), "pack_file_forbidden", "schemas/.env", ""},
		{".env.local", "prompts/.env.local", []byte("TOKEN=x"), "pack_file_forbidden", "prompts/.env.local", ""},
		{"node_modules", "schemas/node_modules/x/index.js", []byte("x"), "pack_file_forbidden", "schemas/node_modules", ""},
		{".git", "keys/.git/config", []byte("x"), "pack_file_forbidden", "keys/.git", ""},
		{"lock file", "schemas/package-lock.json", []byte("{}"), "pack_file_forbidden", "schemas/package-lock.json", ""},
		{"public key text is fine", "keys/other.pub", []byte("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAORLpnWQX+LXPEMbzfru6TnEolAq5bkg+mIcuoggEe/w=\n-----END PUBLIC KEY-----\n"), "", "", ""},
		{"the words private key are fine", "README.md", []byte("never commit your PRIVATE KEY"), "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixtures.CopyDir(t, "testdata/basic")
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, tc.data, 0o644)
			if tc.ignore != "" {
				os.WriteFile(filepath.Join(dir, IgnoreFile), []byte(tc.ignore), 0o644)
			}
			out := filepath.Join(t.TempDir(), "o.tgz")
			_, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate})
			if c := werr.CodeOf(err); c != tc.code {
				t.Fatalf("code %q, want %q (%v)", c, tc.code, err)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tc.inMsg) {
					t.Errorf("message %q does not name %s", err, tc.inMsg)
				}
				if _, serr := os.Stat(out); serr == nil {
					t.Error("a refused pack left a tarball")
				}
				if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 0 {
					t.Errorf("a refused pack left %d files behind", len(ents))
				}
			}
		})
	}
}

func mustPKCS8(t *testing.T, k ed25519.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func mtime(i int) time.Time { return time.Unix(int64(1e9+i*86400), 0) }

// Same bytes every run whatever the mtimes, modes and umask.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	var outs [][]byte
	for i, mode := range []os.FileMode{0o644, 0o600} {
		dir := fixtures.CopyDir(t, "testdata/basic")
		filepath.WalkDir(dir, func(p string, d os.DirEntry, _ error) error {
			if !d.IsDir() {
				os.Chmod(p, mode)
				os.Chtimes(p, mtime(i), mtime(i))
			}
			return nil
		})
		out := filepath.Join(t.TempDir(), "x.tgz")
		if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate, Concurrency: i + 1}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		outs = append(outs, data)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("two packs of the same tree differ")
	}
}

// Signing in the same step: the signature verifies over the in-tarball
// pack.json with openssl, GNU tar lists the tarball, and the version
// manifest carries the signing block and the integrity.
func TestSignedPackInterop(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	key, _ := sign.GenerateKey(sign.Ed25519)
	for _, method := range []string{sign.MethodManual, sign.MethodV2} {
		t.Run(method, func(t *testing.T) {
			s, err := sign.NewEd25519Signer(method, key, "acme-1")
			if err != nil {
				t.Fatal(err)
			}
			outDir := t.TempDir()
			out := filepath.Join(outDir, "hello.tgz")
			res, err := Pack(context.Background(), Options{Dir: dir, Output: out, Signer: s, Validate: noValidate, ForRegistry: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Signature == nil || *res.Signature != filepath.Join(outDir, "hello.sig") {
				t.Fatalf("signature path %v", res.Signature)
			}
			tgz, _ := os.ReadFile(out)
			x := fixtures.Untar(t, out, t.TempDir())
			pj, _ := os.ReadFile(filepath.Join(x, "pack.json"))
			sig, _ := os.ReadFile(*res.Signature)
			embedded, _ := os.ReadFile(filepath.Join(x, "keys", "pack.json.sig"))
			if !bytes.Equal(sig, embedded) || !ed25519.Verify(key.Public().(ed25519.PublicKey), pj, sig) {
				t.Fatal("signature does not verify over the in-tarball pack.json")
			}
			if !bytes.Contains(pj, []byte(`"description":"Says hello — <loudly> & politely"`)) {
				t.Errorf("pack.json not in JCS form: %s", pj)
			}
			var vm map[string]any
			vmData, _ := os.ReadFile(filepath.Join(outDir, "hello.json"))
			if err := json.Unmarshal(vmData, &vm); err != nil || vm["integrity"] != Integrity(tgz) || vm["signing"] == nil {
				t.Errorf("version manifest %s (%v)", vmData, err)
			}
			if _, err := exec.LookPath("openssl"); err != nil {
				t.Log("openssl not found: openssl check skipped")
			} else {
				pub, _ := sign.MarshalPublicKeyPEM(key.Public())
				os.WriteFile(filepath.Join(x, "k.pub"), pub, 0o644)
				o, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", filepath.Join(x, "k.pub"),
					"-rawin", "-in", filepath.Join(x, "pack.json"), "-sigfile", *res.Signature).CombinedOutput()
				if err != nil || !bytes.Contains(o, []byte("Verified Successfully")) {
					t.Errorf("openssl: %v %s", err, o)
				}
			}
			if _, err := exec.LookPath("tar"); err != nil {
				t.Log("tar not found: GNU tar check skipped")
			} else {
				o, err := exec.Command("tar", "-tvzf", out).CombinedOutput()
				if err != nil || !bytes.Contains(o, []byte("keys/pack.json.sig")) || !bytes.Contains(o, []byte("0/0")) {
					t.Errorf("tar -tvzf: %v\n%s", err, o)
				}
			}
		})
	}
}

func TestRegistryLimits(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	big := bytes.Repeat([]byte("x"), LimitEntry+1)
	os.WriteFile(filepath.Join(dir, "prompts", "big.md"), big, 0o644)
	out := filepath.Join(t.TempDir(), "o.tgz")
	if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate}); err != nil {
		t.Fatalf("without a registry target: %v", err)
	}
	_, err := Pack(context.Background(), Options{Dir: dir, Output: out + "2", Validate: noValidate, ForRegistry: true})
	if werr.CodeOf(err) != "pack_too_large" || !strings.Contains(err.Error(), "prompts/big.md") ||
		!strings.Contains(err.Error(), "5242881 bytes") || !strings.Contains(err.Error(), "5242880") {
		t.Errorf("registry limit: %v", err)
	}
}

func TestMissingReference(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	os.Remove(filepath.Join(dir, "docs", "guide.md"))
	_, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if werr.CodeOf(err) != "pack_file_missing" || !strings.Contains(err.Error(), "docs/guide.md") {
		t.Errorf("missing reference: %v", err)
	}
	if _, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, NoValidate: true}); err != nil {
		t.Errorf("--no-validate: %v", err)
	}
}

// A bare-name file reference is packed when it is a file; members that
// packref does not name as file references (peerRef, subChainRef...) are ids
// and never packed. (Issue 10 changed this contract: pack took any member
// ending in "Ref"; now one function, packref, says which members name files.)
func TestBareReferences(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	src, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	src = bytes.Replace(src, []byte(`"envelopeContractRef": "docs/guide.md"`), []byte(`"envelopeContractRef": "NOTES.txt", "peerRef": "core.openwop.other", "otherRef": "docs/guide.md"`), 1)
	os.WriteFile(filepath.Join(dir, "pack.json"), src, 0o644)
	res, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if err != nil {
		t.Fatal(err)
	}
	got := paths(res.Files)
	if !slices.Contains(got, "NOTES.txt") || slices.Contains(got, "docs/guide.md") || len(res.Missing) != 0 {
		t.Errorf("files %v missing %v", got, res.Missing)
	}
}

// sign TGZ: a registry fixture re-signed with another key in place verifies
// with that key, keeps every other file, and a hostile tarball is refused
// with nothing written.
func TestSignTarball(t *testing.T) {
	t.Parallel()
	src := fixtures.Tarball(t, "core.openwop.a2a", "1.1.0")
	dir := t.TempDir()
	tgz := filepath.Join(dir, "a2a.tgz")
	orig, _ := os.ReadFile(src)
	os.WriteFile(tgz, orig, 0o644)
	key, _ := sign.GenerateKey(sign.Ed25519)
	s, _ := sign.NewEd25519Signer(sign.MethodV2, key, "me-1")
	res, err := SignTarball(context.Background(), tgz, Options{Signer: s})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != tgz || *res.Signature != filepath.Join(dir, "a2a.sig") {
		t.Errorf("outputs %s %v", res.Output, res.Signature)
	}
	x := fixtures.Untar(t, tgz, t.TempDir())
	pj, _ := os.ReadFile(filepath.Join(x, "pack.json"))
	sig, _ := os.ReadFile(*res.Signature)
	if !ed25519.Verify(key.Public().(ed25519.PublicKey), pj, sig) || !bytes.Contains(pj, []byte(`"signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"}`)) {
		t.Errorf("re-signed pack.json does not verify: %s", pj)
	}
	y := fixtures.Untar(t, src, t.TempDir())
	for _, name := range []string{"index.mjs", "README.md", "schemas/list-tasks.output.json"} {
		a, _ := os.ReadFile(filepath.Join(x, name))
		b, _ := os.ReadFile(filepath.Join(y, name))
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s changed by re-signing", name)
		}
	}

	hostile := filepath.Join(dir, "hostile.tgz")
	os.WriteFile(hostile, []byte("\x1f\x8b not really gzip"), 0o644)
	if _, err := SignTarball(context.Background(), hostile, Options{Signer: s}); werr.CodeOf(err) != "tarball_corrupt" {
		t.Errorf("hostile: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "hostile.sig")); err == nil {
		t.Error("a refused tarball got a signature")
	}
}

// Symbolic links inside the pack are followed; links out of it are refused.
func TestSymlinks(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	if err := os.Symlink("greet.input.json", filepath.Join(dir, "schemas", "alias.json")); err != nil {
		t.Skip("symlinks unsupported here:", err)
	}
	res, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if err != nil || !slices.Contains(paths(res.Files), "schemas/alias.json") {
		t.Fatalf("inner link: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(outside, []byte("{}"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "schemas", "out.json"))
	_, err = Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if werr.CodeOf(err) != "pack_unsafe_entry" || !strings.Contains(err.Error(), "schemas/out.json") {
		t.Errorf("outer link: %v", err)
	}
}

// Signing drops the signatures a directory already held (here a stale
// keys/pack.json.sig and pack.json.sigstore) before adding its own.
func TestSigningReplacesOldSignatures(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	os.WriteFile(filepath.Join(dir, "keys", "pack.json.sig"), bytes.Repeat([]byte{7}, 64), 0o644)
	os.WriteFile(filepath.Join(dir, "pack.json.sigstore"), []byte("{}"), 0o644)
	key, _ := sign.GenerateKey(sign.Ed25519)
	s, _ := sign.NewEd25519Signer(sign.MethodManual, key, "k")
	out := filepath.Join(t.TempDir(), "o.tgz")
	if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Signer: s, Validate: noValidate}); err != nil {
		t.Fatal(err)
	}
	x := fixtures.Untar(t, out, t.TempDir())
	sig, _ := os.ReadFile(filepath.Join(x, "keys", "pack.json.sig"))
	pj, _ := os.ReadFile(filepath.Join(x, "pack.json"))
	if !ed25519.Verify(key.Public().(ed25519.PublicKey), pj, sig) {
		t.Error("the packed signature is not the new one")
	}
	if _, err := os.Stat(filepath.Join(x, "pack.json.sigstore")); err == nil {
		t.Error("a stale Sigstore bundle was packed")
	}
	// Without signing, the bundle is kept as it is.
	res, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, Validate: noValidate})
	if err != nil || !slices.Contains(paths(res.Files), "pack.json.sigstore") {
		t.Errorf("--sign none dropped the bundle: %v %v", err, paths(res.Files))
	}
}

// A reference that is not a clean path is refused with validate's rule id,
// never cleaned into the tarball or silently left out of it (issue 10).
func TestUncleanReferenceRefused(t *testing.T) {
	t.Parallel()
	for ref, rule := range map[string]string{"docs/../docs/guide.md": "OW016", "../outside.md": "OW005", "http://x.example/a": "OW005"} {
		dir := fixtures.CopyDir(t, "testdata/basic")
		src, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
		src = bytes.Replace(src, []byte(`"docs/guide.md"`), []byte(`"`+ref+`"`), 1)
		os.WriteFile(filepath.Join(dir, "pack.json"), src, 0o644)
		_, err := Pack(context.Background(), Options{Dir: dir, DryRun: true, NoValidate: true})
		if werr.CodeOf(err) != "pack_ref_invalid" || !strings.Contains(err.Error(), "["+rule+"]") || !strings.Contains(err.Error(), "/agents/0/envelopeContractRef") {
			t.Errorf("%s: %v", ref, err)
		}
	}
}

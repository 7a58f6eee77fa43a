package wizard

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/verify"
)

// TestWriteSignsVerifiably writes a mixed pack, packs and signs it with a
// new key, and checks the signature with openssl over the pack.json GNU tar
// extracts: independent of wopkit's own verifier.
func TestWriteSignsVerifiably(t *testing.T) {
	for _, tool := range []string{"openssl", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the independent signature check needs it", tool)
		}
	}
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.Name, a.Pack.Spec = "community.acme.signed", "v1" // manual signs a v1 pack
	a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = "manual", "new", filepath.Join(dir, "acme"), "acme-1"
	p := makePlan(testValidator, a)
	if p.Plan == nil {
		t.Fatalf("plan: %v %v", p.Err, p.Problems)
	}
	tgz := filepath.Join(dir, "out.tgz")
	res, err := create.Run(context.Background(), createOptions(testValidator, a, session{Options: Options{Dir: filepath.Join(dir, "pack"), Output: tgz}}, p.Plan))
	sum := res.Summary()
	if err != nil {
		t.Fatalf("write: %v\n%s", err, strings.Join(sum, "\n"))
	}
	if !strings.Contains(strings.Join(sum, "\n"), "wopkit verify "+tgz+" --key "+filepath.Join(dir, "acme.pub")) {
		t.Errorf("summary lacks the verify command:\n%s", strings.Join(sum, "\n"))
	}
	if fi, err := os.Stat(filepath.Join(dir, "acme.key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("private key: %v, mode %v", err, fi.Mode())
	}
	ex := filepath.Join(dir, "x")
	os.Mkdir(ex, 0o755)
	if out, err := exec.Command("tar", "-xzf", tgz, "-C", ex).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	out, err := exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", filepath.Join(dir, "acme.pub"),
		"-rawin", "-in", filepath.Join(ex, "pack.json"), "-sigfile", filepath.Join(ex, "keys/pack.json.sig")).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("Signature Verified Successfully")) {
		t.Fatalf("openssl does not verify the signature: %v %s", err, out)
	}
	for _, f := range []string{"evals/assistant.json", "prompts/assistant.md", "index.mjs"} {
		if _, err := os.Stat(filepath.Join(ex, f)); err != nil {
			t.Errorf("%s not packed", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ex, "pack.json")); bytes.Contains(b, []byte("PRIVATE KEY")) {
		t.Error("a private key was packed")
	}
}

// TestWriteEveryMethod packs and signs with each method the wizard offers
// and checks the result with wopkit's verifier.
func TestWriteEveryMethod(t *testing.T) {
	for _, m := range []string{"manual", "v2", "sigstore", "none"} {
		t.Run(m, func(t *testing.T) {
			dir := t.TempDir()
			a := newAnswers()
			a.What, a.Pack.Name = whatAgent, "community.acme.m"+m
			a.SignMethod, a.KeyChoice, a.KeyPath, a.KeyID = m, "new", filepath.Join(dir, "k"), "acme-1"
			if m == "manual" {
				a.Pack.Spec = "v1" // manual signs a v1 pack; a v2 pack's is refused
			}
			p := makePlan(testValidator, a)
			tgz := filepath.Join(dir, "out.tgz")
			if _, err := create.Run(context.Background(), createOptions(testValidator, a, session{Options: Options{Dir: filepath.Join(dir, "pack"), Output: tgz}}, p.Plan)); err != nil {
				t.Fatal(err)
			}
			if m == "none" {
				if _, err := os.Stat(filepath.Join(dir, "k.key")); err == nil {
					t.Error("a key was made for an unsigned pack")
				}
				return
			}
			pub, err := sign.LoadPublicKey(filepath.Join(dir, "k.pub"))
			if err != nil {
				t.Fatal(err)
			}
			pol := verify.Policy{Key: pub}
			if m == "sigstore" {
				if pol.Bundles, err = sigstore.NewVerifier(sigstore.VerifyOptions{Key: pub}); err != nil {
					t.Fatal(err)
				}
			}
			res := verify.File(context.Background(), tgz, pol)
			if !res.Verified || res.Method != m {
				t.Errorf("verified = %v, method %q (%+v)", res.Verified, res.Method, res.Error)
			}
		})
	}
}

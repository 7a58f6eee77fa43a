package sigstore

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// moduleDir finds a module's source in the module cache, or skips.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("cannot locate %s in the module cache: real-world bundle check skipped", mod)
	}
	return dir
}

func readOrSkip(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("%s not found: real-world bundle check skipped", p)
	}
	return b
}

// TestPublicGoodBundle verifies a bundle made in 2024 by the real public-good
// Sigstore (Fulcio certificate with embedded SCTs, Rekor entry) over a small
// text file, both shipped as test assets of sigstore/protobuf-specs, against
// the public-good trusted root shipped by sigstore-go. This checks the
// verifier, including the SCT requirement a root with CT logs turns on,
// against bytes wopkit did not make.
func TestPublicGoodBundle(t *testing.T) {
	assets := filepath.Join(moduleDir(t, "github.com/sigstore/protobuf-specs"), "gen/pb-rust/sigstore-protobuf-specs/assets")
	artifact := readOrSkip(t, filepath.Join(assets, "a.txt"))
	bundleJSON := readOrSkip(t, filepath.Join(assets, "a.txt.sigstore"))
	trustedRoot := filepath.Join(moduleDir(t, "github.com/sigstore/sigstore-go"), "pkg/testing/data/trusted-roots/public-good.json")
	readOrSkip(t, trustedRoot)
	const who, issuer = "a@tny.town", "https://github.com/login/oauth"

	tests := []struct {
		name     string
		opts     VerifyOptions
		artifact []byte
		code     string
	}{
		{"right signer", VerifyOptions{TrustedRoot: trustedRoot, CertIdentity: who, CertOIDCIssuer: issuer}, artifact, ""},
		{"right signer by regexp", VerifyOptions{TrustedRoot: trustedRoot, CertIdentityRegexp: `@tny\.town$`, CertOIDCIssuerRegexp: `^https://github\.com/`}, artifact, ""},
		{"wrong signer", VerifyOptions{TrustedRoot: trustedRoot, CertIdentity: "b@tny.town", CertOIDCIssuer: issuer}, artifact, CodeIdentityMismatch},
		{"wrong issuer", VerifyOptions{TrustedRoot: trustedRoot, CertIdentity: who, CertOIDCIssuer: "https://accounts.google.com"}, artifact, CodeIdentityMismatch},
		{"changed artifact", VerifyOptions{TrustedRoot: trustedRoot, CertIdentity: who, CertOIDCIssuer: issuer},
			bytes.Replace(artifact, []byte("sample"), []byte("simple"), 1), CodeArtifactMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := NewVerifier(tc.opts)
			must(t, err)
			id, err := v.VerifyBundle(context.Background(), bundleJSON, tc.artifact)
			if tc.code != "" {
				if werr.CodeOf(err) != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			must(t, err)
			if id.Identity != who || id.Issuer != issuer || id.LogIndex != 66794718 {
				t.Errorf("identity = %+v", id)
			}
		})
	}
}

// TestRealWorldBundle reads a bundle made by a real Fulcio and Rekor (a
// Sigstore scaffolding deployment; sigstore-go ships it as test data): the
// summary must read the identity, issuer and log index they wrote, and
// verification over another pack.json must be refused as another artifact's.
func TestRealWorldBundle(t *testing.T) {
	dir := moduleDir(t, "github.com/sigstore/sigstore-go")
	raw := readOrSkip(t, filepath.Join(dir, "pkg/testing/data/bundles/othername.sigstore.json"))
	id, err := Summarize(raw)
	must(t, err)
	if id.Identity != "foo!oidc.local" || id.Issuer != "http://oidc.local:8080" || id.LogIndex < 0 {
		t.Errorf("summary = %+v", id)
	}
	ver, err := NewVerifier(VerifyOptions{TrustedRoot: filepath.Join(dir, "pkg/testing/data/trusted-roots/scaffolding.json"),
		CertIdentity: "foo!oidc.local", CertOIDCIssuer: "http://oidc.local:8080"})
	must(t, err)
	if _, err := ver.VerifyBundle(context.Background(), raw, testPack); werr.CodeOf(err) != CodeArtifactMismatch {
		t.Errorf("verifying a real bundle over another pack.json: %v", err)
	}
}

package pack

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/werr"
)

// A key marker is found wherever it falls, across the scanner's chunk
// boundaries and through one-byte reads.
func TestScanPrivateKeyBoundaries(t *testing.T) {
	t.Parallel()
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

// Token-shaped strings are built at run time so that this file holds none.
func fake(prefix string, n int, alphabet string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[(i*7+3)%len(alphabet)])
	}
	return b.String()
}

const (
	upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnums      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789"
)

// Issue 10 item 10: secrets the scan missed, and known token formats. Each
// is found (named, never quoted); look-alikes are not.
func TestScanSecrets(t *testing.T) {
	t.Parallel()
	found := map[string]string{
		"AWS key id":           "aws_access_key_id = " + fake("AK"+"IA", 16, upperDigits) + "\n",
		"GitHub classic":       "token: " + fake("gh"+"p_", 36, alnums),
		"GitHub fine-grained":  fake("github"+"_pat_", 82, alnums+"_"),
		"npm token":            "//registry.npmjs.org/:_authToken=" + fake("np"+"m_", 36, alnums) + "\n",
		"npmrc legacy token":   "//registry.npmjs.org/:_authToken = 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n",
		"Slack":                "SLACK=" + fake("xo"+"xb-", 0, "") + "214365870921-3141592653589-" + fake("", 24, alnums),
		"Google API key":       `{"key": "` + fake("AI"+"za", 35, alnums+"-_") + `"}`,
		"private JWK":          `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`,
		"private JWK in a set": `{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH"}]}`,
	}
	for name, src := range newSecrets(t) {
		found[name] = src
	}
	for name, src := range found {
		what, err := scanPrivateKey(strings.NewReader(src))
		if err != nil || what == "" {
			t.Errorf("%s: not found (%v)", name, err)
		}
		if strings.Contains(what, src) {
			t.Errorf("%s: the description quotes the secret", name)
		}
	}
	clean := map[string]string{
		"AWS documentation key":  "AK" + "IAIOSFODNN7EXAMPLE",
		"word containing AKIA":   "XAK" + "IA" + strings.Repeat("B", 16),
		"too short ghp_":         fake("gh"+"p_", 20, alnums),
		"npmrc env reference":    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n",
		"public JWK":             `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}`,
		"schema with a d member": `{"type":"object","properties":{"d":{"type":"string"}},"d":"x"}`,
	}
	for name, src := range newNearMisses() {
		clean[name] = src
	}
	for name, src := range clean {
		if what, _ := scanPrivateKey(strings.NewReader(src)); what != "" {
			t.Errorf("%s reported as %s", name, what)
		}
	}
}

// A DER RSA key followed by a newline (as `openssl rsa -outform DER > f;
// echo >> f` leaves it) is still a private key; openssl makes the key.
func TestScanDERKeyWithTrailingNewline(t *testing.T) {
	t.Parallel()
	ossl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed")
	}
	dir := t.TempDir()
	for _, args := range [][]string{
		{"genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", dir + "/k.pem"},
		{"rsa", "-in", dir + "/k.pem", "-outform", "DER", "-traditional", "-out", dir + "/k.der"},
		{"pkey", "-in", dir + "/k.pem", "-outform", "DER", "-out", dir + "/k8.der"},
	} {
		if out, err := exec.Command(ossl, args...).CombinedOutput(); err != nil {
			t.Fatalf("openssl %v: %v\n%s", args, err, out)
		}
	}
	for _, f := range []string{"k.der", "k8.der"} {
		der, _ := os.ReadFile(dir + "/" + f)
		for _, suffix := range []string{"", "\n", "\r\n"} {
			if what, _ := scanPrivateKey(bytes.NewReader(append(bytes.Clone(der), suffix...))); what == "" {
				t.Errorf("%s followed by %q: not found", f, suffix)
			}
		}
	}
}

func TestSecretFileNames(t *testing.T) {
	t.Parallel()
	for _, n := range []string{".env", ".env.local", "prod.env", "config/staging.env", ".envrc", ".netrc", ".git-credentials", ".pgpass", ".pypirc"} {
		if forbiddenReason(n) == "" {
			t.Errorf("%s is packed", n)
		}
	}
	for _, n := range []string{"environment.md", "env.json", "schemas/envelope.json", ".npmrc"} {
		if why := forbiddenReason(n); why != "" {
			t.Errorf("%s refused as %s", n, why)
		}
	}
}

// The refusals of issue 10 item 10 end to end: each names the file and
// what it holds, never the secret.
func TestPackRefusesSecrets(t *testing.T) {
	t.Parallel()
	token := fake("np"+"m_", 36, alnums)
	for _, tc := range []struct{ file, data, code, what string }{
		{"prompts/.npmrc", "//registry.npmjs.org/:_authToken=" + token + "\n", "pack_secret", "npm auth token"},
		{"schemas/prod.env", "A=1", "pack_file_forbidden", "environment file"},
		{"keys/.envrc", "export A=1", "pack_file_forbidden", "direnv"},
		{"keys/signer.jwk", `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`, "pack_private_key", "JSON Web Key"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := fixtures.CopyDir(t, "testdata/basic")
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(tc.data), 0o644)
			_, err := Pack(context.Background(), Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Validate: noValidate})
			if werr.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.file) || !strings.Contains(err.Error(), tc.what) {
				t.Errorf("got %v, want %s naming %s and %q", err, tc.code, tc.file, tc.what)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Error("the message quotes the secret")
			}
		})
	}
}

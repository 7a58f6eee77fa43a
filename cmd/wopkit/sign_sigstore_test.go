package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/sign/sigstore/sigstoretest"
)

// Sigstore round trips through the real commands. Keyless signing talks to
// loopback stand-ins for Fulcio and Rekor (sigstoretest), through
// sigstore-go's real HTTP clients; nothing leaves the machine.

const sigstoreSigner = "dev@acme.test"

// verifyJSON runs verify --json and decodes its one object.
func verifyJSON(t *testing.T, args ...string) (map[string]any, int) {
	t.Helper()
	stdout, errOut, code := runCmd(t, append([]string{"verify", "--json"}, args...)...)
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("verify --json printed %q (stderr %q, exit %d)", stdout, errOut, code)
	}
	return m, code
}

func errCode(m map[string]any) string {
	if e, ok := m["error"].(map[string]any); ok {
		s, _ := e["code"].(string)
		return s
	}
	return ""
}

func TestSigstoreKeyedRoundTrip(t *testing.T) {
	t.Parallel()
	dir := writePack(t)
	out := t.TempDir()
	k, other := filepath.Join(out, "k"), filepath.Join(out, "other")
	for _, p := range []string{k, other} {
		if _, errOut, code := runCmd(t, "keygen", "--algorithm", "ecdsa-p256", "--out", p); code != 0 {
			t.Fatalf("keygen ecdsa-p256: exit %d %s", code, errOut)
		}
	}
	tgz := filepath.Join(out, "hello.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "sigstore", "--key", k+".key", "-o", tgz); code != 0 {
		t.Fatalf("pack --sign sigstore --key: exit %d %s", code, errOut)
	}
	for _, f := range []string{"hello.tgz", "hello.sigstore.json", "hello.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing output %s", f)
		}
	}
	m, code := verifyJSON(t, tgz, "--key", k+".pub")
	signer, _ := m["signer"].(map[string]any)
	if code != 0 || m["verified"] != true || m["method"] != "sigstore" || signer == nil {
		t.Fatalf("verify --key: exit %d %v", code, m)
	}
	stdout, _, code := runCmd(t, "inspect", tgz)
	if code != 0 || !strings.Contains(stdout, "signer:    key ") || !strings.Contains(stdout, "(keyed bundle), no transparency-log entry") {
		t.Errorf("inspect keyed: exit %d %s", code, stdout)
	}
	// A pack signed otherwise has no signer in inspect.
	plain := filepath.Join(out, "plain.tgz")
	runCmd(t, "pack", dir, "--no-validate", "-o", plain)
	if stdout, _, _ := runCmd(t, "inspect", plain, "--json"); strings.Contains(stdout, `"signer"`) {
		t.Errorf("inspect of an unsigned pack reports a signer: %s", stdout)
	}
	m, code = verifyJSON(t, tgz, "--key", other+".pub")
	if code != 1 || m["verified"] != false || errCode(m) != "sigstore_signature_invalid" {
		t.Errorf("verify with another key: exit %d %v", code, m)
	}
	// An Ed25519 key cannot make a Sigstore bundle every client verifies.
	ed := filepath.Join(out, "ed")
	runCmd(t, "keygen", "--out", ed)
	bad := filepath.Join(out, "bad.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "sigstore", "--key", ed+".key", "-o", bad); code != 1 ||
		!strings.Contains(errOut, "ECDSA P-256") {
		t.Errorf("ed25519 key: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a refused signing wrote its tarball")
	}
}

func TestSigstoreKeylessRoundTrip(t *testing.T) {
	v := sigstoretest.New(t)
	tr := v.TrustedRoot()
	dir := writePack(t)
	out := t.TempDir()
	token := v.Token(sigstoreSigner, time.Hour)
	t.Setenv("SIGSTORE_ID_TOKEN", token)
	tgz := filepath.Join(out, "hello.tgz")
	stdout, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "sigstore",
		"--fulcio-url", v.FulcioURL, "--rekor-url", v.RekorURL, "--trusted-root", tr, "-o", tgz)
	if code != 0 {
		t.Fatalf("pack --sign sigstore (keyless): exit %d %s", code, errOut)
	}
	if strings.Contains(stdout+errOut, token) {
		t.Error("pack printed the identity token")
	}
	for _, f := range []string{"hello.tgz", "hello.sigstore.json", "hello.json"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Errorf("missing output %s", f)
		} else if strings.Contains(string(data), token) {
			t.Errorf("%s contains the identity token", f)
		}
	}

	m, code := verifyJSON(t, tgz, "--trusted-root", tr, "--certificate-identity", sigstoreSigner,
		"--certificate-oidc-issuer", sigstoretest.Issuer)
	if code != 0 || m["verified"] != true || m["method"] != "sigstore" || m["coversOnly"] != "pack.json" {
		t.Fatalf("verify keyless: exit %d %v", code, m)
	}
	if !strings.Contains(mustJSON(t, m["signer"]), sigstoreSigner) || !strings.Contains(mustJSON(t, m["signer"]), sigstoretest.Issuer) {
		t.Errorf("verify --json does not report the signer: %v", m["signer"])
	}
	tests := []struct {
		name string
		args []string
		exit int
		code string
	}{
		{"wrong identity", []string{"--certificate-identity", "mallory@evil.test", "--certificate-oidc-issuer", sigstoretest.Issuer}, 1, "sigstore_identity_mismatch"},
		{"wrong issuer", []string{"--certificate-identity", sigstoreSigner, "--certificate-oidc-issuer", "https://accounts.google.com"}, 1, "sigstore_identity_mismatch"},
		{"another trusted root", []string{"--certificate-identity", sigstoreSigner, "--certificate-oidc-issuer", sigstoretest.Issuer,
			"--trusted-root", sigstoretest.New(t).TrustedRoot()}, 1, "sigstore_untrusted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{tgz, "--trusted-root", tr}, tc.args...)
			m, code := verifyJSON(t, args...)
			if code != tc.exit || m["verified"] != false || errCode(m) != tc.code {
				t.Errorf("exit %d %v, want exit %d %s", code, m, tc.exit, tc.code)
			}
		})
	}
	// No identity pinned: refused as a usage error, naming the flags.
	_, errOut, code = runCmd(t, "verify", tgz, "--trusted-root", tr)
	if code != 2 || !strings.Contains(errOut, "--certificate-identity") || !strings.Contains(errOut, "--certificate-oidc-issuer") {
		t.Errorf("verify without identity flags: exit %d %s", code, errOut)
	}

	// verify's text line and inspect name the signer and the log index.
	if stdout, errOut, code := runCmd(t, "verify", tgz, "--trusted-root", tr, "--certificate-identity", sigstoreSigner,
		"--certificate-oidc-issuer", sigstoretest.Issuer); code != 0 ||
		!strings.Contains(stdout, sigstoreSigner+" (issuer "+sigstoretest.Issuer+")") || !strings.Contains(stdout, "transparency-log index 4243") {
		t.Errorf("verify text: exit %d %q %s", code, stdout, errOut)
	}
	stdout, _, code = runCmd(t, "inspect", tgz)
	if code != 0 || !strings.Contains(stdout, "signer:    "+sigstoreSigner+" (issuer "+sigstoretest.Issuer+"), transparency-log index 4243") {
		t.Errorf("inspect text: exit %d %s", code, stdout)
	}
	stdout, _, code = runCmd(t, "inspect", tgz, "--json")
	var ins struct {
		Signing map[string]any `json:"signing"`
		Signer  map[string]any `json:"signer"`
		Entries []struct {
			Name string `json:"name"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(stdout), &ins); err != nil || code != 0 {
		t.Fatalf("inspect --json: exit %d %s", code, stdout)
	}
	if ins.Signer["identity"] != sigstoreSigner || ins.Signer["issuer"] != sigstoretest.Issuer || ins.Signer["logIndex"] != 4243.0 {
		t.Errorf("inspect --json signer keys are not camelCase: %v", ins.Signer)
	}
	if ins.Signing["method"] != "sigstore" || !strings.Contains(mustJSON(t, ins.Signer), sigstoreSigner) ||
		!strings.Contains(mustJSON(t, ins.Signer), "4243") || !strings.Contains(stdout, `"pack.json.sigstore"`) {
		t.Errorf("inspect --json: %s", stdout)
	}

	// Re-sign the tarball with `wopkit sign`: still verifies.
	re := filepath.Join(out, "resigned.tgz")
	if _, errOut, code := runCmd(t, "sign", tgz, "--method", "sigstore", "--fulcio-url", v.FulcioURL, "--rekor-url", v.RekorURL, "-o", re); code != 0 {
		t.Fatalf("sign TGZ --method sigstore: exit %d %s", code, errOut)
	}
	if m, code := verifyJSON(t, re, "--trusted-root", tr, "--certificate-identity", sigstoreSigner,
		"--certificate-oidc-issuer", sigstoretest.Issuer); code != 0 {
		t.Errorf("verify re-signed: exit %d %v", code, m)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSigstoreSignFailureWritesNothing: when a service fails half way, the
// command names it, exits with the right code, and leaves no output behind.
func TestSigstoreSignFailureWritesNothing(t *testing.T) {
	v := sigstoretest.New(t)
	dir := writePack(t)
	down := httptest.NewServer(nil)
	downURL := down.URL
	down.Close()
	tests := []struct {
		name    string
		token   string
		fulcio  string
		rekor   string
		exit    int
		mention string
	}{
		{"fulcio down", v.Token(sigstoreSigner, time.Hour), downURL, v.RekorURL, 3, "Fulcio at " + downURL},
		{"rekor down", v.Token(sigstoreSigner, time.Hour), v.FulcioURL, downURL, 3, "Rekor transparency log at " + downURL},
		{"expired token", v.Token(sigstoreSigner, -time.Minute), v.FulcioURL, v.RekorURL, 1, "identity token expired"},
		{"no token", "", v.FulcioURL, v.RekorURL, 2, "SIGSTORE_ID_TOKEN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SIGSTORE_ID_TOKEN", tc.token)
			out := t.TempDir()
			tgz := filepath.Join(out, "hello.tgz")
			_, errOut, code := runCmd(t, "pack", dir, "--no-validate", "--sign", "sigstore",
				"--fulcio-url", tc.fulcio, "--rekor-url", tc.rekor, "-o", tgz)
			if code != tc.exit || !strings.Contains(errOut, tc.mention) {
				t.Errorf("exit %d %q, want exit %d mentioning %q", code, errOut, tc.exit, tc.mention)
			}
			if tc.token != "" && strings.Contains(errOut, tc.token) {
				t.Error("the error output contains the identity token")
			}
			if left, _ := os.ReadDir(out); len(left) != 0 {
				t.Errorf("files left behind: %v", left)
			}
		})
	}
}

// TestSigstoreResignInPlaceFailure: re-signing a tarball in place when
// Fulcio is down leaves the input byte for byte as it was.
func TestSigstoreResignInPlaceFailure(t *testing.T) {
	v := sigstoretest.New(t)
	dir := writePack(t)
	out := t.TempDir()
	tgz := filepath.Join(out, "hello.tgz")
	if _, errOut, code := runCmd(t, "pack", dir, "--no-validate", "-o", tgz); code != 0 {
		t.Fatalf("pack: exit %d %s", code, errOut)
	}
	before, _ := os.ReadFile(tgz)
	down := httptest.NewServer(nil)
	downURL := down.URL
	down.Close()
	t.Setenv("SIGSTORE_ID_TOKEN", v.Token(sigstoreSigner, time.Hour))
	if _, errOut, code := runCmd(t, "sign", tgz, "--sign", "sigstore", "--fulcio-url", downURL, "--rekor-url", v.RekorURL); code != 3 ||
		!strings.Contains(errOut, "Fulcio") {
		t.Errorf("sign in place with Fulcio down: exit %d %s", code, errOut)
	}
	after, _ := os.ReadFile(tgz)
	if string(after) != string(before) {
		t.Error("a failed in-place re-sign changed the tarball")
	}
	if _, err := os.Stat(filepath.Join(out, "hello.sigstore.json")); err == nil {
		t.Error("a failed re-sign wrote a detached bundle")
	}
}

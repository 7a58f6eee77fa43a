package pack

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/openwop/wopkit/internal/fixtures"
)

const (
	hexLower = "0123456789abcdef"
	b64url   = alnums + "KLMNOPQRSTUVWXYZklmnopqrstuvwxyz-_"
)

// utf16LE is s as UTF-16 little endian with a byte-order mark, as a Windows
// editor saves it.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// leakKinds are the 30 credentials of issue 24 (item 10), 27 of which
// shipped: realistic values generated here, never real ones.
func leakKinds(t *testing.T) map[string]string {
	b64 := base64.StdEncoding.EncodeToString
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))
	serviceAccount, _ := json.Marshal(map[string]string{"type": "service_account", "client_email": "bot@acme.iam.gserviceaccount.com", "private_key": pemKey})
	wg := make([]byte, 32)
	for i := range wg {
		wg[i] = byte(i*37 + 11)
	}
	azure := make([]byte, 64)
	for i := range azure {
		azure[i] = byte(i*53 + 7)
	}
	return map[string]string{
		"OpenAI service-account key":  "OPENAI_API_KEY=" + fake("sk-"+"svcacct-", 74, b64url),
		"OpenAI admin key":            "OPENAI_ADMIN_KEY=" + fake("sk-"+"admin-", 74, b64url),
		"PyPI upload token":           "[pypi]\nusername = __token__\npassword = " + fake("pypi-"+"AgEIcHlwaS5vcmc", 70, b64url) + "\n",
		"Docker Hub token":            "DOCKER_TOKEN=" + fake("dckr"+"_pat_", 27, b64url),
		"docker config.json auth":     `{"auths": {"https://index.docker.io/v1/": {"auth": "` + b64([]byte("octocat:"+fake("", 20, alnums))) + `"}}}`,
		"GitLab deploy token":         "token: " + fake("gl"+"dt-", 20, b64url),
		"GitLab runner token":         "token = \"" + fake("gl"+"rt-", 20, b64url) + "\"",
		"Slack app token":             "SLACK_APP_TOKEN=" + "xa" + "pp-1-A0123456789-1234567890123-" + fake("", 64, hexLower),
		"Slack webhook":               `{"webhook": "https://hooks.slack.com/` + "services/T0" + fake("", 8, "ABCDEFGHJK0123456789") + "/B0" + fake("", 8, "ABCDEFGHJK0123456789") + "/" + fake("", 24, alnums) + `"}`,
		"Stripe webhook secret":       "STRIPE_WEBHOOK_SECRET=" + fake("wh"+"sec_", 32, alnums),
		"Google OAuth client secret":  `{"client_secret": "` + fake("GOC"+"SPX-", 28, b64url) + `"}`,
		"SendGrid key":                "SENDGRID_API_KEY=" + fake("S"+"G.", 22, b64url) + "." + fake("", 43, b64url),
		"Shopify token":               "SHOPIFY_TOKEN=" + fake("sh"+"pat_", 32, hexLower),
		"DigitalOcean token":          "DO_TOKEN=" + fake("do"+"p_v1_", 64, hexLower),
		"Twilio API key":              "TWILIO_API_KEY=" + fake("S"+"K", 32, hexLower),
		"Vault token":                 "VAULT_TOKEN=" + fake("hv"+"s.", 91, b64url),
		"Azure storage key":           "DefaultEndpointsProtocol=https;AccountName=acme;" + "Account" + "Key=" + b64(azure) + ";EndpointSuffix=core.windows.net",
		"age secret key":              "# created: 2026-01-01\n" + fake("AGE-"+"SECRET-KEY-1", 58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L") + "\n",
		"WireGuard private key":       "[Interface]\nAddress = 10.0.0.2/32\nPrivate" + "Key = " + b64(wg) + "\n",
		"password in a URL":           "DATABASE_URL=postgres://admin:" + fake("", 16, alnums) + "@db.internal.example:5432/app",
		"UTF-16 GitHub token":         utf16LE("token: " + fake("gh"+"p_", 36, alnums) + "\r\n"),
		"UTF-16 Slack app token":      utf16LE("xa" + "pp-1-A0123456789-1234567890123-" + fake("", 64, hexLower)),
		"JSON-escaped GitHub token":   `{"token": "gh` + `p\u005f` + fake("", 36, alnums) + `"}`,
		"JSON-escaped Stripe key":     `{"key": "sk\u005f` + `live\u005f` + fake("", 99, alnums) + `"}`,
		"PEM key in JSON":             string(serviceAccount),
		"PEM key with CRLF":           strings.ReplaceAll(pemKey, "\n", "\r\n"),
		"Anthropic admin key":         "ANTHROPIC_ADMIN_KEY=" + fake("sk-"+"ant-admin01-", 93, b64url) + "AA",
		"Databricks token":            "DATABRICKS_TOKEN=" + fake("da"+"pi", 32, hexLower),
		"Grafana Cloud token":         "GRAFANA_TOKEN=" + fake("gl"+"c_", 60, alnums+"+/"),
		"Hugging Face token (UTF-16)": utf16LE("HF_TOKEN=" + fake("h"+"f_", 34, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ")),
	}
}

// TestScanLeakKinds (issue 24, item 10): each of the 30 kinds is refused,
// named without being quoted.
func TestScanLeakKinds(t *testing.T) {
	t.Parallel()
	kinds := leakKinds(t)
	if len(kinds) != 30 {
		t.Fatalf("%d kinds", len(kinds))
	}
	for name, src := range kinds {
		what, err := scanSecrets(strings.NewReader(src), "config/settings.txt", newScanBudget())
		if err != nil || what == "" {
			t.Errorf("%s: not found (%v)", name, err)
			continue
		}
		if strings.Contains(src, what) || strings.Contains(what, src) {
			t.Errorf("%s: the description quotes the secret: %s", name, what)
		}
	}
}

// TestScanLeakLookAlikes: documentation's stand-ins for the new kinds are
// not credentials.
func TestScanLeakLookAlikes(t *testing.T) {
	t.Parallel()
	for name, src := range map[string]string{
		"compose example URL":        "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app",
		"URL password from the env":  "url: https://deploy:${DEPLOY_PASSWORD}@registry.example.com/",
		"URL password placeholder":   "https://user:password@example.com/",
		"URL with a port":            "see http://localhost:8080/docs and https://example.com:443/x",
		"auth that is no credential": `{"auth": {"type": "oauth2"}, "x": {"auth": "b2F1dGgy"}}`,
		"Vault docs token":           "VAULT_TOKEN=hvs.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	} {
		if what, err := scanSecrets(strings.NewReader(src), "README.md", newScanBudget()); what != "" || err != nil {
			t.Errorf("%s reported as %s (%v)", name, what, err)
		}
	}
}

// TestScanNoFalseAlarmOnTheRegistry: every file of every published pack in
// the fixture registry, and of the source packs, scans clean (real work),
// but for what gitleaks v8.30.1's own command line reports there too
// (gitleaksFinds).
func TestScanNoFalseAlarmOnTheRegistry(t *testing.T) {
	t.Parallel()
	n := 0
	found := map[string]bool{}
	for _, tgz := range fixtures.Tarballs(t, "") {
		fixtures.Each(t, tgz, func(name string, data []byte) {
			rel := strings.TrimPrefix(name, "package/")
			what, err := scanSecrets(bytes.NewReader(data), rel, newScanBudget())
			key := filepath.ToSlash(tgz) + "!" + name
			want := ""
			for suffix, w := range gitleaksFinds {
				if strings.HasSuffix(key, suffix) {
					want, found[suffix] = w, true
				}
			}
			if what != want || err != nil {
				t.Errorf("%s reported as %q (%v), want %q", key, what, err, want)
			}
			n++
		})
	}
	for suffix := range gitleaksFinds {
		if !found[suffix] {
			t.Errorf("%s is not in the fixture registry", suffix)
		}
	}
	src := fixtures.Path(t, "source-packs")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(src, p)
		if what, err := scanSecrets(f, filepath.ToSlash(rel), newScanBudget()); what != "" || err != nil {
			t.Errorf("source pack file %s reported as %s (%v)", rel, what, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files scanned clean", n)
}

// gitleaksFinds are the published files in which `gitleaks dir` (v8.30.1,
// default rules) reports a credential: a README's curl command whose
// Authorization header, on the line after the command's `\`, carries a
// bearer token (curl-auth-header). The scan refuses them as gitleaks does.
var gitleaksFinds = map[string]string{
	"vendor.openwop.rust-hello/-/1.0.0.tgz!README.md": "a credential (gitleaks rule curl-auth-header)",
}

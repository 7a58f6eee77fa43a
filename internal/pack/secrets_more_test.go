package pack

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"strings"
	"testing"
	"testing/iotest"
)

// newSecrets are the formats of the secret-scan issue, with realistic
// generated values (built at run time so that this file holds none).
func newSecrets(t *testing.T) map[string]string {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalECPrivateKey(key)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	b64 := base64.StdEncoding.EncodeToString
	sec40 := fake("", 40, alnums+"/+")
	return map[string]string{
		"Stripe test key":               "STRIPE_KEY=" + fake("sk"+"_test_", 99, alnums), // gitleaks' stripe-access-token: a test-mode key reads the account's test data
		"Stripe secret key":             "STRIPE_KEY=" + fake("sk"+"_live_", 99, alnums) + "\n",
		"Stripe legacy secret key":      `stripe.api_key = "` + fake("sk"+"_live_", 24, alnums) + `"`,
		"Stripe restricted key":         fake("rk"+"_live_", 99, alnums),
		"Anthropic API key":             "ANTHROPIC_API_KEY=" + fake("sk-"+"ant-api03-", 93, alnums+"-_") + "AA\n",
		"OpenAI project key":            `{"openai": "` + fake("sk-"+"proj-", 156, alnums+"-_") + `"}`,
		"OpenAI legacy key":             "OPENAI_API_KEY=" + fake("sk"+"-", 48, alnums) + "\n",
		"GitLab token":                  "token: " + fake("gl"+"pat-", 20, alnums+"-_") + "\n",
		"Hugging Face token":            "HF_TOKEN=" + fake("h"+"f_", 34, alnums) + "\n",
		"npmrc _auth":                   "registry=https://npm.example.com/\n_auth=" + b64([]byte("deploy:"+fake("", 20, alnums))) + "\n",
		"npmrc scoped _auth":            "//npm.example.com/:_auth = " + b64([]byte("ci:"+fake("", 16, alnums))) + "\n",
		"npmrc _password":               "//npm.example.com/:username=ci\n//npm.example.com/:_password=" + b64([]byte(fake("", 18, alnums))) + "\n",
		"AWS secret alone":              "[default]\naws_secret_access_key = " + sec40 + "\n",
		"AWS secret in the environment": "export AWS_SECRET_ACCESS_KEY=" + sec40 + "\n",
		"AWS secret in JSON":            `{"Credentials": {"SecretAccessKey": "` + sec40 + `", "SessionToken": "x"}}`,
		"kubeconfig client-key-data":    "users:\n- name: admin\n  user:\n    client-key-data: " + b64(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})) + "\n",
		"base64 PKCS#8 PEM":             "key: " + b64(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})),
	}
}

// newNearMisses look like newSecrets and are not secrets.
func newNearMisses() map[string]string {
	b64 := base64.StdEncoding.EncodeToString
	return map[string]string{
		"Stripe publishable key":       fake("pk"+"_live_", 99, alnums),
		"Anthropic docs placeholder":   "ANTHROPIC_API_KEY=sk-" + "ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"Anthropic short":              "use sk-" + "ant-... from the console",
		"OpenAI docs placeholder":      "sk-" + "proj-" + strings.Repeat("X", 48),
		"OpenAI 47 characters":         "sk" + "-" + fake("", 47, alnums),
		"task name":                    "the task-" + fake("", 48, alnums),
		"GitLab placeholder":           "gl" + "pat-xxxxxxxxxxxxxxxxxxxx",
		"Hugging Face docs":            "export HF_TOKEN=hf_" + "xxx",
		"Hugging Face placeholder":     "hf_" + strings.Repeat("x", 34),
		"npmrc _auth from environment": "_auth=${NPM_AUTH}\n_password=${NPM_PASSWORD}\n",
		"snake_case password":          "db_password=" + b64([]byte("not-npm-at-all")),
		"AWS documentation secret":     "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
		"AWS secret from environment":  "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
		"AWS secret 41 characters":     "aws_secret_access_key = " + fake("", 41, alnums),
		"kubeconfig certificate data":  "client-certificate-data: " + b64([]byte("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n")),
		"base64 public key":            b64([]byte("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n")),
	}
}

// Each secret is found wherever it falls against the scanner's 256 KiB
// windows (the bytes it reads after a marker may lie in the next one), and
// a token cut by a window's end at a valid length but longer in fact is
// not taken for one.
func TestScanWindowBoundaries(t *testing.T) {
	t.Parallel()
	const chunk = 256 << 10
	secrets := newSecrets(t)
	for name, src := range secrets {
		for _, off := range []int{chunk - len(src), chunk - len(src)/2, chunk - 3, chunk - 1000, 2*chunk - 5} {
			data := bytes.Repeat([]byte(" "), 3*chunk)
			copy(data[off:], src)
			if what, err := scanPrivateKey(bytes.NewReader(data)); what == "" || err != nil {
				t.Errorf("%s at %d: not found (%v)", name, off, err)
			}
		}
		if what, _ := scanPrivateKey(iotest.OneByteReader(strings.NewReader(src))); what == "" {
			t.Errorf("%s: not found through one-byte reads", name)
		}
	}
	// 60 characters: the window ends after 48 of them, a legacy OpenAI key's length.
	long := "sk" + "-" + fake("", 60, alnums)
	data := bytes.Repeat([]byte(" "), 2*chunk)
	copy(data[chunk-3-48:], long)
	if what, _ := scanPrivateKey(bytes.NewReader(data)); what != "" {
		t.Errorf("a 60-character run cut at 48 by the window reported as %s", what)
	}
}

// A private JSON Web Key is found in a JSON file of up to 1 MiB, beyond the
// scanner's first 256 KiB window.
func TestScanLargeJWK(t *testing.T) {
	t.Parallel()
	jwk := `{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`
	doc := `{"padding":"` + strings.Repeat(" ", 600<<10) + `","keys":[` + jwk + `]}`
	if what, _ := scanPrivateKey(strings.NewReader(doc)); what == "" {
		t.Error("a private JWK after 600 KiB of JSON not found")
	}
}

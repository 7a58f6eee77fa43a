package pack

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	gobuild "go/build"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	marker := []byte("-----BEGIN RSA PRIVATE KEY-----\n" + fake("MIIE", 60, alnums) + "\n")
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
	for _, key := range []string{
		"const key = `-----BEGIN PRIVATE KEY-----\n" + fake("MC4C", 44, alnums) + "\n-----END PRIVATE KEY-----`", // Ed25519: 64 characters
		"\"-----BEGIN EC PRIVATE KEY-----\\n\" +\n\t\"" + fake("MHcC", 60, alnums) + "\\n\" +\n\t\"" + fake("AwEH", 60, alnums) + "\\n-----END EC PRIVATE KEY-----\"",
		"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123\n\n" + fake("MIIE", 60, alnums) + "\n" + fake("q1w2", 60, alnums),
	} {
		if what, _ := scanPrivateKey(strings.NewReader(key)); what == "" {
			t.Errorf("a key's PEM block not found: %q", key)
		}
	}
	if what, _ := scanPrivateKey(iotest.OneByteReader(bytes.NewReader(small))); what == "" {
		t.Error("not found through one-byte reads")
	}
	for _, clean := range []string{"", "PRIVATE KEY", "-----BEGIN PUBLIC KEY-----", "-----BEGIN CERTIFICATE-----\nPRIVATE KEY",
		// Issue 45 item 4: documentation placeholders are no key.
		"-----BEGIN PRIVATE KEY-----<KEY>-----END PRIVATE KEY-----",
		"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n",
		"key: \"-----BEGIN PRIVATE KEY-----\\nYOUR_KEY_HERE\\n-----END PRIVATE KEY-----\\n\"",
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE...\n-----END OPENSSH PRIVATE KEY-----",
	} {
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

// Issue 45 item 4: a base64 run that starts before a window's end, off the
// grid of 4 from where the next window starts, and holds a token past that
// end is decoded from its real start (it shipped: the next window decoded
// it from the middle, to noise).
func TestScanDecodesRunAcrossChunks(t *testing.T) {
	t.Parallel()
	const chunk, keep = 256 << 10, 8 << 10
	token := fake("gh"+"p_", 36, alnums)
	for _, skew := range []int{0, 1, 2, 3} {
		start := chunk - 10000 - skew
		plain := strings.Repeat("lorem ipsum ", 1700) + "token=" + token + " end"
		run := base64.StdEncoding.EncodeToString([]byte(plain))
		if start+len(run)*3/4 < chunk+keep+100 || start+len(run) < chunk+keep {
			t.Fatalf("the run (%d bytes from %d) does not cross the first window's end", len(run), start)
		}
		filler := strings.Repeat("hello, world\n", start/13+1)[:start-1] + "\n"
		what, err := scanPrivateKey(strings.NewReader(filler + run + "\n"))
		if err != nil || !strings.Contains(what, "github-pat") {
			t.Errorf("skew %d: %q %v, want the encoded GitHub token", skew, what, err)
		}
	}
}

// gitleaksPrivateKey is gitleaks' private-key expression (v8.30.1), the
// independent check of a PEM refusal over real code.
var gitleaksPrivateKey = regexp.MustCompile(`(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S-]{64,}?KEY(?: BLOCK)?-----`)

// realScan is the scan of real code: what it cost and what it refused.
type realScan struct {
	files, refused        int
	bytes, work           int64
	maxSmallWork          int64 // files under 64 KiB
	maxSmallFile          string
	maxLargePerByte       float64 // files of 64 KiB or more
	maxLargeFile          string
	budgetHit, pemUnmatch []string
}

// tree scans the regular files under root up to 5 MiB each (the
// registry's limit), each with the production budget, until maxBytes
// (0: all).
func (rs *realScan) tree(root string, maxBytes int64, refusedLog func(string)) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || maxBytes > 0 && rs.bytes >= maxBytes {
			if d != nil && d.IsDir() && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && d.Name() == "cache" && filepath.Dir(p) == root {
			return fs.SkipDir // the module cache's downloads (zip files)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil || fi.Size() > 5<<20 || fi.Size() == 0 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		b := newScanBudget()
		what, err := scanSecrets(bytes.NewReader(data), filepath.ToSlash(rel), b)
		rs.files++
		rs.bytes += int64(len(data))
		rs.work += b.sc.Work
		if len(data) < 64<<10 && b.sc.Work > rs.maxSmallWork {
			rs.maxSmallWork, rs.maxSmallFile = b.sc.Work, p
		}
		if pb := float64(b.sc.Work) / float64(len(data)); len(data) >= 64<<10 && pb > rs.maxLargePerByte {
			rs.maxLargePerByte, rs.maxLargeFile = pb, p
		}
		if err != nil || b.sc.Work*10 > b.sc.Budget {
			rs.budgetHit = append(rs.budgetHit, fmt.Sprintf("%s: work %d, budget %d (%v)", p, b.sc.Work, b.sc.Budget, err))
		}
		if what != "" {
			rs.refused++
			refusedLog(p + ": " + what)
			if strings.HasPrefix(what, "a PEM ") && !gitleaksPrivateKey.Match(data) {
				rs.pemUnmatch = append(rs.pemUnmatch, p+": "+what)
			}
		}
		return nil
	})
}

func (rs *realScan) String() string {
	return fmt.Sprintf("%d files, %d bytes, work %d (%.2f a byte), %d refused; most work of a file under 64 KiB %d (%s), most a byte of a larger one %.1f (%s)",
		rs.files, rs.bytes, rs.work, float64(rs.work)/float64(max(rs.bytes, 1)), rs.refused, rs.maxSmallWork, rs.maxSmallFile, rs.maxLargePerByte, rs.maxLargeFile)
}

// TestScanRealCode (issue 45 item 4): over Go's own sources and the module
// cache (64 MiB of it; 16 MiB of GOROOT with -short), no file costs the
// scan a tenth of its budget, and no PEM block is refused that gitleaks'
// private-key rule does not find (a placeholder such as <KEY> was). What is
// refused is logged: the test keys Go and the modules ship are keys.
// WOPKIT_SCAN_MEASURE=DIR:DIR... scans those folders whole instead.
func TestScanRealCode(t *testing.T) {
	type root struct {
		dir string
		max int64
	}
	var roots []root
	if env := os.Getenv("WOPKIT_SCAN_MEASURE"); env != "" {
		for _, d := range filepath.SplitList(env) {
			roots = append(roots, root{d, 0})
		}
	} else {
		goroot := filepath.Join(gobuild.Default.GOROOT, "src")
		if _, err := os.Stat(filepath.Join(goroot, "go.mod")); err != nil {
			t.Skip("Go's sources are not installed (GOROOT/src): the scan of real code needs them")
		}
		roots = append(roots, root{goroot, 0})
		if testing.Short() {
			roots[0].max = 16 << 20
		}
		mod := os.Getenv("GOMODCACHE")
		if mod == "" && gobuild.Default.GOPATH != "" {
			mod = filepath.Join(filepath.SplitList(gobuild.Default.GOPATH)[0], "pkg", "mod")
		}
		if _, err := os.Stat(mod); err == nil && mod != "" {
			roots = append(roots, root{mod, 64 << 20})
		}
	}
	t.Parallel()
	for _, r := range roots {
		var rs realScan
		rs.tree(r.dir, r.max, func(s string) { t.Log("refused: " + s) })
		t.Logf("%s: %s", r.dir, &rs)
		for _, s := range rs.budgetHit {
			t.Errorf("a real file costs the scan a tenth of its budget or more: %s", s)
		}
		for _, s := range rs.pemUnmatch {
			t.Errorf("a PEM block gitleaks' private-key rule does not find is refused: %s", s)
		}
	}
}

package publish

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// keychainDoc is a discovery document laid out as the registry writes its
// own (two-space indentation, string arrays on one line), with one vendor
// key and its assignment.
const keychainDoc = `{
  "registryVersion": "1.0.0",
  "supportedNamespaces": ["core", "vendor", "community"],
  "endpoints": {
    "publicKey": "/keys/{keyId}.pub"
  },
  "signingKeys": [
    {
      "keyId": "myndhyve-internal-1",
      "algorithm": "ed25519",
      "publicKeyUrl": "/keys/myndhyve-internal-1.pub",
      "permittedNamespaces": ["vendor.myndhyve.*", "community.myndhyve.tools"],
      "operator": "MyndHyve",
      "status": "active"
    }
  ],
  "namespaceAssignments": [
    {
      "namespace": "vendor.myndhyve.*",
      "owner": "MyndHyve",
      "signingKeyId": "myndhyve-internal-1",
      "claimedAt": "2026-05-11",
      "contact": "https://github.com/myndhyve"
    },
    {
      "namespace": "community.other.*",
      "owner": "Other",
      "signingKeyId": "other-1",
      "claimedAt": "2026-05-11"
    }
  ]
}
`

// keychainRegistry makes a checkout (registry/ inside it) holding
// keychainDoc and the key it lists; it returns the checkout and that key's
// public half.
func keychainRegistry(t *testing.T, doc string) (string, ed25519.PublicKey) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "registry", ".well-known", "openwop-registry.json"), string(advertiseV2([]byte(doc))))
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "registry", "keys", "myndhyve-internal-1.pub"), string(pubPEM(t, pub)))
	return dir, pub
}

func pubPEM(t *testing.T, pub any) []byte {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// newPub writes a fresh Ed25519 public key to a file and returns it.
func newPub(t *testing.T) (string, ed25519.PublicKey) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "acme.pub")
	writeFile(t, p, string(pubPEM(t, pub)))
	return p, pub
}

var claimDay = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func addKey(t *testing.T, o KeyOptions) *KeyPlan {
	t.Helper()
	if o.Now.IsZero() {
		o.Now = claimDay
	}
	p, err := AddKey(o)
	if err != nil {
		t.Fatalf("AddKey: %v", err)
	}
	if !o.DryRun {
		if err := p.Apply(); err != nil {
			t.Fatalf("Apply: %v", err)
		}
	}
	return p
}

// The onboarding pull request, written: the two entries are added at the
// end of their arrays in the document's own layout, and not one byte of
// what was there changes; keys/<id>.pub is the key in the form openssl
// pkey -pubout writes; the registry's reader then finds the key, active
// and granted the namespace.
func TestAddKeyWritesTheOnboardingPullRequest(t *testing.T) {
	t.Parallel()
	dir, _ := keychainRegistry(t, keychainDoc)
	pubFile, pub := newPub(t)
	p := addKey(t, KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: pubFile, Namespaces: []string{"vendor.acme.*"},
		Owner: "Acme Corp", Contact: "https://github.com/acme"})
	wk := readFileT(t, filepath.Join(dir, "registry", ".well-known", "openwop-registry.json"))
	// Written by hand in the registry's layout (the fixture registry's own
	// entries read the same way).
	want := strings.Replace(string(advertiseV2([]byte(keychainDoc))), `      "status": "active"
    }
  ],`, `      "status": "active"
    },
    {
      "keyId": "acme-1",
      "algorithm": "ed25519",
      "publicKeyUrl": "/keys/acme-1.pub",
      "permittedNamespaces": ["vendor.acme.*"],
      "operator": "Acme Corp",
      "status": "active"
    }
  ],`, 1)
	want = strings.Replace(want, `      "claimedAt": "2026-05-11"
    }
  ]`, `      "claimedAt": "2026-05-11"
    },
    {
      "namespace": "vendor.acme.*",
      "owner": "Acme Corp",
      "signingKeyId": "acme-1",
      "claimedAt": "2026-12-01",
      "contact": "https://github.com/acme"
    }
  ]`, 1)
	if string(wk) != want {
		t.Errorf("discovery document:\n%s\nwant:\n%s", wk, want)
	}
	keyFile := readFileT(t, filepath.Join(dir, "registry", "keys", "acme-1.pub"))
	if string(keyFile) != string(pubPEM(t, pub)) || !bytes.HasPrefix(keyFile, []byte("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA")) || len(keyFile) != 113 {
		t.Errorf("keys/acme-1.pub = %q", keyFile)
	}
	root, err := registry.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	k, err := root.Key("acme-1")
	if err != nil {
		t.Fatal(err)
	}
	if k.Status != "active" || !k.Permits("vendor.acme.hello") || k.Permits("vendor.myndhyve.x") || !pub.Equal(k.Public) {
		t.Errorf("key as the registry reads it: %+v", k.KeyEntry)
	}
	if len(p.Changes) != 2 || p.Changes[0].Path != "keys/acme-1.pub" || p.Changes[1].Path != registry.WellKnown {
		t.Errorf("changes: %+v", p.Changes)
	}
	// A second run refuses: the key id is there now.
	if _, err := AddKey(KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: pubFile, Namespaces: []string{"vendor.acme.*"}}); werr.CodeOf(err) != CodeKeyExists {
		t.Errorf("second add: %v, want %s", err, CodeKeyExists)
	}
}

// The fixture registry's own discovery document (the live registry's
// bytes): the addition changes nothing else in it, and without --owner the
// namespace's org is recorded.
func TestAddKeyToTheFixtureRegistry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fixtures.CopyInto(t, fixtures.Registry(t), dir)
	before := readFileT(t, filepath.Join(dir, ".well-known", "openwop-registry.json"))
	pubFile, _ := newPub(t)
	p := addKey(t, KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: pubFile, Namespaces: []string{"vendor.acme.*", "community.acme.*"}})
	after := readFileT(t, filepath.Join(dir, ".well-known", "openwop-registry.json"))
	var b, a map[string]any
	if err := json.Unmarshal(before, &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(after, &a); err != nil {
		t.Fatal(err)
	}
	keys, assigns := a["signingKeys"].([]any), a["namespaceAssignments"].([]any)
	wantKey := map[string]any{"keyId": "acme-1", "algorithm": "ed25519", "publicKeyUrl": "/keys/acme-1.pub",
		"permittedNamespaces": []any{"vendor.acme.*", "community.acme.*"}, "operator": "acme", "status": "active"}
	if !reflect.DeepEqual(keys[len(keys)-1], wantKey) {
		t.Errorf("new signingKeys entry %v", keys[len(keys)-1])
	}
	for i, ns := range []string{"vendor.acme.*", "community.acme.*"} {
		want := map[string]any{"namespace": ns, "owner": "acme", "signingKeyId": "acme-1", "claimedAt": "2026-12-01"}
		if got := assigns[len(assigns)-2+i]; !reflect.DeepEqual(got, want) {
			t.Errorf("assignment %d: %v", i, got)
		}
	}
	a["signingKeys"], a["namespaceAssignments"] = keys[:len(keys)-1], assigns[:len(assigns)-2]
	if !reflect.DeepEqual(a, b) {
		t.Error("the rest of the discovery document changed")
	}
	// Every line of the old document is still there, in order: only lines
	// were added (a separator comma aside).
	if d := p.Diff; strings.Count(d, "\n-") != 0 && !onlyCommaRemovals(d) {
		t.Errorf("the diff removes lines:\n%s", d)
	}
	if !strings.Contains(string(after), `"permittedNamespaces": ["vendor.acme.*", "community.acme.*"],`) {
		t.Errorf("permittedNamespaces not on one line as the registry writes it:\n%s", after)
	}
}

// onlyCommaRemovals reports whether every line the diff removes comes back
// with a comma (the separator before an appended entry).
func onlyCommaRemovals(diff string) bool {
	lines := strings.Split(diff, "\n")
	added := map[string]bool{}
	for _, l := range lines {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			added[l[1:]] = true
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") && !added[l[1:]+","] {
			return false
		}
	}
	return true
}

// --dry-run writes nothing and shows what would be written as a unified
// diff: the key file created, the entries added.
func TestAddKeyDryRun(t *testing.T) {
	t.Parallel()
	dir, _ := keychainRegistry(t, keychainDoc)
	pubFile, _ := newPub(t)
	before := treeHashes(t, dir)
	p := addKey(t, KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: pubFile, Namespaces: []string{"vendor.acme.*"}, DryRun: true})
	sameTree(t, before, treeHashes(t, dir))
	for _, s := range []string{"--- /dev/null\n+++ b/keys/acme-1.pub\n", "+-----BEGIN PUBLIC KEY-----\n",
		"--- a/.well-known/openwop-registry.json\n+++ b/.well-known/openwop-registry.json\n", `+      "keyId": "acme-1",`,
		`+      "signingKeyId": "acme-1",`, "\n@@ "} {
		if !strings.Contains(p.Diff, s) {
			t.Errorf("diff lacks %q:\n%s", s, p.Diff)
		}
	}
}

// What the registry would refuse at review is refused, and nothing is
// written.
func TestAddKeyRefusals(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	edPriv, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	privPEM, err := sign.MarshalPrivateKeyPEM(edPriv, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, _ := newPub(t)
	goodPEM := readFileT(t, good)
	ecdsaPub := file("ecdsa.pub", pubPEM(t, &ec.PublicKey))
	private := file("private.key", privPEM)
	sshPub := file("ssh.pub", []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host\n"))
	garbage := file("garbage.pub", []byte("hello\n"))
	twoBlocks := file("two.pub", append(append([]byte{}, goodPEM...), goodPEM...))

	tests := []struct {
		name string
		o    KeyOptions
		doc  string // "" for keychainDoc
		code string
		same bool // the registry's own key file as --public-key
	}{
		{"key id already there", KeyOptions{KeyID: "myndhyve-internal-1", Namespaces: []string{"vendor.acme.*"}}, "", CodeKeyExists, false},
		{"key id there in another letter case", KeyOptions{KeyID: "MyndHyve-Internal-1", Namespaces: []string{"vendor.acme.*"}}, "", CodeKeyExists, false},
		{"key id listed in another letter case, its file absent", KeyOptions{KeyID: "nofile-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, "  ],\n  \"namespaceAssignments\"", "  ,{\"keyId\": \"NoFile-1\"}\n  ],\n  \"namespaceAssignments\"", 1), CodeKeyExists, false},
		{"public key already there", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}}, "", CodeKeyExists, true},
		{"namespace granted to another key", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.myndhyve.*"}}, "", CodeNamespaceClaimed, false},
		{"namespace inside another key's", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.myndhyve.ads.*"}}, "", CodeNamespaceClaimed, false},
		{"namespace holding another key's pack", KeyOptions{KeyID: "acme-1", Namespaces: []string{"community.myndhyve.*"}}, "", CodeNamespaceClaimed, false},
		{"namespace in another letter case", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*", "community.myndhyve.tOOLS"}}, "", CodeNamespaceClaimed, false},
		{"namespace assigned to another key", KeyOptions{KeyID: "acme-1", Namespaces: []string{"community.other.x"}}, "", CodeNamespaceClaimed, false},
		{"core namespace", KeyOptions{KeyID: "acme-1", Namespaces: []string{"core.acme.*"}}, "", CodeNamespaceOutside, false},
		{"a whole tier", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.*"}}, "", CodeNamespaceOutside, false},
		{"private, even forced", KeyOptions{KeyID: "acme-1", Namespaces: []string{"private.acme.*"}, Force: true}, "", CodeNamespaceOutside, false},
		{"not a namespace", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.Acme.*"}}, "", "usage", false},
		{"a bare prefix", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme"}}, "", "usage", false},
		{"key id with a slash", KeyOptions{KeyID: "../acme", Namespaces: []string{"vendor.acme.*"}}, "", "usage", false},
		{"owner with a control character", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}, Owner: "Acme\x1b[2J"}, "", "usage", false},
		{"contact not a URL", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}, Contact: "javascript:alert(1)"}, "", "usage", false},
		{"ECDSA key", KeyOptions{KeyID: "acme-1", PublicKey: ecdsaPub, Namespaces: []string{"vendor.acme.*"}}, "", "key_algorithm_unsupported", false},
		{"a private key", KeyOptions{KeyID: "acme-1", PublicKey: private, Namespaces: []string{"vendor.acme.*"}}, "", "key_invalid", false},
		{"an OpenSSH key", KeyOptions{KeyID: "acme-1", PublicKey: sshPub, Namespaces: []string{"vendor.acme.*"}}, "", "key_invalid", false},
		{"not PEM", KeyOptions{KeyID: "acme-1", PublicKey: garbage, Namespaces: []string{"vendor.acme.*"}}, "", "key_invalid", false},
		{"two PEM blocks", KeyOptions{KeyID: "acme-1", PublicKey: twoBlocks, Namespaces: []string{"vendor.acme.*"}}, "", "key_invalid", false},
		{"duplicate key ids in another letter case", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, "  ],\n  \"namespaceAssignments\"", "  ,{\"keyId\": \"MYNDHYVE-internal-1\", \"status\": \"active\"}\n  ],\n  \"namespaceAssignments\"", 1), CodeKeychainInvalid, false},
		{"signingKeys not an array", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			`{"signingKeys": {"keyId": "x"}, "namespaceAssignments": []}`, CodeKeychainInvalid, false},
		{"namespaceAssignments not an array", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			`{"signingKeys": [], "namespaceAssignments": "vendor.acme.*"}`, CodeKeychainInvalid, false},
		{"a key entry without keyId", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			`{"signingKeys": [{"keyID": "x"}]}`, CodeKeychainInvalid, false},
		{"a member named twice in another letter case", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			`{"signingKeys": [], "SigningKeys": [{"keyId": "acme-1"}]}`, "json_duplicate_member", false},
		{"not JSON", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}}, `{"signingKeys": [`, "", false},
		{"not an object", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}}, `[]`, CodeKeychainInvalid, false},
		{"key URL with a scheme", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"https://keys.evil.example/{keyId}.pub"`, 1), "registry_key_url_invalid", false},
		{"key URL to another host", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"//keys.evil.example/{keyId}.pub"`, 1), "registry_key_url_invalid", false},
		{"key URL with ..", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"/keys/../../{keyId}.pub"`, 1), "registry_key_url_invalid", false},
		{"key URL with a backslash", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"/keys\\\\evil/{keyId}.pub"`, 1), "registry_key_url_invalid", false},
		{"key URL with an encoded slash", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"/keys%2F..%2Fevil/{keyId}.pub"`, 1), "registry_key_url_invalid", false},
		{"key URL relative", KeyOptions{KeyID: "acme-1", Namespaces: []string{"vendor.acme.*"}},
			strings.Replace(keychainDoc, `"/keys/{keyId}.pub"`, `"keys/{keyId}.pub"`, 1), "registry_key_url_invalid", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := tt.doc
			if doc == "" {
				doc = keychainDoc
			}
			dir, _ := keychainRegistry(t, doc)
			o := tt.o
			o.Registry, o.Now = dir, claimDay
			if o.PublicKey == "" {
				o.PublicKey = good
			}
			if tt.same {
				o.PublicKey = filepath.Join(dir, "registry", "keys", "myndhyve-internal-1.pub")
			}
			before := treeHashes(t, dir)
			_, err := AddKey(o)
			if err == nil {
				t.Fatal("accepted")
			}
			if tt.code != "" && werr.CodeOf(err) != tt.code {
				t.Errorf("code %q (%v), want %s", werr.CodeOf(err), err, tt.code)
			}
			if tt.code == "" && werr.CodeOf(err) == "" {
				t.Errorf("no code: %v", err)
			}
			if strings.Contains(err.Error(), "PRIVATE KEY-----") || strings.Contains(err.Error(), string(privPEM[30:60])) {
				t.Errorf("the error shows the private key: %v", err)
			}
			sameTree(t, before, treeHashes(t, dir))
		})
	}
	t.Run("forced outside the tiers", func(t *testing.T) {
		t.Parallel()
		dir, _ := keychainRegistry(t, keychainDoc)
		addKey(t, KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: good, Namespaces: []string{"core.acme.*"}, Force: true})
	})
	t.Run("a stray key file in another letter case", func(t *testing.T) {
		t.Parallel()
		dir, _ := keychainRegistry(t, keychainDoc)
		writeFile(t, filepath.Join(dir, "registry", "keys", "ACME-1.pub"), string(goodPEM))
		if _, err := AddKey(KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: good, Namespaces: []string{"vendor.acme.*"}}); werr.CodeOf(err) != CodeKeyExists {
			t.Errorf("%v, want %s", err, CodeKeyExists)
		}
	})
	t.Run("a huge discovery document", func(t *testing.T) {
		t.Parallel()
		dir, _ := keychainRegistry(t, keychainDoc)
		huge := `{"signingKeys": [], "pad": "` + strings.Repeat("x", 5<<20) + `"}`
		writeFile(t, filepath.Join(dir, "registry", ".well-known", "openwop-registry.json"), huge)
		_, err := AddKey(KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: good, Namespaces: []string{"vendor.acme.*"}})
		if werr.CodeOf(err) != "file_too_large" {
			t.Errorf("%v, want file_too_large", err)
		}
	})
}

// A key file of the checkout that is a link leading out of the registry
// root is refused, not followed; so is a discovery document that is one.
func TestAddKeyRefusesLinksOut(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	good, _ := newPub(t)
	writeFile(t, filepath.Join(outside, "k.pub"), string(readFileT(t, good)))
	writeFile(t, filepath.Join(outside, "wk.json"), keychainDoc)
	for _, tt := range []struct{ name, link, target string }{
		{"a .pub", filepath.Join("keys", "myndhyve-internal-1.pub"), filepath.Join(outside, "k.pub")},
		{"the discovery document", filepath.Join(".well-known", "openwop-registry.json"), filepath.Join(outside, "wk.json")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := keychainRegistry(t, keychainDoc)
			p := filepath.Join(dir, "registry", tt.link)
			os.Remove(p)
			if err := os.Symlink(tt.target, p); err != nil {
				t.Skipf("cannot make a symbolic link here: %v", err)
			}
			before := treeHashes(t, dir)
			_, err := AddKey(KeyOptions{Registry: dir, KeyID: "acme-1", PublicKey: good, Namespaces: []string{"vendor.acme.*"}})
			if werr.CodeOf(err) != "path_outside_root" {
				t.Errorf("%v, want path_outside_root", err)
			}
			sameTree(t, before, treeHashes(t, dir))
			kc, err := ListKeys(dir)
			if tt.link == filepath.Join("keys", "myndhyve-internal-1.pub") && (err != nil || kc.Keys[0].KeyFileState != "path_outside_root") {
				t.Errorf("list: %v %+v", err, kc)
			}
			if tt.link != filepath.Join("keys", "myndhyve-internal-1.pub") && werr.CodeOf(err) != "path_outside_root" {
				t.Errorf("list: %v, want path_outside_root", err)
			}
		})
	}
}

// The registry's own scripts accept the checkout after keychain add and a
// publish signed with the added key: verify-signatures.mjs finds the key
// at keys/<keyId>.pub and the pack inside its permittedNamespaces;
// check-registry-signer-consistency.mjs and the index and SBOM checks pass.
func TestAddKeyThenPublishPassesTheRegistryScripts(t *testing.T) {
	t.Parallel()
	oracle := oracleRegistry(t)
	key, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	pubFile := filepath.Join(t.TempDir(), "test.pub")
	if err := sign.WritePublicKey(pubFile, key.Public(), false); err != nil {
		t.Fatal(err)
	}
	addKey(t, KeyOptions{Registry: oracle, KeyID: testKeyID, PublicKey: pubFile, Namespaces: []string{"community.wopkit-test.*"},
		Owner: "wopkit tests", Contact: "https://github.com/openwop/wopkit"})
	tgz := release(t, key, sign.MethodManual, "community.wopkit-test.hello", "1.0.0", nil)
	if p := publishOK(t, Options{Tarball: tgz, Registry: oracle, Spec: SpecV1}); p.NoOp {
		t.Fatal("nothing staged")
	}
	checkWithScripts(t, oracle)
}

// keychain list shows every entry with its status (none written is
// active, as the scripts read it), namespaces, assignments and key file
// state; it refuses what add refuses to read.
func TestListKeys(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(keychainDoc, "  ],\n  \"namespaceAssignments\"",
		"  ,{\"keyId\": \"old-1\", \"permittedNamespaces\": [\"vendor.old.*\"], \"status\": \"rotated\"}\n"+
			"  ,{\"keyId\": \"bare-1\"}\n  ],\n  \"namespaceAssignments\"", 1)
	dir, _ := keychainRegistry(t, doc)
	writeFile(t, filepath.Join(dir, "registry", "keys", "old-1.pub"), "not a key\n")
	kc, err := ListKeys(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []ListedKey{
		{KeyID: "myndhyve-internal-1", Algorithm: "ed25519", Status: "active", PermittedNamespaces: []string{"vendor.myndhyve.*", "community.myndhyve.tools"},
			Operator: "MyndHyve", Assigned: []string{"vendor.myndhyve.*"}, KeyFile: "keys/myndhyve-internal-1.pub", KeyFileState: "ok"},
		{KeyID: "old-1", Status: "rotated", PermittedNamespaces: []string{"vendor.old.*"}, Assigned: []string{}, KeyFile: "keys/old-1.pub", KeyFileState: "key_invalid"},
		{KeyID: "bare-1", Status: "active", PermittedNamespaces: []string{}, Assigned: []string{}, KeyFile: "keys/bare-1.pub", KeyFileState: "missing"},
	}
	if !reflect.DeepEqual(kc.Keys, want) {
		t.Errorf("got  %+v\nwant %+v", kc.Keys, want)
	}
	for _, bad := range []string{`{"signingKeys": "x"}`, `{"signingKeys": [{"keyId": "a"}, {"keyId": "A"}]}`, `nope`} {
		d, _ := keychainRegistry(t, bad)
		if _, err := ListKeys(d); werr.CodeOf(err) == "" {
			t.Errorf("%s: %v, want a refusal with a code", bad, err)
		}
	}
}

// A release signed with a key the keychain lacks is refused with the
// `wopkit keychain add` that onboards it: the registry, the key id, the
// .pub beside the tarball that verifies its signature (whatever its name)
// and the pack's namespace; running what it says lets the release through.
func TestUnknownKeyNamesKeychainAdd(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	key, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	tgz := release(t, key, sign.MethodV2, "community.wopkit-test.hello", "1.0.0", nil)
	other, _ := newPub(t) // a .pub that does not verify, first in order
	writeFile(t, filepath.Join(filepath.Dir(tgz), "a-other.pub"), string(readFileT(t, other)))
	pub := filepath.Join(filepath.Dir(tgz), "mine.pub")
	if err := sign.WritePublicKey(pub, key.Public(), false); err != nil {
		t.Fatal(err)
	}
	_, err = Stage(t.Context(), Options{Tarball: tgz, Registry: dir})
	var we *werr.Error
	if !errors.As(err, &we) || we.Code != "key_unknown" {
		t.Fatalf("%v, want key_unknown", err)
	}
	want := "wopkit keychain add --registry " + dir + " --key-id " + testKeyID + " --public-key " + pub + " --namespace 'community.wopkit-test.*'"
	if !strings.Contains(we.Hint, want) {
		t.Fatalf("hint %q\nlacks %q", we.Hint, want)
	}
	addKey(t, KeyOptions{Registry: dir, KeyID: testKeyID, PublicKey: pub, Namespaces: []string{"community.wopkit-test.*"}})
	publishOK(t, Options{Tarball: tgz, Registry: dir})

	// No .pub that verifies: a placeholder, said.
	if err := os.Remove(pub); err != nil {
		t.Fatal(err)
	}
	_, err = Stage(t.Context(), Options{Tarball: tgz, Registry: minimalRegistry(t)})
	if !errors.As(err, &we) || !strings.Contains(we.Hint, "--public-key PUB --namespace 'community.wopkit-test.*' (PUB: the .pub of the key you signed with)") {
		t.Errorf("%v: hint %q", err, we.Hint)
	}
}

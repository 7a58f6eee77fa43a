package registry

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// forged is a registry root written for a test: a keychain holding team-1
// (its key at keys/team-1.pub) and a stranger's key lying elsewhere in the
// tree, one v1 version manifest and per-pack index.
type forged struct {
	root       string
	team, evil ed25519.PublicKey
}

func forge(t *testing.T, keychain string) *forged {
	t.Helper()
	f := &forged{root: t.TempDir()}
	tk, _ := sign.GenerateKey(sign.Ed25519)
	ek, _ := sign.GenerateKey(sign.Ed25519)
	f.team, f.evil = tk.Public().(ed25519.PublicKey), ek.Public().(ed25519.PublicKey)
	teamPEM, _ := sign.MarshalPublicKeyPEM(f.team)
	evilPEM, _ := sign.MarshalPublicKeyPEM(f.evil)
	f.write(t, "keys/team-1.pub", string(teamPEM))
	f.write(t, "evil/evil.pub", string(evilPEM))
	f.write(t, "keys/evil.pub", string(evilPEM))
	f.write(t, WellKnown, `{"signingKeys":[`+keychain+`]}`)
	f.write(t, "v1/packs/acme.x/-/1.0.0.json", `{"name":"acme.x","version":"1.0.0","integrity":"sha256-x","signing":{"method":"manual","publicKeyRef":"team-1"},"yanked":true}`)
	f.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","latest":"1.0.0","versions":[{"version":"1.0.0","yanked":true}]}`)
	return f
}

func (f *forged) write(t *testing.T, rel, data string) {
	t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const teamEntry = `{"keyId":"team-1","algorithm":"ed25519","permittedNamespaces":["acme.*"],"status":"active"`

// Issue item 3: the keychain is read as the registry's scripts read it. A
// key is loaded from keys/<keyId>.pub (verify-signatures.mjs), never from
// publicKeyUrl, and a member hidden under another letter case neither
// fills a field nor overrides one.
func TestKeychainReadAsTheRegistryScriptsRead(t *testing.T) {
	for name, extra := range map[string]string{
		"publicKeyUrl elsewhere":     `,"publicKeyUrl":"/evil/evil.pub"`,
		"hidden PublicKeyUrl":        `,"PublicKeyUrl":"/evil/evil.pub"`,
		"publicKeyUrl to another id": `,"publicKeyUrl":"/keys/evil.pub"`,
		"a URL":                      `,"publicKeyUrl":"https://evil.example/evil.pub"`,
	} {
		t.Run(name, func(t *testing.T) {
			f := forge(t, teamEntry+extra+`}`)
			r, err := Open(f.root)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			k, err := r.Key("team-1")
			if err != nil {
				t.Fatal(err)
			}
			if !f.team.Equal(k.Public) || k.Path != filepath.Join(f.root, "keys", "team-1.pub") {
				t.Errorf("team-1 loaded from %s, not keys/team-1.pub", k.Path)
			}
			if r.KeyFor(f.evil) != nil {
				t.Error("the stranger's key is taken for a keychain key")
			}
		})
	}
	refused := map[string]string{
		"publicKeyUrl twice":         teamEntry + `,"publicKeyUrl":"/keys/team-1.pub","PublicKeyUrl":"/evil/evil.pub"}`,
		"revoked, revived as Status": `{"keyId":"team-1","status":"revoked","Status":"active","PermittedNamespaces":["*"],"permittedNamespaces":["acme.*"]}`,
		"keyId twice":                `{"keyId":"team-1","KeyId":"evil","status":"active"}`,
	}
	for name, keychain := range refused {
		t.Run(name, func(t *testing.T) {
			f := forge(t, keychain)
			if r, err := Open(f.root); werr.CodeOf(err) != untrusted.CodeJSONDuplicate {
				t.Errorf("opened (%v), want %s", err, untrusted.CodeJSONDuplicate)
				if r != nil {
					k, _ := r.Key("team-1")
					t.Logf("key read: %+v", k)
				}
			} else if !strings.Contains(err.Error(), WellKnown) {
				t.Errorf("the error does not name the file: %v", err)
			}
		})
	}
	// A grant hidden under another letter case grants nothing.
	f := forge(t, `{"keyId":"team-1","status":"active","PermittedNamespaces":["*","other.*"]}`)
	r, err := Open(f.root)
	if err != nil {
		t.Fatal(err)
	}
	if k, err := r.Key("team-1"); err != nil || k.Permits("other.x") || len(k.PermittedNamespaces) != 0 {
		t.Errorf("hidden PermittedNamespaces read: %+v %v", k, err)
	}
	// A key id that cannot name a file in keys/ is refused.
	for _, id := range []string{"../evil/evil", "..", "a/b", `a\b`} {
		f := forge(t, `{"keyId":`+quote(id)+`,"status":"active"}`)
		r, err := Open(f.root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Key(id); werr.CodeOf(err) != "key_id_invalid" {
			t.Errorf("key id %q: %v", id, err)
		}
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// Version manifests and per-pack indexes are read through the layer too:
// a yank hidden by a member in another letter case is refused, not read
// as false.
func TestLifecycleReadAsTheRegistryScriptsRead(t *testing.T) {
	f := forge(t, teamEntry+`}`)
	r, err := Open(f.root)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := r.Version("acme.x", "1.0.0"); err != nil || !v.Yanked {
		t.Fatalf("plain manifest: %+v %v", v, err)
	}
	f.write(t, "v1/packs/acme.x/-/1.0.0.json", `{"name":"acme.x","version":"1.0.0","integrity":"sha256-x","yanked":true,"YANKED":false}`)
	if _, err := r.Version("acme.x", "1.0.0"); werr.CodeOf(err) != untrusted.CodeJSONDuplicate {
		t.Errorf("hidden yank in the version manifest: %v", err)
	}
	f.write(t, "v1/packs/acme.x/-/1.0.0.json", `{"name":"acme.x","version":"1.0.0","Yanked":true}`)
	if v, err := r.Version("acme.x", "1.0.0"); err != nil || v.Yanked {
		t.Errorf("Yanked is not yanked to JSON.parse: %+v %v", v, err)
	}
	f.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","versions":[{"version":"1.0.0","yanked":true,"YANKED":false}]}`)
	if _, err := r.Index(TreeV1, "acme.x"); werr.CodeOf(err) != untrusted.CodeJSONDuplicate {
		t.Errorf("hidden yank in the index: %v", err)
	}
	f.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","versions":[{"version":"1.0.0","signingKeyId":"team-1","SigningKeyId":"evil"}]}`)
	if _, err := r.Index(TreeV1, "acme.x"); werr.CodeOf(err) != untrusted.CodeJSONDuplicate {
		t.Errorf("two signing keys in an index row: %v", err)
	}
}

// Issue item 7: a named pipe or a link to /dev/zero in place of any file
// the registry reads ends at once with the layer's code; nothing blocks or
// reads without bound.
func TestRegistryFilesNeverBlock(t *testing.T) {
	for _, rel := range []string{WellKnown, "keys/team-1.pub", "v1/packs/acme.x/-/1.0.0.json", "v1/packs/acme.x/index.json"} {
		for _, kind := range []string{"fifo", "devzero", "big"} {
			t.Run(kind+" "+rel, func(t *testing.T) {
				f := forge(t, teamEntry+`}`)
				p := filepath.Join(f.root, filepath.FromSlash(rel))
				os.Remove(p)
				want := untrusted.CodeNotRegular
				switch kind {
				case "fifo":
					if err := fixtures.Mkfifo(t, p); err != nil {
						t.Skipf("no FIFOs here: %v", err)
					}
				case "devzero":
					os.Symlink("/dev/zero", p)
					want = untrusted.CodeOutsideRoot
				case "big":
					big := make([]byte, untrusted.MaxDocument+1)
					for i := range big {
						big[i] = ' '
					}
					os.WriteFile(p, big, 0o644)
					want = untrusted.CodeTooLarge
				}
				err := within(t, testwait.Ceiling, func() error {
					r, err := Open(f.root)
					if err != nil {
						return err
					}
					defer r.Close()
					if _, err := r.Key("team-1"); err != nil {
						return err
					}
					if _, err := r.Version("acme.x", "1.0.0"); err != nil {
						return err
					}
					_, err = r.Index(TreeV1, "acme.x")
					return err
				})
				if werr.CodeOf(err) != want || !strings.Contains(err.Error(), filepath.Base(p)) {
					t.Errorf("%v (code %q), want %s naming the file", err, werr.CodeOf(err), want)
				}
			})
		}
	}
}

// within runs fn and fails the test when it has not returned after d.
func within(t *testing.T, d time.Duration, fn func() error) error {
	t.Helper()
	return testwait.Within(t, "the read", d, fn)
}

// A deprecated member is read as a script's truthiness test reads what
// JSON.parse gives; an array or object is not decoded (a hostile one of
// millions of values costs no memory beyond its bytes).
func TestDeprecationTruthiness(t *testing.T) {
	for doc, want := range map[string]Deprecation{
		`false`: {}, `null`: {}, `""`: {}, `0`: {}, `-0`: {}, `0.0e3`: {},
		`true`: {Set: true}, `"use 2.0"`: {Set: true, Message: "use 2.0"}, `"\u0041"`: {Set: true, Message: "A"},
		`1`: {Set: true}, `1e999`: {Set: true}, `[]`: {Set: true}, `{}`: {Set: true}, `[{"a":1}]`: {Set: true},
	} {
		var v VersionManifest
		if err := DecodeTop([]byte(`{"deprecated":`+doc+`}`), &v); err != nil || v.Deprecated != want || v.IsDeprecated() != want.Set {
			t.Errorf("deprecated %s: %+v %v, want %+v", doc, v.Deprecated, err, want)
		}
	}
	var x PackIndex
	if err := DecodeTop([]byte(`{"deprecated":[{"a":1,"A":2}]}`), &x); werr.CodeOf(err) != untrusted.CodeJSONDuplicate {
		t.Errorf("a duplicate inside deprecated: %v", err)
	}
}

// Listing keeps what an index says about one version, and counts its rows.
func TestListing(t *testing.T) {
	f := forge(t, teamEntry+`}`)
	f.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","latest":"2.0.0","deprecated":"gone","versions":[{"version":"1.0.0","integrity":"a"},{"version":"2.0.0"},{"version":"1.0.0","yanked":true}]}`)
	r, err := Open(f.root)
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.Listing(TreeV1, "acme.x", "1.0.0")
	if err != nil || l.Rows != 2 || l.Row == nil || l.Row.Integrity != "a" || l.Latest != "2.0.0" || l.Deprecated.Message != "gone" ||
		l.Path != filepath.Join(f.root, "v1", "packs", "acme.x", "index.json") {
		t.Errorf("listing %+v %v", l, err)
	}
	if l, err := r.Listing(TreeV1, "acme.x", "3.0.0"); err != nil || l.Rows != 0 || l.Row != nil {
		t.Errorf("unlisted version: %+v %v", l, err)
	}
	if l, err := r.Listing(TreeV2, "acme.x", "1.0.0"); err != nil || l != nil {
		t.Errorf("no index in v2: %+v %v", l, err)
	}
}

// A small index Listing read is kept: asked again, for any version, it
// gives what a fresh read gives (and what the caller changes in one
// listing is not in the next); an index of more than maxKeptRows rows is
// read again each time.
func TestListingKeepsSmallIndexes(t *testing.T) {
	f := forge(t, teamEntry+`}`)
	f.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","latest":"2.0.0","versions":[{"version":"1.0.0","integrity":"a"},{"version":"2.0.0","integrity":"b"}]}`)
	var rows strings.Builder
	for i := range maxKeptRows + 1 {
		if i > 0 {
			rows.WriteByte(',')
		}
		fmt.Fprintf(&rows, `{"version":"1.0.%d"}`, i)
	}
	f.write(t, "v1/packs/acme.big/index.json", `{"name":"acme.big","versions":[`+rows.String()+`]}`)
	r, err := Open(f.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"acme.x", "acme.big"} {
		for _, v := range []string{"1.0.0", "2.0.0", "2.0.0", "1.0.0", "1.0.0", "3.0.0"} {
			fresh, err := Open(f.root)
			if err != nil {
				t.Fatal(err)
			}
			want, ferr := fresh.Listing(TreeV1, name, v)
			fresh.Close()
			got, err := r.Listing(TreeV1, name, v)
			if err != nil || ferr != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s@%s: %+v %v, a fresh read gives %+v %v", name, v, got, err, want, ferr)
			}
			if got != nil && got.Row != nil {
				got.Row.Integrity = "changed by the caller"
			}
		}
	}
	r.mu.Lock()
	_, small := r.indexes[TreeV1+"\x00acme.x"]
	_, big := r.indexes[TreeV1+"\x00acme.big"]
	r.mu.Unlock()
	if !small || big {
		t.Errorf("kept: acme.x %v (want true), acme.big %v (want false)", small, big)
	}
}

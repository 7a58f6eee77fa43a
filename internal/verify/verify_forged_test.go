package verify

import (
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// forgedRegistry is a registry root written for a test: keys/team-1.pub
// is the team's key; a stranger's key lies at evil/evil.pub and
// keys/evil.pub. Nothing in it comes from ../shared.
type forgedRegistry struct {
	root       string
	team, evil crypto.Signer
}

// teamKey is the keychain entry of team-1, granted acme.*, without its
// closing brace (tests add members).
const teamKey = `{"keyId":"team-1","algorithm":"ed25519","permittedNamespaces":["acme.*"],"status":"active"`

func forgeRegistry(t *testing.T, keychain string) *forgedRegistry {
	t.Helper()
	g := &forgedRegistry{root: t.TempDir()}
	g.team, _ = keyPair(t)
	g.evil, _ = keyPair(t)
	teamPEM, _ := sign.MarshalPublicKeyPEM(g.team.Public())
	evilPEM, _ := sign.MarshalPublicKeyPEM(g.evil.Public())
	g.write(t, "keys/team-1.pub", string(teamPEM))
	g.write(t, "keys/evil.pub", string(evilPEM))
	g.write(t, "evil/evil.pub", string(evilPEM))
	g.keychain(t, keychain)
	return g
}

func (g *forgedRegistry) keychain(t *testing.T, entries string) {
	g.write(t, registry.WellKnown, `{"signingKeys":[`+entries+`]}`)
}

func (g *forgedRegistry) write(t *testing.T, rel, data string) string {
	t.Helper()
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// publish writes acme.x@1.0.0 into the v1 tree, signed (manual) by signer
// and naming keyID, with its version manifest (manifestExtra added to its
// members) and per-pack index (rowExtra added to its row); it returns the
// tarball's path.
func (g *forgedRegistry) publish(t *testing.T, signer crypto.Signer, keyID, manifestExtra, rowExtra string) string {
	t.Helper()
	pj := `{"name":"acme.x","signing":{"method":"manual","publicKeyRef":"` + keyID + `","signatureRef":"keys/pack.json.sig"},"version":"1.0.0"}`
	tgz := makeTGZ(t, []entry{{name: "keys/pack.json.sig", data: string(signed(t, signer, sign.MethodManual, pj))}, {name: "pack.json", data: pj}})
	sum := sha256.Sum256(tgz)
	integrity := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	g.write(t, "v1/packs/acme.x/-/1.0.0.json", `{"name":"acme.x","version":"1.0.0","integrity":"`+integrity+`","signing":{"method":"manual","publicKeyRef":"`+keyID+`"}`+manifestExtra+`}`)
	g.write(t, "v1/packs/acme.x/index.json", `{"name":"acme.x","latest":"1.0.0","versions":[{"version":"1.0.0","integrity":"`+integrity+`","signingKeyId":"`+keyID+`"`+rowExtra+`}]}`)
	return g.write(t, "v1/packs/acme.x/-/1.0.0.tgz", string(tgz))
}

// verifyWithin verifies tgz against the registry root and fails the test
// when it has not returned after 10 s.
func (g *forgedRegistry) verifyWithin(t *testing.T, tgz string) *Result {
	t.Helper()
	done := make(chan *Result, 1)
	go func() {
		root, err := registry.Open(g.root)
		if err != nil {
			r := &Result{Path: tgz}
			r.fail(err)
			done <- r
			return
		}
		defer root.Close()
		done <- File(context.Background(), tgz, Policy{Registry: root})
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(testwait.Ceiling):
		t.Fatalf("verify of %s still blocked after %v", tgz, testwait.Ceiling)
		return nil
	}
}

func code(r *Result) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// Issue item 3: a keychain and lifecycle records that encoding/json read
// otherwise than the registry's scripts. A tarball signed by a stranger's
// key verified as signed by team-1 when team-1's publicKeyUrl (exact, or
// hidden as "PublicKeyUrl") pointed at the stranger's key; a revoked key
// came back with a wider grant; a yank was hidden.
func TestForgedKeychainAndLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name, keychain, manifest, row string
		signer                        func(g *forgedRegistry) crypto.Signer
		code                          string
	}{
		{name: "team-1 signs", keychain: teamKey + `}`, code: ""},
		{name: "publicKeyUrl names the stranger's key", keychain: teamKey + `,"publicKeyUrl":"/evil/evil.pub"}`, code: "pack_signature_invalid"},
		{name: "hidden PublicKeyUrl", keychain: teamKey + `,"PublicKeyUrl":"/evil/evil.pub"}`, code: "pack_signature_invalid"},
		{name: "publicKeyUrl then PublicKeyUrl", keychain: teamKey + `,"publicKeyUrl":"/keys/team-1.pub","PublicKeyUrl":"/evil/evil.pub"}`, code: untrusted.CodeJSONDuplicate},
		{name: "revoked, revived by Status", keychain: `{"keyId":"team-1","status":"revoked","permittedNamespaces":["acme.*"],"Status":"active","PermittedNamespaces":["*"]}`,
			signer: func(g *forgedRegistry) crypto.Signer { return g.team }, code: untrusted.CodeJSONDuplicate},
		{name: "yank hidden in the manifest", keychain: teamKey + `}`, manifest: `,"yanked":true,"YANKED":false`,
			signer: func(g *forgedRegistry) crypto.Signer { return g.team }, code: untrusted.CodeJSONDuplicate},
		{name: "yank hidden in the index", keychain: teamKey + `}`, row: `,"yanked":true,"YANKED":false`,
			signer: func(g *forgedRegistry) crypto.Signer { return g.team }, code: untrusted.CodeJSONDuplicate},
		{name: "Yanked is not yanked", keychain: teamKey + `}`, manifest: `,"Yanked":true`,
			signer: func(g *forgedRegistry) crypto.Signer { return g.team }, code: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := forgeRegistry(t, tc.keychain)
			signer := g.evil
			if tc.signer != nil || tc.code == "" {
				signer = g.team
			}
			r := g.verifyWithin(t, g.publish(t, signer, "team-1", tc.manifest, tc.row))
			if code(r) != tc.code || r.Verified != (tc.code == "") {
				t.Errorf("verified %v code %q, want %q (%+v)", r.Verified, code(r), tc.code, r.Error)
			}
			if tc.code == untrusted.CodeJSONDuplicate && (strings.Count(r.Error.Message, "letter case") != 1 || r.Error.Hint == "") {
				t.Errorf("the reason is not said once, with a hint: %+v", r.Error)
			}
		})
	}
}

// Issue item 12: a key status the registry does not define is refused,
// not accepted with a note.
func TestUnknownKeyStatusRefused(t *testing.T) {
	for status, want := range map[string]string{
		`"active"`:          "",
		`null`:              "",
		`"rotated"`:         "",
		`"revoked"`:         "key_revoked",
		`"compromised"`:     "key_revoked",
		`"Revoked"`:         "key_status_unknown",
		`"revoked "`:        "key_status_unknown",
		`"expired"`:         "key_status_unknown",
		`"ACTIVE"`:          "key_status_unknown",
		`"\u001b[2Kactive"`: "key_status_unknown",
	} {
		t.Run(status, func(t *testing.T) {
			g := forgeRegistry(t, `{"keyId":"team-1","permittedNamespaces":["acme.*"],"status":`+status+`}`)
			r := g.verifyWithin(t, g.publish(t, g.team, "team-1", "", ""))
			if code(r) != want || r.Verified != (want == "") {
				t.Fatalf("verified %v code %q, want %q (%+v)", r.Verified, code(r), want, r.Error)
			}
			if want == "key_status_unknown" && (r.Error.Hint == "" || strings.ContainsRune(r.Error.Message, 0x1b)) {
				t.Errorf("no hint, or the status is not quoted: %+v", r.Error)
			}
			if status == `"rotated"` && (r.KeyStatus != "rotated" || len(r.Notes) == 0) {
				t.Errorf("rotated: %+v", r)
			}
		})
	}
}

// Issue item 7: a named pipe or a link to /dev/zero in place of each file
// `verify --registry` reads (the discovery document, keys/<id>.pub, the
// version manifest, the per-pack index, the detached .sig beside the
// tarball, the tarball itself) ends at once with a stable code.
func TestRegistryFilesNeverBlockVerify(t *testing.T) {
	files := []string{registry.WellKnown, "keys/team-1.pub", "v1/packs/acme.x/-/1.0.0.json", "v1/packs/acme.x/index.json",
		"v1/packs/acme.x/-/1.0.0.sig", "v1/packs/acme.x/-/1.0.0.tgz"}
	for _, rel := range files {
		for _, kind := range []string{"fifo", "devzero"} {
			t.Run(kind+" "+rel, func(t *testing.T) {
				g := forgeRegistry(t, teamKey+`}`)
				tgz := g.publish(t, g.team, "team-1", "", "")
				p := filepath.Join(g.root, filepath.FromSlash(rel))
				os.Remove(p)
				want := untrusted.CodeNotRegular
				if kind == "fifo" {
					if err := fixtures.Mkfifo(t, p); err != nil {
						t.Skipf("no FIFOs here: %v", err)
					}
				} else {
					os.Symlink("/dev/zero", p)
					if !strings.HasSuffix(rel, ".tgz") { // the tarball is named by the user: its link is followed
						want = untrusted.CodeOutsideRoot
					}
				}
				r := g.verifyWithin(t, tgz)
				if r.Verified || code(r) != want || !strings.Contains(r.Error.Message, filepath.Base(p)) {
					t.Errorf("verified %v code %q, want %s naming %s (%+v)", r.Verified, code(r), want, filepath.Base(p), r.Error)
				}
			})
		}
	}
}

// An index listing a version twice is ambiguous (which row would a script
// read?): refused, whichever row says yanked.
func TestIndexListingAVersionTwice(t *testing.T) {
	g := forgeRegistry(t, teamKey+`}`)
	tgz := g.publish(t, g.team, "team-1", "", "")
	idx := filepath.Join(g.root, "v1", "packs", "acme.x", "index.json")
	data, _ := os.ReadFile(idx)
	// The same row again, yanked.
	i := strings.Index(string(data), `[{`)
	j := strings.LastIndex(string(data), `}]`)
	row := string(data[i+1 : j+1])
	os.WriteFile(idx, []byte(string(data[:j+1])+`,`+strings.Replace(row, `"version":"1.0.0"`, `"version":"1.0.0","yanked":true`, 1)+`]}`), 0o644)
	if r := g.verifyWithin(t, tgz); r.Verified || code(r) != "registry_inconsistent" {
		t.Errorf("verified %v code %q (%+v)", r.Verified, code(r), r.Error)
	}
}

// A hostile registry's megabyte strings are not kept whole in a Result
// (verify holds every tarball's result until it prints them all).
func TestResultStringsBounded(t *testing.T) {
	g := forgeRegistry(t, teamKey+`}`)
	big := strings.Repeat("é", 1<<19) // 1 MiB
	tgz := g.publish(t, g.team, "team-1", `,"yanked":true,"yankedReason":"`+big+`","deprecationReason":"`+big+`","advisoryUrl":"`+big+`"`, "")
	r := g.verifyWithin(t, tgz)
	if r.Verified || code(r) != "pack_yanked" {
		t.Fatalf("verified %v code %q", r.Verified, code(r))
	}
	for what, s := range map[string]string{"yankedReason": r.YankedReason, "deprecationReason": r.DeprecationReason, "advisoryUrl": r.AdvisoryURL, "message": r.Error.Message} {
		if len(s) > maxText+64 || !strings.Contains(s, "more bytes)") || !utf8.ValidString(s) {
			t.Errorf("%s: %d bytes, valid UTF-8 %v", what, len(s), utf8.ValidString(s))
		}
	}
	if msg, _ := ErrorText(r.Err); len(msg) > maxText+64 || werr.CodeOf(r.Err) != "pack_yanked" || werr.ExitCode(r.Err) != 1 {
		t.Errorf("r.Err keeps %d bytes, code %q", len(msg), werr.CodeOf(r.Err))
	}
}

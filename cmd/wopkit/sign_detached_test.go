package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// opensslKey makes an Ed25519 key pair with openssl: the private key (PKCS#8
// PEM) and its SPKI public key.
func opensslKey(t *testing.T, dir, name string) (key, pub string) {
	t.Helper()
	key, pub = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".pub")
	for _, args := range [][]string{{"genpkey", "-algorithm", "ed25519", "-out", key}, {"pkey", "-in", key, "-pubout", "-out", pub}} {
		if out, err := exec.Command("openssl", args...).CombinedOutput(); err != nil {
			t.Fatalf("openssl %v: %v\n%s", args, err, out)
		}
	}
	return key, pub
}

// opensslSign signs the file in with key by `openssl pkeyutl -sign -rawin`,
// the outside signer, and returns the signature file.
func opensslSign(t *testing.T, key, in string) string {
	t.Helper()
	sig := in + ".sig"
	if out, err := exec.Command("openssl", "pkeyutl", "-sign", "-rawin", "-inkey", key, "-in", in, "-out", sig).CombinedOutput(); err != nil {
		t.Fatalf("openssl pkeyutl -sign: %v\n%s", err, out)
	}
	return sig
}

// TestSignPrepareAttach: for a v2 and a v1 pack, from a directory and from
// a tarball, `sign --prepare` writes the bytes openssl then signs, and
// `sign --attach` writes the tarball, .sig and version manifest byte for
// byte as a key file does; a base64 signature does too. A signature over
// other bytes (another key id, a pack changed since), a wrong public key and
// a truncated signature are refused (exit 1) with nothing written.
func TestSignPrepareAttach(t *testing.T) {
	t.Parallel()
	needTools(t, "openssl")
	keys := t.TempDir()
	key, pub := opensslKey(t, keys, "hsm")
	_, otherPub := opensslKey(t, keys, "other")
	for _, c := range []struct{ spec, method, scheme string }{
		{"v2", "v2", "ed25519-canonical-json"}, {"v1", "manual", "manual"},
	} {
		t.Run(c.spec, func(t *testing.T) {
			dir := newSpecPack(t, c.spec)
			unsigned := filepath.Join(t.TempDir(), "unsigned.tgz")
			if o, e, code := runCmd(t, "pack", dir, "-o", unsigned); code != 0 {
				t.Fatalf("pack: exit %d\n%s%s", code, o, e)
			}
			for _, input := range []string{"dir", "tgz"} {
				t.Run(input, func(t *testing.T) {
					work := t.TempDir()
					src := dir
					if input == "tgz" {
						src = filepath.Join(work, "in.tgz")
						copyFile(t, unsigned, src)
					}
					// the key file's release, for comparison
					direct := filepath.Join(t.TempDir(), "direct.tgz")
					if o, e, code := runCmd(t, "sign", src, "--key", key, "--key-id", "hsm-1", "-o", direct); code != 0 {
						t.Fatalf("sign --key: exit %d\n%s%s", code, o, e)
					}
					tbs := filepath.Join(work, "pack.tbs")
					o, e, code := runCmd(t, "sign", src, "--prepare", tbs, "--key-id", "hsm-1")
					if code != 0 || !strings.Contains(o, "--sign "+c.method+" ("+c.scheme+")") {
						t.Fatalf("prepare: exit %d\n%s%s", code, o, e)
					}
					if names := ls(t, work); len(names) != 1+btoi(input == "tgz") {
						t.Fatalf("prepare wrote %v", names)
					}
					prepared, _ := os.ReadFile(tbs)
					if !bytes.Equal(prepared, fixtures.File(t, direct, "pack.json")) {
						t.Fatalf("the prepared bytes are not the pack.json the key file signed:\n%s", prepared)
					}
					sig := opensslSign(t, key, tbs)
					if !bytes.Equal(mustRead(t, sig), fixtures.File(t, direct, "keys/pack.json.sig")) {
						t.Fatal("openssl's signature over the prepared bytes is not the key file's")
					}

					// refusals first (for a tgz the output is the input itself)
					before := ls(t, work)
					in0 := mustRead(t, src+map[bool]string{true: "", false: "/pack.json"}[input == "tgz"])
					refused := func(why string, args ...string) {
						t.Helper()
						out := filepath.Join(t.TempDir(), "x.tgz")
						args = append([]string{"sign", src}, args...)
						if input == "dir" {
							args = append(args, "-o", out)
						}
						o, e, code := runCmd(t, args...)
						if code != 1 || !strings.Contains(o+e, why) {
							t.Fatalf("%s: exit %d, want 1 (%s)\n%s%s", strings.Join(args, " "), code, why, o, e)
						}
						if names := ls(t, filepath.Dir(out)); len(names) > 0 {
							t.Fatalf("%s wrote %v", strings.Join(args, " "), names)
						}
						if got := ls(t, work); strings.Join(got, ",") != strings.Join(before, ",") {
							t.Fatalf("%s changed %v to %v", strings.Join(args, " "), before, got)
						}
						if !bytes.Equal(in0, mustRead(t, src+map[bool]string{true: "", false: "/pack.json"}[input == "tgz"])) {
							t.Fatal("the input changed")
						}
					}
					// over other bytes: the signing block names another key id
					refused("does not verify", "--attach", sig, "--public-key", pub, "--key-id", "hsm-2")
					refused("does not verify", "--attach", sig, "--public-key", otherPub, "--key-id", "hsm-1")
					short := filepath.Join(t.TempDir(), "short.sig")
					os.WriteFile(short, mustRead(t, sig)[:63], 0o644)
					refused("neither a raw 64-byte", "--attach", short, "--public-key", pub, "--key-id", "hsm-1")
					os.WriteFile(short, []byte(base64.StdEncoding.EncodeToString(mustRead(t, sig))[:60]), 0o644)
					refused("neither a raw 64-byte", "--attach", short, "--public-key", pub, "--key-id", "hsm-1")

					// accepted: raw, then base64, each equal to the key file's release
					for _, form := range []string{"raw", "base64"} {
						s := sig
						if form == "base64" {
							s = filepath.Join(t.TempDir(), "sig.b64")
							os.WriteFile(s, []byte(base64.StdEncoding.EncodeToString(mustRead(t, sig))+"\n"), 0o644)
						}
						att := filepath.Join(t.TempDir(), "attached.tgz")
						if o, e, code := runCmd(t, "sign", src, "--attach", s, "--public-key", pub, "--key-id", "hsm-1", "-o", att); code != 0 {
							t.Fatalf("attach %s: exit %d\n%s%s", form, code, o, e)
						}
						sameRelease(t, att, direct)
						if o, e, code := runCmd(t, "verify", att, "--key", pub); code != 0 {
							t.Fatalf("verify: exit %d\n%s%s", code, o, e)
						}
						opensslAccepts(t, att, pub)
					}
				})
			}
			// the pack changed after --prepare: the signature is over other bytes
			tbs := filepath.Join(t.TempDir(), "pack.tbs")
			if o, e, code := runCmd(t, "sign", dir, "--prepare", tbs, "--key-id", "hsm-1", "--json"); code != 0 {
				t.Fatalf("prepare --json: exit %d\n%s%s", code, o, e)
			} else {
				var r map[string]any
				if err := json.Unmarshal([]byte(o), &r); err != nil || r["method"] != c.method || r["scheme"] != c.scheme || r["keyId"] != "hsm-1" || r["prepared"] != tbs {
					t.Fatalf("prepare --json: %v %s", err, o)
				}
			}
			sig := opensslSign(t, key, tbs)
			pj := filepath.Join(dir, "pack.json")
			changed := bytes.Replace(mustRead(t, pj), []byte(`"0.1.0"`), []byte(`"0.1.1"`), 1)
			if bytes.Equal(changed, mustRead(t, pj)) {
				t.Fatal("the test's edit of pack.json found no version 0.1.0")
			}
			os.WriteFile(pj, changed, 0o644)
			out := t.TempDir()
			if o, e, code := runCmd(t, "sign", dir, "--attach", sig, "--public-key", pub, "--key-id", "hsm-1", "-o", filepath.Join(out, "x.tgz")); code != 1 || len(ls(t, out)) > 0 {
				t.Fatalf("attach after the pack changed: exit %d, wrote %v\n%s%s", code, ls(t, out), o, e)
			}
		})
	}
}

// TestSignPrepareAttachUsage: the flag combinations sign refuses (exit 2).
func TestSignPrepareAttachUsage(t *testing.T) {
	t.Parallel()
	dir, tmp := newSpecPack(t, "v2"), t.TempDir()
	x, y := filepath.Join(tmp, "x"), filepath.Join(tmp, "y.tgz")
	for _, args := range [][]string{
		{"--prepare", x, "--attach", y, "--public-key", "p", "--key-id", "k"},
		{"--prepare", x},
		{"--prepare", x, "--key-id", "k", "--key", "k.pem"},
		{"--prepare", x, "--key-id", "k", "--sign", "sigstore"},
		{"--prepare", x, "--key-id", "k", "-o", y},
		{"--attach", y, "--key-id", "k"},
		{"--attach", y, "--public-key", "p"},
		{"--public-key", "p", "--key", "k.pem", "--key-id", "k"},
	} {
		if o, e, code := runCmd(t, append([]string{"sign", dir}, args...)...); code != 2 {
			t.Errorf("sign %v: exit %d, want 2\n%s%s", args, code, o, e)
		}
	}
	if names := ls(t, tmp); len(names) > 0 {
		t.Fatalf("usage errors wrote %v", names)
	}
	// the same --prepare without the faults works
	if o, e, code := runCmd(t, "sign", dir, "--prepare", x, "--key-id", "k"); code != 0 || len(ls(t, tmp)) != 1 {
		t.Fatalf("sign --prepare: exit %d, wrote %v\n%s%s", code, ls(t, tmp), o, e)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	if err := os.WriteFile(to, mustRead(t, from), 0o644); err != nil {
		t.Fatal(err)
	}
}

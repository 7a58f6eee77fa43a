package main

import (
	"bytes"
	"crypto/ed25519"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/openwop/wopkit/internal/sign"
)

// startGPGAgent makes a throw-away GnuPG home with an Ed25519 key whose
// authentication subkey gpg-agent serves over its ssh-agent socket (what a
// YubiKey or OpenPGP card's authentication key is, minus the card), points
// GNUPGHOME and SSH_AUTH_SOCK at them, and stops that agent when the test
// ends. It returns the subkey's public key as `gpg --export-ssh-key` gives it.
func startGPGAgent(t *testing.T) ed25519.PublicKey {
	t.Helper()
	home, err := os.MkdirTemp("", "wopkit-gpg-") // short: the agent's sockets live here
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(home, 0o700)
	t.Setenv("GNUPGHOME", home)
	t.Cleanup(func() {
		exec.Command("gpgconf", "--kill", "gpg-agent").Run() // this home's agent only
		os.RemoveAll(home)
	})
	run := func(name string, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		c := exec.Command(name, args...)
		c.Stdout, c.Stderr = &out, &errOut
		if err := c.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errOut.String())
		}
		return out.String()
	}
	if err := os.WriteFile(filepath.Join(home, "gpg-agent.conf"), []byte("enable-ssh-support\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	nopass := []string{"--batch", "--pinentry-mode", "loopback", "--passphrase", ""}
	run("gpg", append(nopass, "--quick-gen-key", "Acme Release <release@acme.dev>", "ed25519", "sign", "never")...)
	var fpr string
	for _, l := range strings.Split(run("gpg", "--batch", "--with-colons", "--list-keys"), "\n") {
		if f := strings.Split(l, ":"); f[0] == "fpr" && len(f) > 9 {
			fpr = f[9]
			break
		}
	}
	run("gpg", append(nopass, "--quick-add-key", fpr, "ed25519", "auth", "never")...)
	// the keygrip of the authentication subkey goes into sshcontrol
	var grip string
	lines := strings.Split(run("gpg", "--batch", "--with-colons", "--with-keygrip", "--list-keys"), "\n")
	for i, l := range lines {
		if f := strings.Split(l, ":"); f[0] == "sub" && len(f) > 11 && f[11] == "a" {
			for _, g := range lines[i+1:] {
				if gf := strings.Split(g, ":"); gf[0] == "grp" && len(gf) > 9 {
					grip = gf[9]
					break
				}
			}
		}
	}
	if grip == "" {
		t.Fatalf("no authentication subkey:\n%s", strings.Join(lines, "\n"))
	}
	if err := os.WriteFile(filepath.Join(home, "sshcontrol"), []byte(grip+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run("gpg-connect-agent", "reloadagent", "/bye")
	t.Setenv("SSH_AUTH_SOCK", strings.TrimSpace(run("gpgconf", "--list-dirs", "agent-ssh-socket")))
	pk, _, _, _, err := ssh.ParseAuthorizedKey([]byte(run("gpg", "--batch", "--export-ssh-key", fpr)))
	if err != nil {
		t.Fatal(err)
	}
	pub, ok := pk.(ssh.CryptoPublicKey).CryptoPublicKey().(ed25519.PublicKey)
	if !ok {
		t.Fatalf("gpg exports a %s key", pk.Type())
	}
	return pub
}

// TestGPGAgentSigns: gpg-agent's ssh support (the README's way to a YubiKey
// or OpenPGP card) signs v2 and v1 packs through --key ssh-agent:; keygen
// --from-ssh-agent writes the key gpg exports; wopkit verify and openssl
// accept the results, and signing twice gives the same bytes (the agent
// signs with deterministic, plain Ed25519).
func TestGPGAgentSigns(t *testing.T) {
	needTools(t, "gpg", "gpg-agent", "gpgconf", "gpg-connect-agent", "openssl")
	want := startGPGAgent(t)
	keys := t.TempDir()
	pub := filepath.Join(keys, "release")
	if o, e, code := runCmd(t, "keygen", "--from-ssh-agent", "--out", pub); code != 0 {
		t.Fatalf("keygen --from-ssh-agent: exit %d\n%s%s", code, o, e)
	}
	got, err := sign.LoadPublicKey(pub + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if !want.Equal(got) {
		t.Fatal("keygen --from-ssh-agent wrote another key than gpg --export-ssh-key gives")
	}
	for _, spec := range []string{"v2", "v1"} {
		t.Run(spec, func(t *testing.T) {
			dir, out := newSpecPack(t, spec), t.TempDir()
			a, b := filepath.Join(out, "a.tgz"), filepath.Join(out, "b.tgz")
			for _, tgz := range []string{a, b} {
				if o, e, code := runCmd(t, "sign", dir, "--key", "ssh-agent:", "--key-id", "release-1", "-o", tgz); code != 0 {
					t.Fatalf("sign through gpg-agent: exit %d\n%s%s", code, o, e)
				}
			}
			sameRelease(t, a, b)
			if o, e, code := runCmd(t, "verify", a, "--key", pub+".pub"); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, o, e)
			}
			opensslAccepts(t, a, pub+".pub")
		})
	}
}

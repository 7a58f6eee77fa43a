package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign/agenttest"
)

// needTools skips the test, naming what is missing, unless every tool is on
// PATH.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: skipping the test with the real tools (%s)", tool, strings.Join(tools, ", "))
		}
	}
}

// startSSHAgent starts a real OpenSSH ssh-agent on a new socket, points
// SSH_AUTH_SOCK at it, and kills it when the test ends.
func startSSHAgent(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wopkit-agent-") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	cmd := exec.Command("ssh-agent", "-D", "-a", sock)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		os.RemoveAll(dir)
	})
	t.Setenv("SSH_AUTH_SOCK", sock)
	// wait until it answers: ssh-add -l exits 1 for "no identities", 2
	// when it cannot connect
	for i := 0; ; i++ {
		err := exec.Command("ssh-add", "-l").Run()
		if ee, ok := err.(*exec.ExitError); err == nil || ok && ee.ExitCode() == 1 {
			return sock
		}
		if i == 500 {
			t.Fatalf("ssh-agent does not answer on %s: %v\n%s", sock, err, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// agentKey makes an Ed25519 key with ssh-keygen, adds it to the agent and
// deletes the key file. It returns the same key as a PKCS#8 PEM file (to
// sign with from a file, for comparison), its SPKI public key as openssl
// writes it, and its fingerprint as ssh-keygen prints it.
func agentKey(t *testing.T, dir, comment string) (keyPEM, pubPEM, fp string) {
	t.Helper()
	id := filepath.Join(dir, comment)
	run := func(name string, args ...string) string {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", id)
	raw, err := os.ReadFile(id)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.ParseRawPrivateKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	priv, ok := k.(*ed25519.PrivateKey)
	if !ok {
		t.Fatalf("ssh-keygen -t ed25519 gave a %T", k)
	}
	der, err := x509.MarshalPKCS8PrivateKey(*priv)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, pubPEM = id+".pem", id+".spki.pub"
	if err := os.WriteFile(keyPEM, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	run("openssl", "pkey", "-in", keyPEM, "-pubout", "-out", pubPEM)
	fields := strings.Fields(run("ssh-keygen", "-l", "-f", id+".pub"))
	if len(fields) < 2 || !strings.HasPrefix(fields[1], "SHA256:") {
		t.Fatalf("ssh-keygen -l prints %q", fields)
	}
	run("ssh-add", "-q", id)
	if err := os.Remove(id); err != nil {
		t.Fatal(err)
	}
	return keyPEM, pubPEM, fields[1]
}

// newSpecPack scaffolds a pack of spec v1 or v2 into a new directory.
func newSpecPack(t *testing.T, spec string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hello")
	if out, errOut, code := runCmd(t, "new", "pack", "--yes", "--spec", spec, "--dir", dir, "--set", "name=vendor.acme.hello"); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	return dir
}

// sameRelease fails unless the tarballs a and b, and the .sig and .json
// beside them, are byte for byte the same.
func sameRelease(t *testing.T, a, b string) {
	t.Helper()
	for _, ext := range []string{".tgz", ".sig", ".json"} {
		x, err1 := os.ReadFile(strings.TrimSuffix(a, ".tgz") + ext)
		y, err2 := os.ReadFile(strings.TrimSuffix(b, ".tgz") + ext)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", ext, err1, err2)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs from %s", strings.TrimSuffix(a, ".tgz")+ext, strings.TrimSuffix(b, ".tgz")+ext)
		}
	}
}

// opensslAccepts checks the tarball's signature over its pack.json with
// openssl and the public key pub (and that openssl can refuse: over a
// changed pack.json it must).
func opensslAccepts(t *testing.T, tgz, pub string) {
	t.Helper()
	x := t.TempDir()
	pj, sig := filepath.Join(x, "pack.json"), filepath.Join(x, "sig")
	data := fixtures.File(t, tgz, "pack.json")
	os.WriteFile(pj, data, 0o644)
	os.WriteFile(sig, fixtures.File(t, tgz, "keys/pack.json.sig"), 0o644)
	verify := func() error {
		return exec.Command("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", pj, "-sigfile", sig).Run()
	}
	if err := verify(); err != nil {
		t.Fatalf("openssl refuses the signature of %s: %v", tgz, err)
	}
	os.WriteFile(pj, bytes.Replace(data, []byte("vendor.acme.hello"), []byte("vendor.acme.hellp"), 1), 0o644)
	if verify() == nil {
		t.Fatal("openssl accepts the signature over a changed pack.json")
	}
}

// ls lists the names in dir (none when it does not exist).
func ls(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestSSHAgentSigns: a key made by ssh-keygen, held by a real ssh-agent
// with its file deleted, signs v2 and v1 (manual) packs through `sign` and
// `pack` with --key ssh-agent: and by fingerprint; wopkit verify and
// openssl accept the results, which equal byte for byte those the same key
// signs from a file; keygen --from-ssh-agent writes the public key openssl
// derives from the private one.
func TestSSHAgentSigns(t *testing.T) {
	needTools(t, "ssh-agent", "ssh-keygen", "ssh-add", "openssl")
	startSSHAgent(t)
	keys := t.TempDir()
	keyPEM, pubPEM, fp := agentKey(t, keys, "me@acme")

	pub := filepath.Join(keys, "fromagent")
	if out, errOut, code := runCmd(t, "keygen", "--from-ssh-agent", "--out", pub); code != 0 || !strings.Contains(out, fp) {
		t.Fatalf("keygen --from-ssh-agent: exit %d\n%s%s", code, out, errOut)
	}
	want, _ := os.ReadFile(pubPEM)
	if got, _ := os.ReadFile(pub + ".pub"); !bytes.Equal(got, want) {
		t.Fatalf("keygen --from-ssh-agent wrote\n%s\nopenssl pkey -pubout writes\n%s", got, want)
	}
	if _, err := os.Stat(pub + ".key"); err == nil {
		t.Fatal("keygen --from-ssh-agent wrote a .key")
	}
	if out, errOut, code := runCmd(t, "keygen", "--from-ssh-agent", fp, "--out", pub); code != 1 || !strings.Contains(errOut, "key_exists") && !strings.Contains(errOut, "already exists") {
		t.Fatalf("keygen --from-ssh-agent over an existing .pub: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := runCmd(t, "keygen", "--from-ssh-agent="+fp, "--out", pub, "--force", "--json"); code != 0 || !strings.Contains(out, `"fingerprint":"`+fp+`"`) {
		t.Fatalf("keygen --from-ssh-agent=FP --force --json: exit %d\n%s%s", code, out, errOut)
	}

	for _, c := range []struct{ spec, method string }{{"v2", "v2"}, {"v1", "manual"}} {
		t.Run(c.spec, func(t *testing.T) {
			dir := newSpecPack(t, c.spec)
			out := t.TempDir()
			file := filepath.Join(out, "file.tgz")
			if o, e, code := runCmd(t, "sign", dir, "--key", keyPEM, "--key-id", "me-1", "-o", file); code != 0 {
				t.Fatalf("sign with the key file: exit %d\n%s%s", code, o, e)
			}
			for i, args := range [][]string{
				{"sign", dir, "--key", "ssh-agent:"},
				{"sign", dir, "--key", "ssh-agent:" + fp},
				{"sign", dir, "--key", "ssh-agent:me@acme", "--sign", c.method},
				{"pack", dir, "--sign", c.method, "--key", "ssh-agent:"},
				{"pack", dir, "--sign", c.method, "--key", "ssh-agent:" + fp},
			} {
				tgz := filepath.Join(out, "agent"+string(rune('a'+i))+".tgz")
				if o, e, code := runCmd(t, append(args, "--key-id", "me-1", "-o", tgz)...); code != 0 {
					t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, o, e)
				}
				sameRelease(t, tgz, file)
				if o, e, code := runCmd(t, "verify", tgz, "--key", pubPEM); code != 0 || !strings.Contains(o, c.method+" signature by me-1") {
					t.Fatalf("verify: exit %d\n%s%s", code, o, e)
				}
				opensslAccepts(t, tgz, pubPEM)
			}
			// a signed tarball re-signed through the agent and from the file
			re, reFile := filepath.Join(out, "resigned.tgz"), filepath.Join(out, "resigned-file.tgz")
			if o, e, code := runCmd(t, "sign", file, "--key", "ssh-agent:", "--key-id", "me-1", "-o", re); code != 0 {
				t.Fatalf("sign TGZ: exit %d\n%s%s", code, o, e)
			}
			if o, e, code := runCmd(t, "sign", file, "--key", keyPEM, "--key-id", "me-1", "-o", reFile); code != 0 {
				t.Fatalf("sign TGZ: exit %d\n%s%s", code, o, e)
			}
			sameRelease(t, re, reFile)
			opensslAccepts(t, re, pubPEM)
		})
	}
}

// TestSSHAgentRefusals: no agent, an agent out of reach, an agent without
// an Ed25519 key, a fingerprint it lacks, two keys for "ssh-agent:", and
// an ed25519-sk key are each refused with their code and exit 1 or 2,
// before anything is written.
func TestSSHAgentRefusals(t *testing.T) {
	needTools(t, "ssh-agent", "ssh-keygen", "ssh-add", "openssl")
	dir := newSpecPack(t, "v2")
	keys := t.TempDir()
	refuse := func(t *testing.T, key, code string, exit int) {
		t.Helper()
		for _, verb := range [][]string{{"sign", dir}, {"pack", dir, "--sign", "v2"}} {
			out := t.TempDir()
			args := append(verb, "--key", key, "--key-id", "me-1", "-o", filepath.Join(out, "x.tgz"))
			o, e, got := runCmd(t, args...)
			if got != exit || !strings.Contains(o+e, code) {
				t.Fatalf("%s: exit %d, want %d (%s)\n%s%s", strings.Join(args, " "), got, exit, code, o, e)
			}
			if names := ls(t, out); len(names) > 0 {
				t.Fatalf("%s wrote %v", strings.Join(args, " "), names)
			}
			if slices.Contains(ls(t, dir), "vendor.acme.hello-0.1.0.tgz") {
				t.Fatal("a tarball appeared in the pack directory")
			}
		}
	}
	t.Run("no SSH_AUTH_SOCK", func(t *testing.T) {
		t.Setenv("SSH_AUTH_SOCK", "")
		refuse(t, "ssh-agent:", "SSH_AUTH_SOCK is not set", 2)
	})
	t.Run("agent exited", func(t *testing.T) {
		t.Setenv("SSH_AUTH_SOCK", filepath.Join(keys, "gone.sock"))
		refuse(t, "ssh-agent:", "cannot reach the ssh-agent", 2)
	})
	startSSHAgent(t)
	t.Run("empty agent", func(t *testing.T) {
		refuse(t, "ssh-agent:", "holds no Ed25519 key", 1)
	})
	t.Run("ecdsa only", func(t *testing.T) {
		id := filepath.Join(keys, "ec")
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ecdsa", "-N", "", "-C", "ec", "-f", id).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if out, err := exec.Command("ssh-add", "-q", id).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		refuse(t, "ssh-agent:", "holds no Ed25519 key", 1)
		refuse(t, "ssh-agent:ec", "is ecdsa-sha2-nistp256", 1)
	})
	_, _, fp1 := agentKey(t, keys, "one")
	t.Run("fingerprint not there", func(t *testing.T) {
		refuse(t, "ssh-agent:SHA256:"+strings.Repeat("A", 43), "holds no key with the fingerprint", 1)
		refuse(t, "ssh-agent:nobody", "holds no key with the comment", 1)
	})
	_, _, fp2 := agentKey(t, keys, "two")
	t.Run("two keys", func(t *testing.T) {
		refuse(t, "ssh-agent:", fp1, 2)
		refuse(t, "ssh-agent:", fp2, 2)
	})
	t.Run("ed25519-sk", func(t *testing.T) {
		serveSKAgent(t)
		refuse(t, "ssh-agent:", "is a FIDO security key", 1)
		refuse(t, "ssh-agent:yubikey", "is a FIDO security key", 1)
	})
}

// skAgent lists one sk-ssh-ed25519@openssh.com key, as an ssh-agent
// holding a FIDO key does (OpenSSH needs the token itself to add one), and
// signs nothing.
type skAgent struct{ agent.Agent }

func (skAgent) List() ([]*agent.Key, error) {
	pub, _, _ := ed25519.GenerateKey(nil)
	blob := ssh.Marshal(struct {
		Name string
		Key  []byte
		App  string
	}{ssh.KeyAlgoSKED25519, pub, "ssh:"})
	return []*agent.Key{{Format: ssh.KeyAlgoSKED25519, Blob: blob, Comment: "yubikey"}}, nil
}

// serveSKAgent serves skAgent on a new socket and points SSH_AUTH_SOCK at it.
func serveSKAgent(t *testing.T) {
	agenttest.Serve(t, skAgent{agent.NewKeyring()})
}

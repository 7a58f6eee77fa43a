package sign

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/openwop/wopkit/internal/sign/agenttest"
	"github.com/openwop/wopkit/internal/werr"
)

// fakeAgent is an in-process ssh-agent (x/crypto's keyring, served over a
// Unix socket as OpenSSH's is) that can also list keys it cannot sign with,
// such as a FIDO ed25519-sk key, and can answer with a wrong signature. The
// real ssh-agent is exercised by cmd/wopkit's tests.
type fakeAgent struct {
	agent.Agent
	extra  []*agent.Key
	badSig bool
}

func (f *fakeAgent) List() ([]*agent.Key, error) {
	ks, err := f.Agent.List()
	return append(append([]*agent.Key{}, f.extra...), ks...), err
}

func (f *fakeAgent) Sign(k ssh.PublicKey, data []byte) (*ssh.Signature, error) {
	s, err := f.Agent.Sign(k, data)
	if err == nil && f.badSig {
		s.Blob[0] ^= 1
	}
	return s, err
}

// serveAgent serves a on a new socket and sets SSH_AUTH_SOCK to it.
func serveAgent(t testing.TB, a agent.Agent) string {
	t.Helper()
	return agenttest.Serve(t, a)
}

// skKey is an sk-ssh-ed25519@openssh.com public key as an agent lists it.
func skKey(t *testing.T, comment string) *agent.Key {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	blob := ssh.Marshal(struct {
		Name string
		Key  []byte
		App  string
	}{ssh.KeyAlgoSKED25519, pub, "ssh:"})
	if _, err := ssh.ParsePublicKey(blob); err != nil {
		t.Fatalf("the sk key blob does not parse: %v", err)
	}
	return &agent.Key{Format: ssh.KeyAlgoSKED25519, Blob: blob, Comment: comment}
}

func addEd25519(t testing.TB, a agent.Agent, comment string) (ed25519.PrivateKey, string) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	if err := a.Add(agent.AddedKey{PrivateKey: priv, Comment: comment}); err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return priv, ssh.FingerprintSHA256(sp)
}

// packJSONFor is a small pack.json as the method signs it.
func packJSONFor(method string) []byte {
	if method == MethodManual {
		return []byte(`{"engines":{"openwop":">=1.0.0 <2.0.0"},"name":"vendor.acme.hello","signing":{"method":"manual","publicKeyRef":"me-1","signatureRef":"keys/pack.json.sig"},"version":"1.0.0"}`)
	}
	return []byte(`{"name":"vendor.acme.hello","signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"},"version":"1.0.0"}`)
}

func wantCode(t *testing.T, err error, code string, class werr.Class) {
	t.Helper()
	c, _ := werr.ClassOf(err)
	if werr.CodeOf(err) != code || c != class {
		t.Fatalf("got %v (code %q, class %d), want code %q class %d", err, werr.CodeOf(err), c, code, class)
	}
}

// The agent's Ed25519 signature, through the scheme signer, is byte for byte
// the one the same key gives from a file, and it is selected by nothing
// (the only Ed25519 key), fingerprint or comment.
func TestAgentKeySignsAsAKeyFile(t *testing.T) {
	ring := agent.NewKeyring()
	priv, fp := addEd25519(t, ring, "me@acme")
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader) // not Ed25519: ignored by "ssh-agent:"
	if err := ring.Add(agent.AddedKey{PrivateKey: ec, Comment: "ec"}); err != nil {
		t.Fatal(err)
	}
	serveAgent(t, &fakeAgent{Agent: ring, extra: []*agent.Key{skKey(t, "fido")}})
	for _, ref := range []string{"ssh-agent:", "ssh-agent:" + fp, "ssh-agent:me@acme"} {
		k, err := LoadPrivateKey(ref, nil)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if !bytes.Equal(k.Public().(ed25519.PublicKey), priv.Public().(ed25519.PublicKey)) {
			t.Fatalf("%s selected another key", ref)
		}
		for _, method := range []string{MethodV2, MethodManual} {
			pj := packJSONFor(method)
			s, err := NewEd25519Signer(method, k, "me-1")
			if err != nil {
				t.Fatal(err)
			}
			sig, err := s.Sign(context.Background(), pj)
			if err != nil {
				t.Fatalf("%s %s: %v", ref, method, err)
			}
			if want := ed25519.Sign(priv, pj); !bytes.Equal(sig.Detached, want) || !bytes.Equal(sig.Files[SignatureFile], want) {
				t.Fatalf("%s %s: the agent's signature differs from the key file's", ref, method)
			}
		}
	}
}

func TestAgentKeyRefusals(t *testing.T) {
	t.Run("no SSH_AUTH_SOCK", func(t *testing.T) {
		t.Setenv(AgentSocketEnv, "")
		_, err := LoadPrivateKey("ssh-agent:", nil)
		wantCode(t, err, "ssh_agent_unavailable", werr.Usage)
	})
	t.Run("agent gone", func(t *testing.T) {
		t.Setenv(AgentSocketEnv, filepath.Join(t.TempDir(), "no-agent"))
		_, err := LoadPrivateKey("ssh-agent:", nil)
		wantCode(t, err, "ssh_agent_unreachable", werr.Usage)
	})
	t.Run("not an agent", func(t *testing.T) {
		dir, _ := os.MkdirTemp("", "wopkit-agent-")
		t.Cleanup(func() { os.RemoveAll(dir) })
		l, err := net.Listen("unix", filepath.Join(dir, "s"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("HTTP/1.1 400 nope\r\n\r\n"))
				c.Close()
			}
		}()
		t.Setenv(AgentSocketEnv, filepath.Join(dir, "s"))
		_, err = LoadPrivateKey("ssh-agent:", nil)
		wantCode(t, err, "ssh_agent_unreachable", werr.Usage)
	})
	t.Run("agent that never answers", func(t *testing.T) {
		dir, _ := os.MkdirTemp("", "wopkit-agent-")
		t.Cleanup(func() { os.RemoveAll(dir) })
		l, err := net.Listen("unix", filepath.Join(dir, "s"))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		defer func() { close(done); l.Close() }()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go func() { <-done; c.Close() }() // read nothing, answer nothing
			}
		}()
		t.Setenv(AgentSocketEnv, filepath.Join(dir, "s"))
		_, err = ListAgentKeysWithin(50 * time.Millisecond)
		wantCode(t, err, "ssh_agent_unreachable", werr.Usage)
	})
	t.Run("empty agent", func(t *testing.T) {
		serveAgent(t, agent.NewKeyring())
		_, err := LoadPrivateKey("ssh-agent:", nil)
		wantCode(t, err, "ssh_agent_no_ed25519_key", werr.Invalid)
	})
	t.Run("only an ecdsa key", func(t *testing.T) {
		ring := agent.NewKeyring()
		ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		ring.Add(agent.AddedKey{PrivateKey: ec, Comment: "ec"})
		serveAgent(t, ring)
		_, err := LoadPrivateKey("ssh-agent:", nil)
		wantCode(t, err, "ssh_agent_no_ed25519_key", werr.Invalid)
		if !strings.Contains(err.Error(), "ecdsa-sha2-nistp256") {
			t.Errorf("the error does not list what the agent holds: %v", err)
		}
		_, err = LoadPrivateKey("ssh-agent:ec", nil)
		wantCode(t, err, "key_algorithm_unsupported", werr.Invalid)
	})
	t.Run("ed25519-sk", func(t *testing.T) {
		sk := skKey(t, "yubikey")
		serveAgent(t, &fakeAgent{Agent: agent.NewKeyring(), extra: []*agent.Key{sk}})
		for _, ref := range []string{"ssh-agent:", "ssh-agent:yubikey", "ssh-agent:" + ssh.FingerprintSHA256(sk)} {
			_, err := LoadPrivateKey(ref, nil)
			wantCode(t, err, "ssh_agent_key_sk", werr.Invalid)
		}
	})
	t.Run("fingerprint or comment not there", func(t *testing.T) {
		ring := agent.NewKeyring()
		_, fp := addEd25519(t, ring, "me@acme")
		serveAgent(t, ring)
		for _, ref := range []string{"ssh-agent:SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "ssh-agent:you@acme", "ssh-agent:" + strings.ToLower(fp)} {
			_, err := LoadPrivateKey(ref, nil)
			wantCode(t, err, "ssh_agent_key_not_found", werr.Invalid)
			if !strings.Contains(err.Error(), fp) {
				t.Errorf("the error does not list the agent's key %s: %v", fp, err)
			}
		}
	})
	t.Run("several", func(t *testing.T) {
		ring := agent.NewKeyring()
		_, fp1 := addEd25519(t, ring, "a")
		_, fp2 := addEd25519(t, ring, "a")
		serveAgent(t, ring)
		for _, ref := range []string{"ssh-agent:", "ssh-agent:a"} {
			_, err := LoadPrivateKey(ref, nil)
			wantCode(t, err, "ssh_agent_key_ambiguous", werr.Usage)
			if !strings.Contains(err.Error(), fp1) || !strings.Contains(err.Error(), fp2) {
				t.Errorf("the error does not list both keys: %v", err)
			}
		}
		if _, err := LoadPrivateKey("ssh-agent:"+fp2, nil); err != nil {
			t.Errorf("by fingerprint: %v", err)
		}
	})
	t.Run("agent signs wrong", func(t *testing.T) {
		ring := agent.NewKeyring()
		addEd25519(t, ring, "me")
		serveAgent(t, &fakeAgent{Agent: ring, badSig: true})
		k, err := LoadPrivateKey("ssh-agent:", nil)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := NewEd25519Signer(MethodV2, k, "me-1")
		_, err = s.Sign(context.Background(), []byte(`{"a":1}`))
		wantCode(t, err, "ssh_agent_sign_failed", werr.Env)
	})
	t.Run("key removed after selection", func(t *testing.T) {
		ring := agent.NewKeyring()
		addEd25519(t, ring, "me")
		serveAgent(t, ring)
		k, err := LoadPrivateKey("ssh-agent:", nil)
		if err != nil {
			t.Fatal(err)
		}
		ring.RemoveAll()
		s, _ := NewEd25519Signer(MethodV2, k, "me-1")
		_, err = s.Sign(context.Background(), []byte(`{"a":1}`))
		wantCode(t, err, "ssh_agent_sign_failed", werr.Env)
	})
}

func TestListAgentKeys(t *testing.T) {
	ring := agent.NewKeyring()
	_, fp := addEd25519(t, ring, "me@acme")
	serveAgent(t, &fakeAgent{Agent: ring, extra: []*agent.Key{skKey(t, "fido")}})
	keys, err := ListAgentKeys()
	if err != nil {
		t.Fatal(err)
	}
	var usable []string
	for _, k := range keys {
		if k.Usable() {
			usable = append(usable, k.Ref())
		}
	}
	if len(keys) != 2 || len(usable) != 1 || usable[0] != "ssh-agent:"+fp {
		t.Fatalf("keys %v, usable %v; want two keys, one usable ssh-agent:%s", keys, usable, fp)
	}
	var e *werr.Error
	if _, err := LoadPrivateKey("ssh-agent:fido", nil); !errors.As(err, &e) || !strings.Contains(e.Hint, "--prepare") {
		t.Errorf("the sk refusal does not point at another way: %v", err)
	}
}

package sign

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh/agent"
)

// BenchmarkSignPackJSON: one v2 signature over a 4 KiB pack.json with a
// key in memory (a key file), through an in-process ssh-agent, and through
// OpenSSH's ssh-agent when it is installed. What the agent adds is one
// socket connection and round trip per signature.
func BenchmarkSignPackJSON(b *testing.B) {
	pj := []byte(`{"description":"` + strings.Repeat("x", 4<<10) + `","name":"vendor.acme.hello","signing":{"keyId":"me-1","scheme":"ed25519-canonical-json"},"version":"1.0.0"}`)
	run := func(b *testing.B, s *Ed25519Signer) {
		for b.Loop() {
			if _, err := s.Sign(context.Background(), pj); err != nil {
				b.Fatal(err)
			}
		}
	}
	ring := agent.NewKeyring()
	priv, _ := addEd25519(b, ring, "me")
	b.Run("file", func(b *testing.B) {
		s, _ := NewEd25519Signer(MethodV2, priv, "me-1")
		run(b, s)
	})
	b.Run("agent-in-process", func(b *testing.B) {
		serveAgent(b, ring)
		k, err := OpenAgentKey("ssh-agent:")
		if err != nil {
			b.Fatal(err)
		}
		s, _ := NewEd25519Signer(MethodV2, k, "me-1")
		run(b, s)
	})
	b.Run("openssh-agent", func(b *testing.B) {
		if _, err := exec.LookPath("ssh-agent"); err != nil {
			b.Skip("ssh-agent not installed")
		}
		dir, _ := os.MkdirTemp("", "wopkit-agent-")
		sock := filepath.Join(dir, "sock")
		cmd := exec.Command("ssh-agent", "-D", "-a", sock)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); os.RemoveAll(dir) })
		b.Setenv(AgentSocketEnv, sock)
		for i := 0; ; i++ {
			if _, err := os.Stat(sock); err == nil {
				break
			}
			if i == 500 {
				b.Fatal("ssh-agent did not start")
			}
			time.Sleep(10 * time.Millisecond)
		}
		c, err := dialAgent(sock)
		if err != nil {
			b.Fatal(err)
		}
		err = agent.NewClient(c).Add(agent.AddedKey{PrivateKey: priv, Comment: "me"})
		c.Close()
		if err != nil {
			b.Fatal(err)
		}
		k, err := OpenAgentKey("ssh-agent:")
		if err != nil {
			b.Fatal(err)
		}
		s, _ := NewEd25519Signer(MethodV2, k, "me-1")
		run(b, s)
	})
}

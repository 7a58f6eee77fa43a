// Package agenttest serves an ssh-agent from a test: the in-memory agents
// the sign, wizard and command tests sign with, on a socket of their own.
package agenttest

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh/agent"
)

// Serve serves a on a new Unix socket, points SSH_AUTH_SOCK at it for the
// test, and returns the socket's path. The socket and its folder go when
// the test ends.
func Serve(t testing.TB, a agent.Agent) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wopkit-agent-") // short: a socket path has ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(); os.RemoveAll(dir) })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _ = agent.ServeAgent(a, c) }()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
	return sock
}

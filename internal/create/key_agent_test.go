package create

import (
	"strings"
	"testing"
)

// agentNote names the key as it was chosen, quoted for a shell when the
// comment needs it.
func TestAgentNote(t *testing.T) {
	for ref, want := range map[string]string{
		"ssh-agent:":                          "wopkit keygen --from-ssh-agent --out acme-1",
		"ssh-agent:SHA256:Xb4+/k=":            "wopkit keygen --from-ssh-agent SHA256:Xb4+/k= --out acme-1",
		"ssh-agent:cardno:000F_12345678":      "wopkit keygen --from-ssh-agent cardno:000F_12345678 --out acme-1",
		"ssh-agent:Acme release key (laptop)": "wopkit keygen --from-ssh-agent 'Acme release key (laptop)' --out acme-1",
		"ssh-agent:it's mine":                 "wopkit keygen --from-ssh-agent 'it'\\''s mine' --out acme-1",
	} {
		got := agentNote(ref, "acme-1")
		if got != "the ssh-agent keeps the signing key; write its public key for the registry: "+want {
			t.Errorf("%s: %s", ref, got)
		}
	}
}

// Issue 25, item 13: the next steps run in order, each step's inputs there
// when it runs: with a key the ssh-agent keeps, the keygen that writes its
// public half comes before the verify that reads it.
func TestNextStepsWriteTheAgentKeyBeforeVerifyReadsIt(t *testing.T) {
	r := Result{Dir: "my-pack", pack: true, packed: true, Tarball: "p-0.1.0.tgz", Signature: "p-0.1.0.sig",
		Method: "v2", KeyID: "agent-1", PublicKey: "agent-1.pub", agentStep: agentNote("ssh-agent:SHA256:abc", "agent-1")}
	next := r.Next()
	writes, reads := -1, -1
	for i, n := range next {
		if strings.Contains(n, "keygen --from-ssh-agent") && strings.Contains(n, "--out agent-1") {
			writes = i
		}
		if strings.Contains(n, "verify p-0.1.0.tgz --key agent-1.pub") {
			reads = i
		}
	}
	if writes < 0 || reads < 0 || writes > reads {
		t.Fatalf("keygen at %d, verify at %d: %q", writes, reads, next)
	}
	if sum := strings.Join(r.Summary(), "\n"); strings.Count(sum, "keygen --from-ssh-agent") != 1 {
		t.Errorf("the keygen step is not said once:\n%s", sum)
	}
}

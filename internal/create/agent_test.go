package create

import "testing"

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

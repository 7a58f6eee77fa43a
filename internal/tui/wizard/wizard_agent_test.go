package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/keys"

	"github.com/openwop/wopkit/internal/scaffold"

	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/agenttest"
	"github.com/openwop/wopkit/internal/verify"
)

// serveTestAgent serves an in-process ssh-agent (x/crypto's keyring over a
// Unix socket, the protocol OpenSSH's agent speaks; cmd/wopkit's tests use
// the real one) holding an Ed25519 key "acme-release" and an ECDSA key, and
// points SSH_AUTH_SOCK at it. It returns the Ed25519 key's public half and
// its ssh-agent: reference.
func serveTestAgent(t *testing.T) (ed25519.PublicKey, string) {
	t.Helper()
	ring := agent.NewKeyring()
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	for _, k := range []agent.AddedKey{{PrivateKey: priv, Comment: "acme-release"}, {PrivateKey: ec, Comment: "an-ecdsa-key"}} {
		if err := ring.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	agenttest.Serve(t, ring)
	sp, _ := ssh.NewPublicKey(pub)
	return pub, sign.AgentPrefix + ssh.FingerprintSHA256(sp)
}

// TestWizardSignsWithAgentKey: with SSH_AUTH_SOCK set, the sign page offers
// the agent's Ed25519 key (not its ECDSA one); choosing it with the keys
// signs the release with it (it verifies with the agent's public key), no
// key file is made, and the summary says how to write the public key.
func TestWizardSignsWithAgentKey(t *testing.T) {
	pub, ref := serveTestAgent(t)
	t.Chdir(t.TempDir())
	a := newAnswers()
	a.Pack.Name = "community.acme.weather"
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, "sign")
	d.Keys("enter") // the method: v2
	v := d.View()
	if !strings.Contains(v, "ssh-agent key acme-release ("+strings.TrimPrefix(ref, sign.AgentPrefix)[:15]+"…)") {
		t.Fatalf("the sign page does not offer the agent's key %s:\n%s", ref, v)
	}
	if strings.Contains(v, "an-ecdsa-key") {
		t.Errorf("the sign page offers the agent's ECDSA key:\n%s", v)
	}
	d.Keys("down", "down", "enter") // the third choice: the agent's key
	if a.KeyChoice != ref {
		t.Fatalf("key choice %q, want %q:\n%s", a.KeyChoice, ref, d.View())
	}
	enterUntil(t, d, w, "review")
	if a.KeyPath != ref || a.KeyID != "acme-1" {
		t.Fatalf("key %q id %q, want %q acme-1; problems %v", a.KeyPath, a.KeyID, ref, w.rev.Problems)
	}
	if w.rev.Plan == nil {
		t.Fatalf("problems: %v", w.rev.Problems)
	}
	d.Keys("enter")
	if !w.finished {
		t.Fatalf("not written: %q %v", w.err, w.rev.Problems)
	}
	res := verify.File(context.Background(), "community.acme.weather-0.1.0.tgz", verify.Policy{Key: pub})
	if !res.Verified || res.KeyID != "acme-1" {
		t.Fatalf("the release does not verify with the agent's key: %+v", res.Error)
	}
	if keys, _ := filepath.Glob("*.key"); len(keys) > 0 {
		t.Errorf("a key file was made: %v", keys)
	}
	s := strings.Join(w.done, "\n")
	if !strings.Contains(s, "wopkit keygen --from-ssh-agent "+strings.TrimPrefix(ref, sign.AgentPrefix)+" --out acme-1") ||
		!strings.Contains(s, "--key acme-1.pub") {
		t.Errorf("the summary does not say how to get the public key:\n%s", s)
	}
	// issue 25, item 13: the step that writes acme-1.pub comes before the
	// verify that reads it
	if g, v := strings.Index(s, "keygen --from-ssh-agent"), strings.Index(s, "verify community.acme.weather-0.1.0.tgz --key acme-1.pub"); g < 0 || v < 0 || g > v {
		t.Errorf("the next steps verify with acme-1.pub (at %d) before the keygen that writes it (at %d):\n%s", v, g, s)
	}
}

// TestWizardAgentKeyChoices: no agent choices without SSH_AUTH_SOCK; an
// agent out of reach is said on the Key field; a key the agent no longer
// holds is a problem on the review, on the sign page.
func TestWizardAgentKeyChoices(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv(sign.AgentSocketEnv, "")
	if opts, note := keys.AgentChoices(); len(opts) != 0 || note != "" {
		t.Errorf("without SSH_AUTH_SOCK: %d choices, note %q", len(opts), note)
	}
	t.Setenv(sign.AgentSocketEnv, filepath.Join(t.TempDir(), "gone"))
	if opts, note := keys.AgentChoices(); len(opts) != 0 || !strings.Contains(note, "cannot reach the ssh-agent") {
		t.Errorf("an agent out of reach: %d choices, note %q", len(opts), note)
	}
	_, ref := serveTestAgent(t)
	a := newAnswers()
	a.Pack.Name = "community.acme.weather"
	a.KeyChoice, a.KeyPath = ref, sign.AgentPrefix+"SHA256:"+strings.Repeat("A", 43)
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, "review")
	if len(w.rev.Problems) != 1 || w.rev.Problems[0].Field != "keyPath" || !strings.Contains(w.rev.Problems[0].Message, "holds no key with the fingerprint") {
		t.Fatalf("a key the agent lacks: %+v", w.rev.Problems)
	}
	if owner(a, w.rev.Problems[0]).pg.id != "sign" {
		t.Errorf("the problem leads to %s", owner(a, w.rev.Problems[0]).pg.id)
	}
}

// Issue 44, item 9: the agent's Label field's help says what an empty one
// becomes, as the scaffold writes it (the id's last part in words), not
// the schema's "Falls back to persona", which the written label is not.
func TestAgentLabelHelpSaysWhatIsWritten(t *testing.T) {
	t.Parallel()
	a := newAnswers()
	a.Pack.Agents[0].Persona = "Someone Else"
	d, w := wizardOn(t, a, Options{What: whatAgent, DraftDir: t.TempDir()})
	toPage(d, w, "agent")
	v := flat(d.View())
	if strings.Contains(v, "Falls back to") || !strings.Contains(v, "empty: the agent id's last part in words") {
		t.Errorf("the Label field's help does not say what an empty one becomes:\n%s", d.View())
	}
	p := makePlan(testValidator, a)
	if p.Plan == nil {
		t.Fatalf("no plan: %v %v", p.Err, p.Problems)
	}
	id := a.Pack.Agents[0].ID
	want := `"label": "` + scaffold.Title(id[strings.LastIndex(id, ".")+1:]) + `"`
	for _, f := range p.Plan.Files {
		if strings.Contains(string(f.Data), `"persona": "Someone Else"`) && !strings.Contains(string(f.Data), want) {
			t.Errorf("%s: the label written is not the id's last part in words (%s):\n%s", f.Path, want, f.Data)
		}
	}
}

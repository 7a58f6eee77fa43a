package sign

import (
	"crypto"
	"crypto/ed25519"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
)

// Keys held by an ssh-agent (OpenSSH's, gpg-agent's ssh support serving an
// OpenPGP card or YubiKey, 1Password's): the private key never leaves the
// agent. An agent signs with an Ed25519 key by plain Ed25519 over the bytes
// it is given (RFC 8709: the signature blob is the 64 raw bytes), which is
// exactly what the manual and v2 schemes need, so an AgentKey is a
// crypto.Signer that Ed25519Signer uses like a key file.

// AgentPrefix starts a --key that names a key in the ssh-agent:
// "ssh-agent:" (the agent's only Ed25519 key), "ssh-agent:SHA256:<fp>" (by
// its fingerprint, as `ssh-add -l` prints it) or "ssh-agent:<comment>".
const AgentPrefix = "ssh-agent:"

// AgentSocketEnv names the agent's socket.
const AgentSocketEnv = "SSH_AUTH_SOCK"

// agentListTimeout bounds reaching the agent and listing its keys (gpg-agent
// may start scdaemon to read a card). Signing has no bound: a card may wait
// for its PIN or a touch.
const agentListTimeout = 10 * time.Second

// IsAgentRef reports whether a --key value names an ssh-agent key.
func IsAgentRef(ref string) bool { return strings.HasPrefix(ref, AgentPrefix) }

// AgentKeyInfo describes one key the agent holds.
type AgentKeyInfo struct {
	Type        string // the SSH key type, e.g. "ssh-ed25519", "sk-ssh-ed25519@openssh.com"
	Fingerprint string // "SHA256:<base64>", as `ssh-add -l` prints it
	Comment     string // what `ssh-add` recorded, usually the key file or user@host
	blob        []byte
}

// Usable reports whether wopkit can sign with the key: plain Ed25519.
func (k AgentKeyInfo) Usable() bool { return k.Type == ssh.KeyAlgoED25519 }

// Ref is the --key value that selects this key.
func (k AgentKeyInfo) Ref() string { return AgentPrefix + k.Fingerprint }

// String is the key as error messages and the wizard list it.
func (k AgentKeyInfo) String() string {
	s := k.Fingerprint + " (" + k.Type
	if k.Comment != "" {
		s += ", " + termsafe.String(k.Comment)
	}
	return s + ")"
}

// Label is a short name for the key that fits a small terminal: its
// comment, shortened, and the start of its fingerprint.
func (k AgentKeyInfo) Label() string {
	fp := k.Fingerprint
	if len(fp) > 15 {
		fp = fp[:15] + "…"
	}
	c := []rune(termsafe.String(k.Comment))
	if len(c) > 24 {
		c = append(c[:23], '…')
	}
	return string(c) + " (" + fp + ")"
}

// AgentKey is an Ed25519 key held by the ssh-agent, as a crypto.Signer.
// Each signature dials the agent afresh, so an AgentKey holds no
// connection; every signature is checked against the public key before it
// is returned.
type AgentKey struct {
	Info   AgentKeyInfo
	socket string
	pub    ed25519.PublicKey
	sshPub ssh.PublicKey
}

// Public returns the key's ed25519.PublicKey.
func (k *AgentKey) Public() crypto.PublicKey { return k.pub }

// Sign asks the agent to sign msg (the message itself: Ed25519 does not
// prehash, so opts must be crypto.Hash(0)).
func (k *AgentKey) Sign(_ io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error) {
	if opts != nil && opts.HashFunc() != 0 {
		return nil, werr.New(werr.Invalid, "key_algorithm_unsupported", "the ssh-agent key %s signs messages, not %v digests", k.Info.Fingerprint, opts.HashFunc())
	}
	conn, err := dialAgent(k.socket)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	sig, err := agent.NewClient(conn).Sign(k.sshPub, msg)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "ssh_agent_sign_failed", err, "the ssh-agent did not sign %d bytes with %s", len(msg), k.Info).
			WithHint("the agent refused or the key went away (a card removed, a PIN or confirmation declined, a locked agent): check `ssh-add -l` and try again; " +
				"a smart card receives the whole pack.json (Ed25519 does not prehash) and some refuse long messages: see docs/GUIDE.md, \"Signing without key files\"")
	}
	if sig.Format != ssh.KeyAlgoED25519 || len(sig.Blob) != ed25519.SignatureSize || !ed25519.Verify(k.pub, msg, sig.Blob) {
		return nil, werr.New(werr.Env, "ssh_agent_sign_failed", "the ssh-agent's %s signature with %s does not verify as plain Ed25519", sig.Format, k.Info).
			WithHint("this agent does not sign Ed25519 as OpenSSH does; use another agent or a key file")
	}
	return sig.Blob, nil
}

// AgentSocket returns $SSH_AUTH_SOCK, or a usage error saying how to start
// an agent when it is unset.
func AgentSocket() (string, error) {
	sock := os.Getenv(AgentSocketEnv)
	if sock == "" {
		return "", werr.New(werr.Usage, "ssh_agent_unavailable", "--key %s... asks the ssh-agent, but %s is not set", AgentPrefix, AgentSocketEnv).
			WithHint("start one and add your key (eval \"$(ssh-agent)\"; ssh-add ~/.ssh/id_ed25519), or for gpg-agent export %s=\"$(gpgconf --list-dirs agent-ssh-socket)\"", AgentSocketEnv)
	}
	return sock, nil
}

func dialAgent(sock string) (net.Conn, error) { return dialAgentWithin(sock, agentListTimeout) }

func dialAgentWithin(sock string, d time.Duration) (net.Conn, error) {
	conn, err := net.DialTimeout("unix", sock, d)
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "ssh_agent_unreachable", err, "cannot reach the ssh-agent at %s=%s", AgentSocketEnv, sock).
			WithHint("check that the agent runs (`ssh-add -l`); %s may point at an agent that has exited", AgentSocketEnv)
	}
	return conn, nil
}

// ListAgentKeys lists every key the agent at $SSH_AUTH_SOCK holds, usable
// or not (see AgentKeyInfo.Usable).
func ListAgentKeys() ([]AgentKeyInfo, error) { return ListAgentKeysWithin(agentListTimeout) }

// ListAgentKeysWithin is ListAgentKeys that gives up after d (a screen that
// lists the keys must not hang on an agent that does not answer).
func ListAgentKeysWithin(d time.Duration) ([]AgentKeyInfo, error) {
	sock, err := AgentSocket()
	if err != nil {
		return nil, err
	}
	return listAgent(sock, d)
}

func listAgent(sock string, d time.Duration) ([]AgentKeyInfo, error) {
	conn, err := dialAgentWithin(sock, d)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(d))
	keys, err := agent.NewClient(conn).List()
	if err != nil {
		return nil, werr.Wrap(werr.Usage, "ssh_agent_unreachable", err, "the ssh-agent at %s=%s did not list its keys", AgentSocketEnv, sock).
			WithHint("check that it is an ssh-agent and that it runs (`ssh-add -l`)")
	}
	out := make([]AgentKeyInfo, 0, len(keys))
	for _, k := range keys {
		out = append(out, AgentKeyInfo{Type: k.Format, Fingerprint: ssh.FingerprintSHA256(k), Comment: k.Comment, blob: k.Blob})
	}
	return out, nil
}

// OpenAgentKey resolves a --key "ssh-agent:..." reference against the agent
// at $SSH_AUTH_SOCK. It fails, before anything is signed or written, when
// there is no agent (exit 2), when the agent holds no Ed25519 key, none
// with that fingerprint or comment, or only an ed25519-sk one (exit 1), and
// when "ssh-agent:" alone could mean several keys (exit 2, listing them).
func OpenAgentKey(ref string) (*AgentKey, error) {
	sock, err := AgentSocket()
	if err != nil {
		return nil, err
	}
	return openAgentKey(sock, ref)
}

func openAgentKey(sock, ref string) (*AgentKey, error) {
	if !IsAgentRef(ref) {
		return nil, werr.New(werr.Usage, "usage", "%q does not name an ssh-agent key", ref).
			WithHint("write %s, %sSHA256:<fingerprint> or %s<comment>", AgentPrefix, AgentPrefix, AgentPrefix)
	}
	sel := strings.TrimPrefix(ref, AgentPrefix)
	keys, err := listAgent(sock, agentListTimeout)
	if err != nil {
		return nil, err
	}
	info, err := selectAgentKey(keys, sel, sock)
	if err != nil {
		return nil, err
	}
	pk, err := ssh.ParsePublicKey(info.blob)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "key_invalid", err, "the ssh-agent's key %s cannot be read", info)
	}
	var pub ed25519.PublicKey
	if cpk, ok := pk.(ssh.CryptoPublicKey); ok {
		pub, _ = cpk.CryptoPublicKey().(ed25519.PublicKey)
	}
	if len(pub) != ed25519.PublicKeySize {
		return nil, werr.New(werr.Invalid, "key_invalid", "the ssh-agent's key %s is not an Ed25519 public key", info)
	}
	return &AgentKey{Info: info, socket: sock, pub: pub, sshPub: pk}, nil
}

// selectAgentKey picks the key sel names among keys (see OpenAgentKey).
func selectAgentKey(keys []AgentKeyInfo, sel, sock string) (AgentKeyInfo, error) {
	var usable, sk []AgentKeyInfo
	for _, k := range keys {
		switch {
		case k.Usable():
			usable = append(usable, k)
		case isSK(k.Type):
			sk = append(sk, k)
		}
	}
	if sel == "" {
		switch {
		case len(usable) == 1:
			return usable[0], nil
		case len(usable) > 1:
			return AgentKeyInfo{}, werr.New(werr.Usage, "ssh_agent_key_ambiguous", "the ssh-agent holds %d Ed25519 keys: %s", len(usable), listKeys(usable)).
				WithHint("choose one: --key %s<fingerprint> (or %s<comment>)", AgentPrefix+"SHA256:", AgentPrefix)
		case len(sk) > 0:
			return AgentKeyInfo{}, skErr(sk[0])
		}
		return AgentKeyInfo{}, noKeyErr(keys, sock)
	}
	var found []AgentKeyInfo
	for _, k := range keys {
		if k.Fingerprint == sel || (!strings.HasPrefix(sel, "SHA256:") && k.Comment == sel) {
			found = append(found, k)
		}
	}
	if len(found) > 1 {
		// one comment on several keys: the usable ones decide
		var u []AgentKeyInfo
		for _, k := range found {
			if k.Usable() {
				u = append(u, k)
			}
		}
		if len(u) == 1 {
			return u[0], nil
		}
		return AgentKeyInfo{}, werr.New(werr.Usage, "ssh_agent_key_ambiguous", "%d keys in the ssh-agent have the comment %q: %s", len(found), sel, listKeys(found)).
			WithHint("choose one by fingerprint: --key %sSHA256:<fingerprint>", AgentPrefix)
	}
	if len(found) == 0 {
		what := "no key with the comment"
		if strings.HasPrefix(sel, "SHA256:") {
			what = "no key with the fingerprint"
		}
		e := werr.New(werr.Invalid, "ssh_agent_key_not_found", "the ssh-agent at %s holds %s %s", sock, what, sel)
		if len(usable) > 0 {
			return AgentKeyInfo{}, e.WithHint("its Ed25519 keys: %s (add yours with ssh-add)", listKeys(usable))
		}
		return AgentKeyInfo{}, e.WithHint("it holds no Ed25519 key: add one with `ssh-add ~/.ssh/id_ed25519`")
	}
	k := found[0]
	switch {
	case k.Usable():
		return k, nil
	case isSK(k.Type):
		return AgentKeyInfo{}, skErr(k)
	}
	return AgentKeyInfo{}, werr.New(werr.Invalid, "key_algorithm_unsupported", "the ssh-agent's key %s is %s; the manual and v2 schemes sign with Ed25519", k, k.Type).
		WithHint("choose an ssh-ed25519 key (`ssh-add -l` lists them as ED25519), or make one: ssh-keygen -t ed25519")
}

func isSK(typ string) bool { return strings.HasPrefix(typ, "sk-") }

func skErr(k AgentKeyInfo) error {
	return werr.New(werr.Invalid, "ssh_agent_key_sk", "the ssh-agent's key %s is a FIDO security key (%s): its signatures cover the authenticator's data, not plain Ed25519 over pack.json, and no OpenWOP verifier accepts them", k, k.Type).
		WithHint("use an ssh-ed25519 key (an OpenPGP card through gpg-agent's ssh support gives one), or sign with --prepare/--attach")
}

func noKeyErr(keys []AgentKeyInfo, sock string) error {
	e := werr.New(werr.Invalid, "ssh_agent_no_ed25519_key", "the ssh-agent at %s holds no Ed25519 key", sock)
	if len(keys) > 0 {
		return e.WithHint("it holds %s; add an Ed25519 key with `ssh-add ~/.ssh/id_ed25519` (make one with ssh-keygen -t ed25519)", listKeys(keys))
	}
	return e.WithHint("it holds no key at all: add one with `ssh-add ~/.ssh/id_ed25519` (make one with ssh-keygen -t ed25519)")
}

func listKeys(keys []AgentKeyInfo) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

var _ crypto.Signer = (*AgentKey)(nil)

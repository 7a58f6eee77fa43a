package verify

import (
	"bytes"
	"encoding/json"

	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Provider is the gist of a connection pack's provider (its one provider:
// the connection schema allows exactly one per pack).
type Provider struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName,omitempty"`
	// Reach is how the provider is reached: mcp, openapi or integration
	// (provider.reach's one member); Target is the MCP server's URL, the
	// OpenAPI document's ref or the integration node's typeId.
	Reach  string `json:"reach,omitempty"`
	Target string `json:"target,omitempty"`
	// Auth is auth.kind (oauth2, api_key, bearer, basic), AuthFlow its
	// auth.authFlow when it has one.
	Auth     string `json:"auth,omitempty"`
	AuthFlow string `json:"authFlow,omitempty"`
}

// providerOf reads a connection pack's provider object; nil when raw is
// not an object with an id (a provider of the wrong shape is the schema's
// to report, `wopkit validate`).
func providerOf(raw json.RawMessage) *Provider {
	if len(raw) == 0 {
		return nil
	}
	var p struct {
		ID          string `json:"id"`
		DisplayName string `json:"displayName"`
		Auth        struct {
			Kind     string `json:"kind"`
			AuthFlow string `json:"authFlow"`
		} `json:"auth"`
		Reach struct {
			MCP *struct {
				Server struct {
					URL string `json:"url"`
				} `json:"server"`
			} `json:"mcp"`
			OpenAPI *struct {
				Ref string `json:"ref"`
			} `json:"openapi"`
			Integration *struct {
				Node string `json:"node"`
			} `json:"integration"`
		} `json:"reach"`
	}
	if untrusted.DecodeJSON(raw, &p) != nil || p.ID == "" {
		return nil
	}
	out := &Provider{ID: p.ID, DisplayName: p.DisplayName, Auth: p.Auth.Kind, AuthFlow: p.Auth.AuthFlow}
	switch r := p.Reach; {
	case r.MCP != nil:
		out.Reach, out.Target = "mcp", r.MCP.Server.URL
	case r.OpenAPI != nil:
		out.Reach, out.Target = "openapi", r.OpenAPI.Ref
	case r.Integration != nil:
		out.Reach, out.Target = "integration", r.Integration.Node
	}
	return out
}

// Signature is where a tarball's signature is, as its pack.json's signing
// block says: File is the in-tarball file the block names (manual: its
// signatureRef or keys/pack.json.sig; v2: keys/pack.json.sig; sigstore:
// pack.json.sigstore) and Present whether the tarball holds it. Detached
// is set for the legacy ed25519 method, whose signature covers the whole
// .tgz and so lives only beside it. Nothing is verified.
type Signature struct {
	File     string `json:"file,omitempty"`
	Present  bool   `json:"present"`
	Detached bool   `json:"detached,omitempty"`
	// Problem says why the block names no readable file (an unknown
	// method, a signatureRef that is not a clean path inside the pack).
	Problem string `json:"problem,omitempty"`
}

// signatureOf is the Signature of a signing block (nil without one), the
// tarball's entry names given in has.
func signatureOf(block json.RawMessage, has func(name string) bool) *Signature {
	if len(block) == 0 || string(block) == "null" {
		return nil
	}
	var b registry.Signing
	if untrusted.DecodeJSON(block, &b) != nil {
		return &Signature{Problem: "the signing block is not an object wopkit can read"}
	}
	s := &Signature{}
	switch {
	case b.Scheme == sign.SchemeV2:
		s.File = sign.SignatureFile
	case b.Scheme != "":
		s.Problem = "unknown signing scheme " + b.Scheme
	case b.Method == sign.MethodManual && b.SignatureRef != "":
		p, err := packref.Path(b.SignatureRef)
		if err != nil || p == "" {
			s.Problem = "signing.signatureRef is not a clean path inside the pack"
			break
		}
		s.File = p
	case b.Method == sign.MethodManual:
		s.File = sign.SignatureFile
	case b.Method == sign.MethodSigstore:
		s.File = sign.SigstoreFile
	case b.Method == sign.MethodLegacy:
		s.Detached = true
	default:
		s.Problem = "unknown signing method " + b.Method
	}
	s.Present = s.File != "" && has(s.File)
	return s
}

// notATarball is the error for data that is plainly not a gzip stream but
// a JSON document (a pack.json, a version manifest): the reader would call
// it a damaged tarball. It is nil for anything else, left to the reader.
func notATarball(p string, data []byte) error {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return nil
	}
	rest := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\uFEFF")), " \t\r\n")
	if len(rest) == 0 || (rest[0] != '{' && rest[0] != '[') {
		return nil
	}
	return werr.New(werr.Invalid, tarball.CodeCorrupt, "%s is a JSON document, not a tarball (.tgz)", p).
		WithHint("inspect and verify read packed tarballs: check a pack.json or a pack folder with `wopkit validate PATH`, pack it with `wopkit pack DIR`")
}

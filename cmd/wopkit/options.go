package main

import (
	"context"
	"crypto"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Flag groups shared by several verbs, each with AddFlags (cosign's
// cli/options shape). Verbs check combinations in PreRunE.

// OutputOptions is --json.
type OutputOptions struct {
	JSON bool
}

// AddFlags registers --json.
func (o *OutputOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON instead of text")
}

// The output formats of --format.
const (
	FormatText   = "text"
	FormatJSON   = "json"
	FormatGitHub = "github"
	FormatSARIF  = "sarif"
)

// FormatOptions is --format text|json|github|sarif (validate, verify): text
// for people, json as --json prints it, github for GitHub Actions workflow
// commands (annotations on a pull request's lines), sarif for SARIF 2.1.0
// (code scanning). The format changes only what is printed, never the exit
// code.
type FormatOptions struct {
	Format string
}

// AddFlags registers --format.
func (o *FormatOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Format, "format", FormatText, "output format: text, json (as --json), github (workflow-command annotations) or sarif (SARIF 2.1.0)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{FormatText, FormatJSON, FormatGitHub, FormatSARIF}, cobra.ShellCompDirectiveNoFileComp))
}

// Resolve checks --format and folds --json (asJSON) into it: --json is
// --format json, and refused beside another --format.
func (o *FormatOptions) Resolve(cmd *cobra.Command, asJSON bool) error {
	switch o.Format {
	case FormatText, FormatJSON, FormatGitHub, FormatSARIF:
	default:
		return usageErr(fmt.Sprintf("unknown --format %q", o.Format), "use text, json, github or sarif")
	}
	if asJSON {
		if cmd.Flags().Changed("format") && o.Format != FormatJSON {
			return usageErr("--json and --format "+o.Format+" ask for two formats", "give one: --json is --format json")
		}
		o.Format = FormatJSON
	}
	return nil
}

// SizeOptions is --max-size: the limits tarballs are read (and packs
// written) with.
type SizeOptions struct {
	MaxSize int
}

// AddFlags registers --max-size.
func (o *SizeOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().IntVar(&o.MaxSize, "max-size", 10, "largest tarball, in MB compressed: 10 is the registry's limit (50 MB unpacked, 5 MB per entry);\n"+
		"raise it for private packs (unpacked up to 5x, one entry up to half)")
}

// Validate refuses a size below 1 MB.
func (o *SizeOptions) Validate() error {
	if o.MaxSize < 1 {
		return usageErr(fmt.Sprintf("--max-size %d is too small", o.MaxSize), "give the largest tarball in MB, 1 or more (10 is the registry's limit)")
	}
	return nil
}

// Limits are the tarball limits --max-size stands for.
func (o *SizeOptions) Limits() *tarball.Limits {
	l := tarball.Scaled(o.MaxSize)
	return &l
}

// KeyOptions is the signing key: --key FILE and --key-id ID.
type KeyOptions struct {
	Key   string
	KeyID string
}

// AddFlags registers --key and --key-id.
func (o *KeyOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Key, "key", "", "private key file (PKCS#8 PEM; encrypted keys read "+sign.PassphraseEnv+" or prompt),\n"+
		"or a key in the ssh-agent ("+sign.AgentSocketEnv+"): ssh-agent: (its only Ed25519 key), ssh-agent:SHA256:<fingerprint> or ssh-agent:<comment>")
	cmd.Flags().StringVar(&o.KeyID, "key-id", "", "the key id the registry publishes your public key under (goes into the signing block)")
}

// SignMethodOptions is --sign none|manual|v2|sigstore.
type SignMethodOptions struct {
	Method string
}

// AddFlags registers --sign with the given default.
func (o *SignMethodOptions) AddFlags(cmd *cobra.Command, def string) {
	cmd.Flags().StringVar(&o.Method, "sign", def, "signing method: none, manual (v1), v2 (ed25519-canonical-json) or sigstore")
}

// Validate checks the method name and the key flags it needs.
func (o *SignMethodOptions) Validate(k *KeyOptions, allowNone bool) error {
	switch o.Method {
	case sign.MethodNone:
		if !allowNone {
			return usageErr("sign needs a signing method other than none", "pass --sign manual, v2 or sigstore")
		}
		if k.Key != "" {
			return usageErr("--key is given but --sign is none", "pass --sign manual or --sign v2 to sign with the key")
		}
	case sign.MethodManual, sign.MethodV2:
		if k.Key == "" || k.KeyID == "" {
			return usageErr("--sign "+o.Method+" needs --key and --key-id", "e.g. --key me.key --key-id me-1 (make a key with `wopkit keygen`)")
		}
	case sign.MethodSigstore:
	default:
		return usageErr("unknown --sign method "+o.Method, "use none, manual, v2 or sigstore")
	}
	return nil
}

// SigstoreOptions are the Sigstore signing flags (cosign's names).
type SigstoreOptions struct {
	FulcioURL     string
	RekorURL      string
	TSAURL        string
	IdentityToken string
	TrustedRoot   string
}

// AddFlags registers --fulcio-url, --rekor-url, --tsa-url, --identity-token
// and --trusted-root.
func (o *SigstoreOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.FulcioURL, "fulcio-url", "", "Fulcio instance for keyless Sigstore signing (default: the public-good instance)")
	f.StringVar(&o.RekorURL, "rekor-url", "", "Rekor transparency log (default: public-good when keyless, none when keyed)")
	f.StringVar(&o.TSAURL, "tsa-url", "", "timestamp authority (RFC 3161) URL (default: no timestamp)")
	f.StringVar(&o.IdentityToken, "identity-token", "", "identity token (OIDC) for keyless signing (default: $SIGSTORE_ID_TOKEN)")
	f.StringVar(&o.TrustedRoot, "trusted-root", "", "Sigstore trusted_root.json to check a fresh keyless bundle against")
}

// IdentityOptions are the Sigstore verification flags (cosign's names).
type IdentityOptions struct {
	TrustedRoot          string
	CertIdentity         string
	CertIdentityRegexp   string
	CertOIDCIssuer       string
	CertOIDCIssuerRegexp string
}

// AddFlags registers --trusted-root and the --certificate-* flags.
func (o *IdentityOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.TrustedRoot, "trusted-root", "", "Sigstore trusted_root.json (default: the public-good root, fetched through TUF)")
	f.StringVar(&o.CertIdentity, "certificate-identity", "", "expected signer identity (certificate SAN) of a keyless Sigstore bundle")
	f.StringVar(&o.CertIdentityRegexp, "certificate-identity-regexp", "", "expected signer identity, as a Go regexp")
	f.StringVar(&o.CertOIDCIssuer, "certificate-oidc-issuer", "", "expected OIDC issuer of a keyless Sigstore bundle")
	f.StringVar(&o.CertOIDCIssuerRegexp, "certificate-oidc-issuer-regexp", "", "expected OIDC issuer, as a Go regexp")
}

// set reports whether any Sigstore identity option was given.
func (o *IdentityOptions) set() bool {
	return o.TrustedRoot != "" || o.CertIdentity != "" || o.CertIdentityRegexp != "" ||
		o.CertOIDCIssuer != "" || o.CertOIDCIssuerRegexp != ""
}

// bundleVerifier builds the Sigstore verifier when the options ask for one
// (an identity, a trusted root, or an ECDSA key for keyed bundles), else nil.
func (o *IdentityOptions) bundleVerifier(key crypto.PublicKey) (sign.BundleVerifier, error) {
	ecdsaKey := key != nil && sign.AlgorithmOf(key) == sign.ECDSAP256
	if !o.set() && !ecdsaKey {
		return nil, nil
	}
	vo := sigstore.VerifyOptions{TrustedRoot: o.TrustedRoot, CertIdentity: o.CertIdentity,
		CertIdentityRegexp: o.CertIdentityRegexp, CertOIDCIssuer: o.CertOIDCIssuer, CertOIDCIssuerRegexp: o.CertOIDCIssuerRegexp}
	if ecdsaKey {
		vo.Key = key
	}
	// Built on first use, so options that do not concern the packs at hand
	// (a --trusted-root beside manual-signed packs) do not fail them.
	return &lazyBundles{build: func() (sign.BundleVerifier, error) { return sigstore.NewVerifier(vo) }}, nil
}

// lazyBundles builds the Sigstore verifier when the first Sigstore bundle
// is verified; a construction error (such as a missing identity) is that
// bundle's verification error.
type lazyBundles struct {
	build func() (sign.BundleVerifier, error)
	once  sync.Once
	v     sign.BundleVerifier
	err   error
}

func (l *lazyBundles) VerifyBundle(ctx context.Context, bundle, packJSON []byte) (*sign.SignerIdentity, error) {
	l.once.Do(func() { l.v, l.err = l.build() })
	if l.err != nil {
		return nil, l.err
	}
	return l.v.VerifyBundle(ctx, bundle, packJSON)
}

// newSigner builds the Signer the flags ask for; nil for --sign none.
func newSigner(method string, k *KeyOptions, s *SigstoreOptions) (sign.Signer, error) {
	switch method {
	case sign.MethodNone, "":
		return nil, nil
	case sign.MethodSigstore:
		so := sigstore.SignOptions{FulcioURL: s.FulcioURL, RekorURL: s.RekorURL, TSAURL: s.TSAURL,
			IdentityToken: s.IdentityToken, TrustedRoot: s.TrustedRoot}
		if k.Key != "" {
			key, err := sign.LoadPrivateKey(k.Key, sign.Passphrase("Passphrase for "+k.Key, false))
			if err != nil {
				return nil, err
			}
			so.Key = key
		}
		return sigstore.NewSignerFromEnv(so)
	}
	key, err := sign.LoadPrivateKey(k.Key, sign.Passphrase("Passphrase for "+k.Key, false))
	if err != nil {
		return nil, err
	}
	return sign.NewEd25519Signer(method, key, k.KeyID)
}

// DetachedOptions are sign's two steps for a key wopkit cannot reach (an
// HSM, a KMS, a card): --prepare FILE, then --attach SIG --public-key PUB.
type DetachedOptions struct {
	Prepare   string
	Attach    string
	PublicKey string
}

// AddFlags registers --prepare, --attach and --public-key.
func (o *DetachedOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Prepare, "prepare", "", "write exactly the bytes the signature will cover to FILE (needs --key-id; writes nothing else)")
	f.StringVar(&o.Attach, "attach", "", "a signature made outside wopkit over the --prepare bytes (raw 64 bytes or base64): checked with --public-key, then packed")
	f.StringVar(&o.PublicKey, "public-key", "", "the SPKI PEM public key that checks the --attach signature")
}

// Validate checks the combinations: one step at a time, each with a key
// id and an Ed25519 method, --attach with its public key, and no --key.
func (o *DetachedOptions) Validate(cmd *cobra.Command, method string, k *KeyOptions, output string) error {
	switch {
	case o.Prepare == "" && o.Attach == "":
		if o.PublicKey != "" {
			return usageErr("--public-key checks an --attach signature", "give --attach SIG as well, or --key to sign with a key")
		}
		return nil
	case o.Prepare != "" && o.Attach != "":
		return usageErr("--prepare and --attach are two steps", "first --prepare FILE, sign FILE outside wopkit, then --attach SIG --public-key PUB")
	}
	step := "--prepare"
	if o.Attach != "" {
		step = "--attach"
	}
	if k.Key != "" {
		return usageErr(step+" and --key exclude each other", "--key signs in one step; "+step+" is for a key wopkit cannot reach")
	}
	if k.KeyID == "" {
		return usageErr(step+" needs --key-id", "the key id goes into the signing block, so it is part of the signed bytes: give the same one to --prepare and --attach")
	}
	if cmd.Flags().Changed("sign") || cmd.Flags().Changed("method") {
		if method != sign.MethodV2 && method != sign.MethodManual {
			return usageErr(step+" signs with --sign v2 or manual, not "+method, "Sigstore bundles are made with --sign sigstore in one step")
		}
	}
	if o.Attach != "" && o.PublicKey == "" {
		return usageErr("--attach needs --public-key", "give the SPKI PEM public key of the key that signed (what the registry keychain publishes)")
	}
	if o.Prepare != "" && (o.PublicKey != "" || output != "") {
		return usageErr("--prepare writes only FILE", "--public-key and -o belong to the --attach step")
	}
	return nil
}

// attachSigner loads --attach and --public-key into a Signer that signs
// only the bytes the signature verifies over.
func (o *DetachedOptions) attachSigner(method, keyID string) (sign.Signer, error) {
	pub, err := sign.LoadPublicKey(o.PublicKey)
	if err != nil {
		return nil, err
	}
	sig, err := sign.LoadSignature(o.Attach)
	if err != nil {
		return nil, err
	}
	return sign.NewAttachSigner(method, keyID, pub, sig, o.Attach, o.PublicKey)
}

func usageErr(msg, hint string) error {
	return werr.New(werr.Usage, "usage", "%s", msg).WithHint("%s", hint)
}

// RegistryTreeOptions are --registry DIR and --spec v1|v2 (publish, yank,
// deprecate).
type RegistryTreeOptions struct {
	Registry string
	Spec     string
}

// AddFlags registers --registry and --spec.
func (o *RegistryTreeOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Registry, "registry", "", "checkout of a registry repository (or its registry/ directory)")
	cmd.Flags().StringVar(&o.Spec, "spec", "v2", "registry tree: v2 (where new versions land) or v1 (the frozen v1 tree)")
}

// Validate checks --spec.
func (o *RegistryTreeOptions) Validate() error {
	if o.Spec != "v1" && o.Spec != "v2" {
		return usageErr("unknown --spec "+o.Spec, "use --spec v2 (default) or --spec v1")
	}
	return nil
}

// publishOptions are the flags of `wopkit publish`.
type publishOptions struct {
	Tree       RegistryTreeOptions
	URL        string
	TokenEnv   string
	Sig        string
	AllowOlder bool
	// AllowBreaking publishes a bump smaller than the changes need.
	AllowBreaking bool
	DryRun        bool
	Output        OutputOptions
}

// lifecycleOptions are the flags of `wopkit yank` and `wopkit deprecate`.
type lifecycleOptions struct {
	Tree         RegistryTreeOptions
	Reason       string
	SupersededBy string
	DryRun       bool
	Output       OutputOptions
}

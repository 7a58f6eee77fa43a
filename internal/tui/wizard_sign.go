package tui

import (
	"errors"
	"os"
	"strings"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
)

// signKeyless is the sign page's choice of a keyless Sigstore bundle: a
// Fulcio certificate for the OIDC token in SIGSTORE_ID_TOKEN and a Rekor
// entry (public-good instances unless WOPKIT_FULCIO_URL / WOPKIT_REKOR_URL
// say otherwise).
const signKeyless = "sigstore-keyless"

// needsKey reports whether a signing choice asks for a key file and id.
func needsKey(method string) bool {
	switch method {
	case sign.MethodNone, "skip", signKeyless, "":
		return false
	}
	return true
}

// signGroups ask how to sign the pack after writing it, then (for the
// keyed methods only) which key.
func signGroups(k asker, a *answers) []*huh.Group {
	ready, reason := sigstore.KeylessReady()
	keyless := huh.NewOption("Sigstore keyless (OIDC token from "+sigstore.TokenEnv+")", signKeyless)
	if !ready {
		keyless = huh.NewOption("Sigstore keyless: unavailable, "+reason, signKeyless)
	}
	method := huh.NewSelect[string]().Title("Pack and sign now?").Options(
		huh.NewOption("v2 Ed25519 (ed25519-canonical-json, what the registry publishes)", "v2"),
		huh.NewOption("manual Ed25519 (v1, for hosts that still need v1)", "manual"),
		huh.NewOption("Sigstore bundle with an ECDSA P-256 key (offline, no log entry)", "sigstore"),
		keyless,
		huh.NewOption("pack without signing", "none"),
		huh.NewOption("no, only write the files", "skip")).Value(&a.SignMethod).Key("signMethod").
		Validate(func(m string) error {
			if m == signKeyless && !ready {
				return errors.New("keyless signing needs an OIDC identity token: " + reason)
			}
			return nil
		})
	needed := func(what string) func(string) error {
		return k.keep(func(s string) error {
			if needsKey(a.SignMethod) && strings.TrimSpace(s) == "" {
				return errors.New("a " + what + " is needed to sign")
			}
			return nil
		})
	}
	keys := huh.NewGroup(
		huh.NewSelect[string]().Title("Key").Options(
			huh.NewOption("create a new key pair", "new"),
			huh.NewOption("use an existing private key file", "existing")).Value(&a.KeyChoice).Key("keyChoice"),
		k.reg(huh.NewInput().Title(k.title("Key file", &a.KeyPath)).Description("existing: the .key file; new: the prefix for PREFIX.key and PREFIX.pub (kept outside the pack)").
			Value(&a.KeyPath), needed("key file")).Key("keyPath"),
		k.reg(huh.NewInput().Title(k.title("Key id", &a.KeyID)).Description("the id the registry knows your public key by, e.g. acme-1").
			Value(&a.KeyID), needed("key id")).Key("keyId"),
	).WithHideFunc(func() bool { return !needsKey(a.SignMethod) })
	return []*huh.Group{huh.NewGroup(method), keys}
}

// keylessSummary is the summary's line about a keyless bundle and the
// verify command that pins its signer, read back from the bundle written.
func keylessSummary(tgz, bundlePath string) (line, verifyCmd string) {
	line, verifyCmd = "signed (sigstore keyless): "+bundlePath, "wopkit verify "+tgz+" --certificate-identity ID --certificate-oidc-issuer ISSUER"
	b, err := os.ReadFile(bundlePath)
	if err != nil {
		return line, verifyCmd
	}
	id, err := sigstore.Summarize(b)
	if err != nil || id.Identity == "" {
		return line, verifyCmd
	}
	line = "signed (sigstore keyless as " + id.Identity + ", issuer " + id.Issuer + "): " + bundlePath
	return line, "wopkit verify " + tgz + " --certificate-identity " + id.Identity + " --certificate-oidc-issuer " + id.Issuer
}

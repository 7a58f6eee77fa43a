package main

import (
	"crypto"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/report"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/verify"
	"github.com/openwop/wopkit/internal/werr"
)

// verifyOptions are the flags of `wopkit verify`.
type verifyOptions struct {
	Sig      string
	Key      string
	Registry string
	// AllowYanked accepts a yanked version with a warning (pack_yanked otherwise).
	AllowYanked bool
	Identity    IdentityOptions
	Output      OutputOptions
	Size        SizeOptions
	Format      FormatOptions
}

// newVerifyCmd builds `wopkit verify TGZ...`: one line (or one JSON object)
// per tarball; exit 1 when any fails.
func newVerifyCmd() *cobra.Command {
	o := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify TGZ...",
		Short: "Check signed pack tarballs against a key or a registry root",
		Long: "verify checks v1 manual, v1 legacy ed25519 (over the whole .tgz), v2 ed25519-canonical-json and\n" +
			"sigstore signatures, using the detached <tgz>.sig when present and keys/pack.json.sig otherwise\n" +
			"(two different signatures are refused). With --registry DIR (a registry root or a checkout of a\n" +
			"registry repository) it finds the version in the registry's v2 or v1 tree through the discovery\n" +
			"document's endpoints and also requires: the key that verifies to be in the registry's keychain\n" +
			"(loaded from keys/<keyId>.pub, as the registry's own scripts load it), named by the signing block,\n" +
			"active or rotated (revoked, compromised or a status the registry does not define is refused), and\n" +
			"granted the pack's namespace; the tarball's integrity, name, version and signing to match the\n" +
			"registry's version manifest and per-pack index (and its path, when it sits at\n" +
			"<name>/-/<version>.tgz); the version not to be yanked (--allow-yanked). A per-pack index that\n" +
			"is missing or does not list the version is noted (its row is then not checked). It reports the\n" +
			"tree the version was found in, the key's status and the lifecycle record: deprecation and its\n" +
			"reason, superseding version, advisory, the pack's latest version. Registry files are read as the registry's scripts read them\n" +
			"(JSON.parse: exact member names; a member named twice in any letter case is refused), only from\n" +
			"regular files inside the root and within its size limits. With only --key the signature covers\n" +
			"pack.json alone, and verify says so. When the version manifest `pack` writes sits beside the\n" +
			"tarball (<name>-<version>.json beside <name>-<version>.tgz), the tarball's integrity must match it\n" +
			"(release_integrity_mismatch otherwise: a release interrupted between its renames), and verify says\n" +
			"it does; that file is not signed. --format json, github (GitHub Actions annotations on each\n" +
			"tarball) or sarif (SARIF 2.1.0) prints the results for tools; the exit status is the same.",
		Example: "  wopkit verify core.openwop.a2a-1.1.0.tgz --registry ./registry\n" +
			"  wopkit verify ./registry/v1/packs/*/-/*.tgz --registry ./registry --json\n" +
			"  wopkit verify ../openwop-registry/registry/v2/packs/vendor.acme.hello/-/1.0.0.tgz --registry ../openwop-registry\n" +
			"  wopkit verify hello-1.0.0.tgz --key acme.pub\n" +
			"  wopkit verify dist/*.tgz --key acme.pub --format github\n" +
			"  wopkit verify hello-1.0.0.tgz --certificate-identity me@example.com --certificate-oidc-issuer https://accounts.google.com",
		Args: usageArgs(cobra.MinimumNArgs(1)),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Format.Resolve(cmd, o.Output.JSON); err != nil {
				return err
			}
			if o.Key == "" && o.Registry == "" && !o.Identity.set() {
				return usageErr("verify needs something to trust", "give --key PUB, --registry DIR, or the Sigstore identity flags")
			}
			if err := o.Size.Validate(); err != nil {
				return err
			}
			if o.Sig != "" && len(args) > 1 {
				return usageErr("--sig names one signature but several tarballs were given", "verify one tarball at a time with --sig")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := o.policy()
			if err != nil {
				return inert(err)
			}
			if p.Registry != nil {
				defer p.Registry.Close()
			}
			results := verify.Files(cmd.Context(), args, p)
			failed := 0
			for _, r := range results {
				if !r.Verified {
					failed++
				}
			}
			if err := printVerifyAs(cmd.OutOrStdout(), results, o.Format.Format); err != nil {
				return err
			}
			if failed > 0 {
				return verifyFailure(results, failed)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Sig, "sig", "", "detached signature (default: <tgz without .tgz>.sig when present)")
	f.StringVar(&o.Key, "key", "", "trusted public key (SPKI PEM)")
	f.StringVar(&o.Registry, "registry", "", "registry root (.well-known/openwop-registry.json, keys/, v2/packs/, v1/packs/) or a checkout of a registry repository")
	f.BoolVar(&o.AllowYanked, "allow-yanked", false, "accept a version the registry yanked, with a warning (refused by default with pack_yanked)")
	o.Identity.AddFlags(cmd)
	o.Output.AddFlags(cmd)
	o.Size.AddFlags(cmd)
	o.Format.AddFlags(cmd)
	return cmd
}

func (o *verifyOptions) policy() (verify.Policy, error) {
	p := verify.Policy{SigPath: o.Sig, Limits: o.Size.Limits(), AllowYanked: o.AllowYanked}
	var key crypto.PublicKey
	if o.Key != "" {
		k, err := sign.LoadPublicKey(o.Key)
		if err != nil {
			return p, err
		}
		key = k
		if sign.AlgorithmOf(k) == sign.Ed25519 {
			p.Key = k
		}
	}
	if o.Registry != "" {
		r, err := registry.Open(o.Registry)
		if err != nil {
			return p, err
		}
		p.Registry = r
	}
	bv, err := o.Identity.bundleVerifier(key)
	if err != nil {
		return p, err
	}
	p.Bundles = bv
	return p, nil
}

// printVerifyAs prints the results in the format asked for. In the github
// format a failure is an ::error on its tarball and a note a ::notice; a
// tarball that verified also gets its OK line, as plain text.
func printVerifyAs(w io.Writer, results []*verify.Result, format string) error {
	switch format {
	case FormatSARIF:
		return report.WriteSARIF(w, report.FromVerify(results), sarifOptions("verify"))
	case FormatGitHub:
		dir := workDir()
		for _, r := range results {
			if r.Verified {
				safeLine(w, "%s", verifiedLine(r))
			}
			if err := report.WriteGitHub(w, report.FromVerify([]*verify.Result{r}), dir); err != nil {
				return err
			}
		}
		return nil
	}
	return printVerify(w, results, format == FormatJSON)
}

func printVerify(w io.Writer, results []*verify.Result, asJSON bool) error {
	if asJSON {
		if len(results) == 1 {
			return writeJSON(w, results[0])
		}
		return writeJSON(w, results)
	}
	for _, r := range results {
		if !r.Verified {
			safeLine(w, "FAIL  %s: %s: %s", r.Path, r.Error.Code, r.Error.Message)
			if r.Error.Hint != "" {
				safeLine(w, "      hint: %s", r.Error.Hint)
			}
			continue
		}
		safeLine(w, "%s", verifiedLine(r))
		for _, n := range r.Notes {
			safeLine(w, "      note: %s", n)
		}
	}
	return nil
}

// verifiedLine is the OK line of a tarball that verified: who signed it,
// how, and what the registry records about it.
func verifiedLine(r *verify.Result) string {
	by := r.KeyID
	if s := r.Signer; s != nil && s.Identity != "" {
		by = fmt.Sprintf("%s (issuer %s)", s.Identity, s.Issuer)
	} else if s != nil && by == "" {
		by = "key " + s.KeyHint
	}
	line := fmt.Sprintf("OK    %s: %s@%s, %s signature by %s", r.Path, r.Name, r.Version, r.Method, by)
	if r.Signer != nil && r.Signer.LogIndex >= 0 {
		line += fmt.Sprintf(", transparency-log index %d", r.Signer.LogIndex)
	}
	if r.IntegrityChecked {
		line += ", integrity matches the registry"
		if r.Tree != "" {
			line += " (" + r.Tree + " tree)"
		}
	}
	if r.ReleaseChecked && !r.IntegrityChecked { // beside a registry's tarball, the registry's own manifest
		line += ", integrity matches " + filepath.Base(r.ReleaseManifest) + " beside it"
	}
	if r.Yanked {
		line += ", YANKED"
		if r.YankedReason != "" {
			line += ": " + r.YankedReason
		}
	}
	if r.Deprecated {
		line += ", deprecated"
		if r.DeprecationReason != "" {
			line += ": " + r.DeprecationReason
		}
		if r.SupersededBy != "" {
			line += " (superseded by " + r.SupersededBy + ")"
		}
	}
	if r.AdvisoryURL != "" {
		line += ", advisory " + r.AdvisoryURL
	}
	return line
}

// verifyFailure is the command's error after the results were printed. When
// every failure is of one class its exit code applies (1 refused, 2 missing
// or wrong options, 3 unreadable files); mixed failures exit 1.
func verifyFailure(results []*verify.Result, failed int) error {
	var class werr.Class
	var first error
	for _, r := range results {
		if r.Verified {
			continue
		}
		switch c := werr.Class(werr.ExitCode(r.Err)); {
		case class == 0:
			class, first = c, r.Err
		case c != class:
			class = werr.Invalid
		}
	}
	switch {
	case class == werr.Invalid && len(results) == 1:
		return errSilent
	case len(results) == 1:
		return inert(first) // a usage or environment error says what to do itself
	}
	return werr.New(class, "verify_failed", "%d of %d tarballs failed verification", failed, len(results))
}

// inert returns err with its whole text escaped for a terminal, newlines
// included (printError keeps those): its message can quote a registry's or
// a tarball's strings (a path built from a pack name, a key id). Its class
// and code are err's.
func inert(err error) error {
	if err == nil {
		return nil
	}
	return &inertError{err}
}

type inertError struct{ err error }

func (e *inertError) Error() string {
	msg, hint := verify.ErrorText(e.err)
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return termsafe.String(msg)
}
func (e *inertError) Unwrap() error { return e.err }

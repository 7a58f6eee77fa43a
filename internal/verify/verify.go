// Package verify checks signed pack tarballs against an explicit Policy:
// v1 "manual" and v2 "ed25519-canonical-json" signatures over pack.json, the
// v1 legacy "ed25519" signature over the whole tarball, and Sigstore bundles
// through sign.BundleVerifier; with a registry root also the key's namespace
// grant, the integrity of the tarball and its yanked/deprecated state.
package verify

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Policy says what a verification requires. Exactly one source of trust is
// needed: Key (a public key the caller trusts) or Registry (a registry root
// whose keychain, namespace grants and version manifests are trusted); with
// both, Key replaces the keychain's key and the registry's other checks stay.
type Policy struct {
	Key      crypto.PublicKey
	Registry *registry.Root
	// Bundles verifies Sigstore bundles; nil makes "sigstore" packs fail
	// with a clear error.
	Bundles sign.BundleVerifier
	// SigPath is the detached signature; "" looks for <tgz without .tgz>.sig.
	SigPath string
	// Limits bound the tarball reader; the zero value means
	// tarball.RegistryLimits with a registry and tarball.DefaultLimits without.
	Limits *tarball.Limits
	// AllowYanked accepts a version the registry yanked (with a warning
	// note); by default it is refused with pack_yanked (docs/FORMATS.md §5:
	// verified mode includes "not yanked").
	AllowYanked bool
}

// Result is the verdict on one tarball (the `verify --json` shape of docs/CLI.md).
type Result struct {
	Path             string `json:"path"`
	Verified         bool   `json:"verified"`
	Method           string `json:"method"`
	KeyID            string `json:"keyId"`
	Name             string `json:"name"`
	Version          string `json:"version"`
	Integrity        string `json:"integrity"`
	IntegrityChecked bool   `json:"integrityChecked"`
	CoversOnly       string `json:"coversOnly"`
	Signature        string `json:"signature,omitempty"`
	Yanked           bool   `json:"yanked"`
	YankedReason     string `json:"yankedReason,omitempty"`
	Deprecated       bool   `json:"deprecated"`
	// The registry's lifecycle record of the version (v2 fields; v1's
	// deprecated message is reported as deprecationReason) and of the pack.
	DeprecationReason string `json:"deprecationReason,omitempty"`
	SupersededBy      string `json:"supersededBy,omitempty"`
	AdvisoryURL       string `json:"advisoryUrl,omitempty"`
	PackDeprecated    bool   `json:"packDeprecated,omitempty"`
	PackDeprecation   string `json:"packDeprecationReason,omitempty"`
	Latest            string `json:"latest,omitempty"`
	// Tree is the registry tree the version manifest was found in (v1, v2).
	Tree string `json:"tree,omitempty"`
	// ReleaseManifest is the version manifest beside the tarball (the .json
	// `pack` writes) whose integrity the tarball was checked against, and
	// ReleaseChecked says the check was made (and passed, when Verified).
	ReleaseManifest string `json:"releaseManifest,omitempty"`
	ReleaseChecked  bool   `json:"releaseIntegrityChecked"`
	// KeyStatus is the keychain status of the key that verified (active,
	// rotated, ...), with a registry.
	KeyStatus string               `json:"keyStatus,omitempty"`
	Signer    *sign.SignerIdentity `json:"signer,omitempty"`
	Notes     []string             `json:"notes,omitempty"`
	Error     *ErrorInfo           `json:"error"`
	Err       error                `json:"-"`
}

// ErrorInfo is the stable code and message of a failed verification.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"` // what to do about it
}

// NoteUncovered is said when no registry vouches for the files other than
// pack.json.
const NoteUncovered = "only pack.json is covered by the signature: the other files are not checked (give --registry to check the tarball's integrity)"

// File verifies the tarball at path. Failures are reported in the Result
// (Verified false, Error set), never returned. The file is streamed once
// (read, hashed, inflated and checked in one pass): only pack.json and the
// signature entries are held in memory.
func File(ctx context.Context, path string, p Policy) *Result {
	return file(ctx, path, p, nil)
}

// file is File reading a default detached signature through folders (nil:
// the folder is opened for the one read).
func file(ctx context.Context, path string, p Policy, folders *untrusted.Folders) *Result {
	r := &Result{Path: path}
	src, err := openSource(path, p.limits())
	if err == nil {
		defer src.close()
		err = notATarball(path, src.head)
	}
	if err == nil {
		sig, sigPath, sigErr := readDetached(path, p.SigPath, folders)
		if sigErr != nil {
			err = sigErr
		} else {
			r.Signature = sigPath
			err = check(ctx, src, sig, func() (*release, error) { return releaseOf(path, folders) }, p, r)
		}
	}
	if err != nil {
		r.fail(err)
	}
	r.bound()
	return r
}

// maxText bounds each string a Result keeps from the tarball or the
// registry (a yank reason, a latest version, a message quoting them): a
// hostile registry document may hold strings of megabytes, and `verify`
// keeps the results of every tarball it was given until it prints them.
const maxText = 4 << 10

// clip returns s cut to maxText bytes at a rune boundary, saying how much
// was cut; the cut string shares no memory with s.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// bound clips every string of r (see maxText); an error whose text was cut
// is kept as its class, code, message and hint only.
func (r *Result) bound() {
	for _, p := range []*string{&r.Name, &r.Version, &r.KeyID, &r.KeyStatus, &r.YankedReason, &r.DeprecationReason,
		&r.SupersededBy, &r.AdvisoryURL, &r.PackDeprecation, &r.Latest} {
		*p = clip(*p)
	}
	for i := range r.Notes {
		r.Notes[i] = clip(r.Notes[i])
	}
	if s := r.Signer; s != nil {
		s.Identity, s.Issuer, s.KeyHint = clip(s.Identity), clip(s.Issuer), clip(s.KeyHint)
	}
	if e := r.Error; e != nil {
		msg, hint := clip(e.Message), clip(e.Hint)
		if msg != e.Message || hint != e.Hint {
			class := werr.Class(werr.ExitCode(r.Err))
			e.Message, e.Hint = msg, hint
			r.Err = &werr.Error{Class: class, Code: e.Code, Msg: msg, Hint: hint}
		}
	}
}

func (r *Result) fail(err error) {
	r.Verified, r.Err = false, err
	code := werr.CodeOf(err)
	if code == "" {
		code = "verify_failed"
	}
	msg, hint := ErrorText(err)
	r.Error = &ErrorInfo{Code: code, Message: msg, Hint: hint}
}

// ErrorText is err's message and advice for a person: the messages along
// its chain of *werr.Error joined with ": ", each said once (an error of
// the untrusted layer's JSON reader already states its position and
// reason in its message, so its *untrusted.JSONError is not repeated), and
// the outermost hint given.
func ErrorText(err error) (msg, hint string) {
	var parts []string
	for e := err; e != nil; {
		we, ok := e.(*werr.Error)
		if !ok {
			parts = append(parts, e.Error())
			break
		}
		parts = append(parts, we.Msg)
		if hint == "" {
			hint = we.Hint
		}
		e = we.Err
	}
	return strings.Join(parts, ": "), hint
}

func (p Policy) limits() tarball.Limits {
	switch {
	case p.Limits != nil:
		return *p.Limits
	case p.Registry != nil:
		return tarball.RegistryLimits
	}
	return tarball.DefaultLimits
}

// Bytes verifies a tarball held in memory with its detached signature (nil
// when there is none), filling r. It returns the first failure.
func Bytes(ctx context.Context, tgz, detached []byte, p Policy, r *Result) error {
	return check(ctx, &source{data: tgz, lim: p.limits()}, detached, nil, p, r)
}

// check verifies the tarball of src with its detached signature (nil when
// there is none) and the version manifest beside it (read by loadRel, nil
// for a tarball held in memory), filling r; it returns the first failure.
// The version manifest beside a tarball that sits in the registry it is
// verified against is the registry's own, already read and checked: it is
// not read again.
func check(ctx context.Context, src *source, detached []byte, loadRel func() (*release, error), p Policy, r *Result) error {
	if p.Key == nil && p.Registry == nil && p.Bundles == nil {
		return werr.New(werr.Usage, "verify_no_trust", "nothing to verify %s against", r.Path).
			WithHint("give --key PUB or --registry DIR")
	}
	sigs := map[string]bool{} // names of the signature entries, not held
	a, err := src.walk(func(name string) bool {
		return name == tarball.ManifestName || name == sign.SignatureFile || name == sign.SigstoreFile
	}, func(h tarball.Header) {
		if strings.HasSuffix(h.Name, ".sig") && h.Size <= 1<<20 {
			sigs[h.Name] = true
		}
	})
	r.Integrity = src.integrity
	if err != nil {
		return err
	}
	pf := a.Get("pack.json")
	if pf == nil {
		return werr.New(werr.Invalid, "tarball_manifest_missing", "%s has no pack.json", r.Path)
	}
	pm, err := parsePackJSON(pf.Data, r.Path)
	if err != nil {
		return err
	}
	r.Name, r.Version = pm.Name, pm.Version
	if err := pathAgrees(r.Path, pm); err != nil {
		return err
	}

	var vm *registry.VersionManifest
	if p.Registry != nil {
		if vm, err = p.Registry.Version(pm.Name, pm.Version, treesFor(pm)...); err != nil {
			return err
		}
		if vm.Name != pm.Name || vm.Version != pm.Version {
			return werr.New(werr.Invalid, "pack_identity_mismatch", "the registry's %s describes %s@%s, but %s holds %s@%s", vm.Path, vm.Name, vm.Version, r.Path, pm.Name, pm.Version).
				WithHint("the registry's version manifest and the tarball disagree on what this release is: do not trust it")
		}
		r.Tree = vm.Tree
		r.Yanked, r.YankedReason, r.Deprecated = vm.Yanked, vm.YankedReason, vm.IsDeprecated()
		r.DeprecationReason, r.SupersededBy, r.AdvisoryURL = vm.DeprecationMessage(), vm.SupersededBy, vm.AdvisoryURL
	}
	sch, err := scheme(pm, vm, detached, p, r.Path)
	if err != nil {
		return err
	}
	if sch.sigRef != "" && a.Get(sch.sigRef) == nil && sigs[sch.sigRef] {
		// pack.json names another in-tarball signature: fetch that one alone
		// (a second pass, rare).
		extra, err := src.walk(func(name string) bool { return name == sch.sigRef }, nil)
		if err != nil {
			return err
		}
		a.Files = append(a.Files, extra.Files...)
	}
	r.Method, r.KeyID = sch.method, sch.keyID
	r.CoversOnly = "pack.json"
	if sch.method == sign.MethodLegacy {
		r.CoversOnly = "tarball"
	}

	key, err := trustedKey(sch, pm.Name, p, r)
	if err != nil {
		return err
	}
	if vm != nil {
		if err := indexAgrees(p.Registry, vm, sch, r); err != nil {
			return err
		}
	}
	switch sch.method {
	case sign.MethodSigstore:
		err = verifySigstore(ctx, a, pf.Data, p, r)
	case sign.MethodLegacy:
		if detached == nil {
			return werr.New(werr.Invalid, "signature_missing", "%s is signed with the legacy ed25519 method and has no detached .sig", r.Path).
				WithHint("the legacy signature covers the whole .tgz and lives only beside it: pass --sig FILE")
		}
		// The legacy signature covers the whole .tgz: a streamed file is read
		// again, whole.
		var tgz []byte
		if tgz, err = src.bytes(); err == nil {
			err = sign.VerifyEd25519(key, tgz, detached, r.Path)
		}
	default:
		err = verifyPackJSON(sch, key, a, pf.Data, detached, r)
	}
	if err != nil {
		return err
	}
	if vm != nil {
		if vm.Integrity != r.Integrity {
			return werr.New(werr.Invalid, "pack_integrity_mismatch", "%s has integrity %s, the registry's %s says %s", r.Path, r.Integrity, vm.Path, vm.Integrity).
				WithHint("the tarball is not the one the registry published: a file other than pack.json changed")
		}
		r.IntegrityChecked = true
	}
	if loadRel != nil && vm != nil && samePath(vm.Path, besideManifest(r.Path)) {
		// The registry's own manifest, whose integrity, name and version
		// were just checked.
		r.ReleaseManifest, r.ReleaseChecked = vm.Path, true
	} else if loadRel != nil {
		rel, err := loadRel()
		if err != nil {
			return err
		}
		if rel != nil {
			if err := rel.agrees(r); err != nil {
				return err
			}
		}
	}
	switch {
	case vm != nil || sch.method == sign.MethodLegacy:
	case r.ReleaseChecked:
		r.Notes = append(r.Notes, noteRelease(r.ReleaseManifest))
	default:
		r.Notes = append(r.Notes, NoteUncovered)
	}
	if r.Yanked {
		if !p.AllowYanked {
			why := ""
			if r.YankedReason != "" {
				why = " (" + r.YankedReason + ")"
			}
			return werr.New(werr.Invalid, "pack_yanked", "%s@%s is yanked by the registry%s", r.Name, r.Version, why).
				WithHint("use a version that is not yanked; pass --allow-yanked to accept it anyway (the signature itself is good)")
		}
		r.Notes = append(r.Notes, "warning: this version is yanked by the registry; accepted because of --allow-yanked")
	}
	r.Verified = true
	return nil
}

// maxSignature bounds a detached signature read (an Ed25519 one is 64
// bytes).
const maxSignature = 1 << 20

// readDetached reads the explicit signature file (named by the user, read
// as untrusted.ReadNamed reads it), or the default <tgz without .tgz>.sig
// when it exists: a sidecar in the tarball's folder, read through the
// untrusted layer with that folder as its root (a regular file inside it,
// bounded, never a named pipe or a link leaving it).
func readDetached(tgzPath, sigPath string, folders *untrusted.Folders) ([]byte, string, error) {
	explicit := sigPath != ""
	var data []byte
	var err error
	if explicit {
		data, err = untrusted.ReadNamed(sigPath, maxSignature)
	} else {
		sigPath = strings.TrimSuffix(tgzPath, ".tgz") + sign.DetachedSigExt
		data, err = folders.ReadFile(sigPath, maxSignature)
	}
	switch {
	case err == nil:
		return data, sigPath, nil
	case !explicit && errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case werr.CodeOf(err) != "":
		return nil, "", err
	}
	return nil, "", werr.Wrap(werr.Env, "file_unreadable", err, "cannot read signature %s", sigPath).WithHint("check the --sig path")
}

// readArchive walks the whole tarball through the safe reader (so every
// hostile entry is refused) but keeps in memory only the entries keep
// selects (pack.json, the signature files verification reads; other entries
// up to 1 MiB never), telling seen (when not nil) about every entry.
func readArchive(tgz io.Reader, lim tarball.Limits, keep func(name string) bool, seen func(tarball.Header)) (*tarball.Archive, error) {
	a := &tarball.Archive{}
	err := tarball.Walk(tgz, lim, func(h tarball.Header, body io.Reader) error {
		if seen != nil {
			seen(h)
		}
		if !keep(h.Name) {
			return nil // the walker discards the body
		}
		if h.Size > 1<<20 && h.Name != tarball.ManifestName {
			return nil
		}
		data := make([]byte, h.Size)
		if _, err := io.ReadFull(body, data); err != nil {
			return err
		}
		a.Files = append(a.Files, tarball.File{Header: h, Data: data})
		return nil
	})
	return a, err
}

// Files verifies several tarballs with one policy, on as many goroutines as
// there are CPUs, and returns the results in the order of paths.
func Files(ctx context.Context, paths []string, p Policy) []*Result {
	out := make([]*Result, len(paths))
	var folders untrusted.Folders // the tarballs' folders, for their .sig
	defer folders.Close()
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				out[i] = file(ctx, paths[i], p, &folders)
			}
		}()
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	return out
}

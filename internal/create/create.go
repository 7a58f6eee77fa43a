// Package create is the one workflow that turns a plan into files: after
// the answers are taken in and planned (by the caller, or by Planner),
// Preflight says everything that would stop the files from being written
// and where they go, and Run writes the plan, packs it, signs it and writes
// a new key pair, all or nothing: on a failure everything it wrote is
// removed again and what it replaced is put back. `wopkit new --yes`,
// accessible mode and the wizard all go through it; they only ask and
// print.
package create

import (
	"context"
	"strings"

	"github.com/openwop/wopkit/internal/chainexp"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Keyless is the signing method of a keyless Sigstore bundle: a Fulcio
// certificate for the OIDC token in SIGSTORE_ID_TOKEN and a Rekor entry.
const Keyless = "sigstore-keyless"

// Options say what to create and where.
type Options struct {
	// Plan is the files to write. When nil, Planner makes it (once).
	Plan    *scaffold.Plan
	Planner func() (*scaffold.Plan, error)
	// Dir is the folder the plan is written in ("" is the current one).
	Dir string
	// Force replaces files already there: the folder's and the release's.
	// Without it a file already there is a problem (see Preflight).
	Force bool
	// DryRun: Run checks and reports what it would write, writing nothing.
	DryRun bool
	// Release, when set, packs the written folder into a tarball, signed as
	// it says; nil only writes the files.
	Release *Release
	// PackLater marks a pack written without a Release: Where and the
	// summary say it is not packed, and next to pack it.
	PackLater bool
	// Validator checks the key id as pack.json's signing block will hold
	// it; nil is the default validator.
	Validator *validate.Validator
	// Labels are the words the author knows the answers by, for the hints.
	Labels Labels
}

// Release says how the written pack is packed and signed.
type Release struct {
	// Name and Version are the pack's: the tarball is NAME-VERSION.tgz in
	// the current folder unless Output names it.
	Name, Version string
	Output        string
	// Sign is the signing method: sign.MethodNone, sign.MethodManual,
	// sign.MethodV2, sign.MethodSigstore (with a key) or Keyless.
	Sign string
	// Key is the key of the keyed methods.
	Key Key
	// Signer, when set, signs instead of the one Sign and Key make (a key
	// that is not a file); Sign still names its method.
	Signer sign.Signer
}

// Key is the key a keyed method signs with.
type Key struct {
	// New makes a new pair, PATH.key (0600) and PATH.pub, written once the
	// pack is signed; else Path is an existing private key file.
	New  bool
	Path string
	ID   string
	// Default is the key derived for the pack (scaffold.DefaultKey): a new
	// pair at Default.New is said to be kept outside Default.Checkout.
	Default scaffold.KeyDefault
	// Passphrase gives an encrypted key's passphrase; nil reads
	// WOPKIT_KEY_PASSPHRASE only (the terminal may belong to a UI).
	Passphrase sign.PassphraseFunc
	// NewPassphrase encrypts a new pair's private key (empty: the key is
	// written unencrypted, and the summary says so).
	NewPassphrase []byte
}

// prefix is the prefix of a new pair (the path without .key).
func (k Key) prefix() string { return strings.TrimSuffix(strings.TrimSpace(k.Path), ".key") }

// NeedsKey reports whether a signing method signs with a key the author
// names (a file, or a new pair).
func NeedsKey(method string) bool {
	switch method {
	case sign.MethodManual, sign.MethodV2, sign.MethodSigstore:
		return true
	}
	return false
}

// signed reports whether the release is signed.
func (r *Release) signed() bool { return r != nil && r.Sign != "" && r.Sign != sign.MethodNone }

// dir is the target folder, "." when none is given.
func (o *Options) dir() string {
	if o.Dir == "" {
		return "."
	}
	return o.Dir
}

// plan is the plan, made by Planner when not given.
func (o *Options) plan() (*scaffold.Plan, error) {
	if o.Plan == nil && o.Planner != nil {
		p, err := o.Planner()
		if err != nil {
			return nil, err
		}
		o.Plan = p
	}
	if o.Plan == nil {
		return nil, werr.New(werr.Invalid, "scaffold_invalid", "nothing to write: the answers have problems").
			WithHint("fix the problems listed and try again")
	}
	return o.Plan, nil
}

// Result is what Run wrote (or, for a dry run, would write).
type Result struct {
	Dir    string          // the folder
	Files  []scaffold.File // the plan's files, in order (Update: an existing file changed)
	Notes  []string        // the plan's notes: what the author should do next
	DryRun bool
	// Expansion is, for a workflow-chain pack (or a chain added to one),
	// each written chain expanded with its default parameters (the lines
	// of chainexp.Preview): what a host splices when an editor drops it.
	Expansion []string

	// The release, when packed.
	Tarball, Integrity, Method string
	Signature                  string // the detached signature ("" when none)
	VersionManifest            string
	KeyID                      string
	// Signer is who signed a keyless bundle ("" when unknown or keyed).
	Signer, Issuer string
	// NewKey and PublicKey are the new pair's files ("" when none); PublicKey
	// is also the existing key's public half the signature verifies with.
	NewKey, PublicKey string
	// KeptOut is the git checkout a new key was kept out of ("" when not).
	KeptOut string
	// newKeyPass is the passphrase the new private key was encrypted with
	// (empty: unencrypted), for the summary's word on it.
	newKeyPass []byte
	would      []string // a dry run: what Run would have written (Where)
	// agentStep writes the public half of a key the ssh-agent keeps, the
	// file the verify step names: the first step.
	agentStep string
	packed    bool // a release was packed
	pack      bool // the files are a pack
}

// Paths are the plan's file paths, relative to Dir.
func (r Result) Paths() []string {
	out := make([]string, len(r.Files))
	for i, f := range r.Files {
		out[i] = f.Path
	}
	return out
}

// Run writes the plan, then packs and signs it as Release says and writes
// a new key pair, all or nothing. It first checks what Preflight checks
// (except a trial pack: packing itself is the trial) and refuses with
// Problems when something is in the way.
func Run(ctx context.Context, opts Options) (res Result, err error) {
	plan, err := opts.plan()
	if err != nil {
		return Result{}, err
	}
	if ps := check(&opts, plan, false); len(ps) > 0 {
		return Result{}, ps
	}
	dir := opts.dir()
	res = Result{Dir: dir, Files: plan.Files, Notes: testNote(plan, dir), DryRun: opts.DryRun, pack: opts.Release != nil || opts.PackLater,
		Expansion: expansion(plan)}
	if opts.DryRun {
		res.would = Where(opts)
		return res, nil
	}
	var (
		signer sign.Signer
		pub    string
		save   savePair
	)
	if opts.Release != nil { // the key is loaded (once) before anything is written
		if signer, pub, save, err = signerOf(opts.Release); err != nil {
			return Result{}, err
		}
	}
	var tx undo
	defer func() {
		if err != nil {
			tx.rollback()
		} else {
			tx.commit()
		}
	}()
	if err := writeFiles(&tx, &opts, plan); err != nil {
		return Result{}, err
	}
	r := opts.Release
	if r == nil {
		return res, nil
	}
	if opts.Force { // the release made before is put back on a failure
		for _, f := range releaseFiles(r) {
			if err := tx.keep(f, outside(f, dir)); err != nil {
				return Result{}, err
			}
		}
	}
	p, err := pack.Pack(ctx, pack.Options{Dir: dir, Output: r.Output, Signer: signer, ForRegistry: signer != nil, Validate: validate.BeforePack})
	if err != nil {
		return Result{}, err
	}
	tx.made(p.Output)
	if p.Signature != nil {
		tx.made(*p.Signature)
		res.Signature = *p.Signature
	}
	if p.VersionManifest != "" {
		tx.made(p.VersionManifest)
	}
	res.packed, res.Tarball, res.Integrity, res.Method, res.VersionManifest = true, p.Output, p.Integrity, p.Method, p.VersionManifest
	if r.signed() && r.Sign != Keyless {
		res.KeyID, res.PublicKey = r.Key.ID, pub
		if sign.IsAgentRef(r.Key.prefix()) {
			res.agentStep = agentNote(r.Key.Path, r.Key.ID) // before the verify that reads its output
		}
	}
	if save != nil {
		if res.NewKey, res.PublicKey, err = save(&tx); err != nil {
			return Result{}, err
		}
		res.newKeyPass = r.Key.NewPassphrase
		if d := r.Key.Default; d.Checkout != "" && r.Key.prefix() == d.New {
			res.KeptOut = d.Checkout
		}
	}
	if r.Sign == Keyless && res.Signature != "" {
		res.Signer, res.Issuer = keylessIdentity(res.Signature)
	}
	return res, nil
}

// expansion previews the chains a plan writes: every chain of a new
// workflow-chain pack, the last chain of one a chain was added to.
func expansion(plan *scaffold.Plan) []string {
	if plan.Kind != "pack" && plan.Kind != "chain" {
		return nil
	}
	for _, f := range plan.Files {
		if f.Path != "pack.json" {
			continue
		}
		p, err := chainexp.ParsePack(f.Data, "pack.json")
		if err != nil {
			return nil
		}
		ids := p.ChainIDs() // none but in a workflow-chain pack
		if len(ids) == 0 {
			return nil
		}
		only := ""
		if plan.Kind == "chain" {
			only = ids[len(ids)-1]
		}
		return strings.Split(strings.TrimRight(chainexp.Preview(f.Data, only), "\n"), "\n")
	}
	return nil
}

package tui

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/untrusted"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Messages of the wizard's commands.
type (
	// planMsg carries the planned files, or the problems that stop them.
	planMsg planned
	// runMsg ends the run: what was written, packed and signed.
	runMsg struct {
		summary []string
		err     error
	}
)

// makePlan asks the scaffold for the files: the pack (with its nodes,
// agents and eval suites), plus the tool manifest.
func makePlan(v *validate.Validator, a *answers) planned {
	if a.standalone() {
		return makeSoloPlan(a)
	}
	if out, ok := planDeclared(v, a); ok {
		return out
	}
	if a.isPack() && a.hasTool() { // the tool manifest ships in the pack, named by its agents
		return planOne(scaffold.PlanPackWithTool(a.packAnswers(), a.Tool, v))
	}
	var out planned
	collect := func(err error, file string) bool {
		var fes scaffold.FieldErrors
		var fe scaffold.FieldError
		switch {
		case errors.As(err, &fes):
		case errors.As(err, &fe):
			fes = scaffold.FieldErrors{fe}
		default:
			out.err = err
			return false
		}
		for _, fe := range fes {
			if file != "" && fe.File == "" {
				fe.File = file
			}
			out.problems = append(out.problems, fe)
		}
		return true
	}
	if a.isPack() {
		p, err := scaffold.PlanPack(a.packAnswers(), v)
		if err != nil && !collect(err, "") {
			return out
		}
		out.plan = p
	}
	if a.hasTool() {
		tp, err := scaffold.PlanTool(a.Tool, "", v)
		if err != nil && !collect(err, docTool) {
			return out
		}
		switch {
		case tp == nil:
		case out.plan == nil:
			out.plan = tp
		default:
			out.plan.Files = append(out.plan.Files, tp.Files...)
			out.plan.Notes = append(out.plan.Notes, tp.Notes...)
		}
	}
	if out.plan != nil {
		main := "pack.json"
		if !a.isPack() && len(out.plan.Files) > 0 {
			main = out.plan.Files[0].Path
		}
		if f := out.plan.File(main); f != nil {
			out.manifest = string(f.Data)
		}
	}
	if len(out.problems) > 0 {
		out.plan = nil
	}
	return out
}

// planOne is the review of one document's plan: pack.json shown, or the
// problems.
func planOne(p *scaffold.Plan, err error) planned {
	var out planned
	var fes scaffold.FieldErrors
	switch {
	case errors.As(err, &fes):
		out.problems = fes
	case err != nil:
		out.err = err
	default:
		out.plan = p
		if f := p.File("pack.json"); f != nil {
			out.manifest = string(f.Data)
		}
	}
	return out
}

// makeSoloPlan plans a standalone agent manifest or eval suite. Problems
// are named as answers of the first agent (agents.0.id, agents.0.eval.…)
// so that the review leads back to the agent or eval page.
func makeSoloPlan(a *answers) planned {
	a.soloDefaults()
	var (
		out    planned
		p      *scaffold.Plan
		err    error
		prefix = "agents.0"
	)
	if a.What == whatSoloAgent {
		p, err = scaffold.PlanStandaloneAgent(*a.agent(0))
	} else {
		p, err = scaffold.PlanStandaloneEval(a.soloEval())
		prefix = "agents.0.eval"
	}
	var fes scaffold.FieldErrors
	switch {
	case errors.As(err, &fes):
		for _, fe := range fes {
			fe.Field = strings.TrimSuffix(prefix+"."+fe.Field, ".")
			out.problems = append(out.problems, fe)
		}
		return out
	case err != nil:
		out.err = err
		return out
	}
	out.plan = p
	if len(p.Files) > 0 {
		out.manifest = string(p.Files[0].Data)
	}
	return out
}

func planCmd(v *validate.Validator, a *answers, opts NewOptions) tea.Cmd {
	if a.isPack() && needsKey(a.SignMethod) {
		a.keyDefaults()
	}
	snap := *a
	return func() tea.Msg {
		return planMsg(checked(v, &snap, opts))
	}
}

// checked is the plan with everything that can fail after the review
// checked too: every problem at once.
func checked(v *validate.Validator, a *answers, opts NewOptions) planned {
	p := makePlan(v, a)
	if p.err != nil {
		return p
	}
	p.problems = append(p.problems, preflight(v, a, opts, p.plan, len(p.problems) == 0)...)
	if len(p.problems) > 0 {
		p.plan = nil
	}
	p.where = where(a, opts, p.plan)
	return p
}

// targetDir is where the files go: --dir, else, as for `new --yes`, a
// directory named after the last part of the pack name (the current
// directory for a tool manifest or standalone document).
func targetDir(a *answers, opts NewOptions) string {
	if opts.Dir != "" {
		return opts.Dir
	}
	if a.isPack() {
		return scaffold.PackDir(a.name())
	}
	return "."
}

// mainField is the answer that names the files: a problem with the target
// leads there.
func mainField(a *answers) scaffold.FieldError {
	switch {
	case a.isPack():
		return scaffold.FieldError{Field: "name", File: "pack.json"}
	case a.What == whatTool:
		return scaffold.FieldError{Field: "tool.id", File: docTool}
	case a.What == whatSoloEval:
		return scaffold.FieldError{Field: "agents.0.eval.suiteId"}
	}
	return scaffold.FieldError{Field: "agents.0.id"}
}

// preflight checks, before anything is written, what could fail after the
// review: files already in the target, the key files and key id, packing
// (the registry's limits and checks, on the plan written to a temporary
// directory) and whether the signer can sign.
func preflight(v *validate.Validator, a *answers, opts NewOptions, plan *scaffold.Plan, planOK bool) []scaffold.FieldError {
	var out []scaffold.FieldError
	dir := targetDir(a, opts)
	if !opts.Force {
		var exists []string
		if plan != nil {
			for _, f := range plan.Files {
				if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Path))); err == nil {
					exists = append(exists, f.Path)
				}
			}
		} else if a.isPack() { // the answers have problems: the pack.json every pack has
			if _, err := os.Lstat(filepath.Join(dir, "pack.json")); err == nil {
				exists = append(exists, "pack.json")
			}
		}
		if len(exists) > 0 {
			fe := mainField(a)
			if a.isPack() && opts.Dir == "" {
				fe.Field = "name.part" // the folder is named after the name's last part
			}
			fe.Message = fmt.Sprintf("%s already holds %s", filepath.ToSlash(dir), strings.Join(exists, ", "))
			fe.Hint = "choose another name (the files go to a folder named after it), or move the existing files away"
			if opts.Dir != "" {
				fe.Hint = "move the existing files away, or start again with another --dir"
			}
			out = append(out, fe)
		}
		out = append(out, releaseProblems(a, opts)...)
	}
	if !a.isPack() || a.SignMethod == "skip" {
		return out
	}
	sf := func(field, format string, args ...any) scaffold.FieldError {
		return scaffold.FieldError{Field: field, File: docSign, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case a.SignMethod == signKeyless:
		if ok, reason := sigstore.KeylessReady(); !ok {
			fe := sf("signMethod", "keyless signing is not possible: %s", reason)
			fe.Hint = "choose another way to sign"
			out = append(out, fe)
		}
	case needsKey(a.SignMethod):
		out = append(out, keyProblems(a)...)
		if strings.TrimSpace(a.KeyID) == "" {
			out = append(out, sf("keyId", "a key id is needed to sign"))
		} else if errs := scaffold.CheckField(v, validate.NodePack, "/signing/keyId", a.KeyID); len(errs) > 0 {
			out = append(out, sf("keyId", "key id %q: %s", a.KeyID, errs[0].Message))
		}
	}
	if len(out) == 0 && planOK && plan != nil {
		if err := dryPack(plan, opts, a.SignMethod != sign.MethodNone); err != nil {
			fe := mainField(a)
			fe.Message = "packing would fail: " + errText(err)
			out = append(out, fe)
		}
	}
	return out
}

// existingAncestor returns the nearest existing ancestor of dir (dir
// included) when it is not a folder, else "".
func existingAncestor(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			if fi.IsDir() {
				return ""
			}
			return d
		}
		if p := filepath.Dir(d); p == d {
			return ""
		}
	}
}

// keyProblems checks the key the sign page names: a new pair must not
// replace files, an existing key must load.
func keyProblems(a *answers) []scaffold.FieldError {
	path := strings.TrimSpace(a.KeyPath)
	fe := scaffold.FieldError{Field: "keyPath", File: docSign}
	if path == "" {
		fe.Message = "a key file is needed to sign"
		return []scaffold.FieldError{fe}
	}
	if a.KeyChoice == "new" {
		prefix := strings.TrimSuffix(path, ".key")
		// The key's folder is made when the pair is written (0700, as
		// `wopkit keygen --out` does); something in the way is a problem now.
		if dir := existingAncestor(filepath.Dir(prefix)); dir != "" {
			fe.Message = dir + " is not a folder: the key pair cannot be written under it"
			fe.Hint = "choose a key file in a folder, e.g. " + filepath.Base(prefix)
			return []scaffold.FieldError{fe}
		}
		for _, f := range []string{prefix + ".key", prefix + ".pub"} {
			if _, err := os.Lstat(f); err == nil {
				fe.Message = f + " already exists: a new key pair would replace it"
				fe.Hint = "use another name, e.g. " + scaffold.FreeKeyPrefix("", prefix) + ", or choose \"use an existing private key file\" with " + prefix + ".key"
				return []scaffold.FieldError{fe}
			}
		}
		if p := checkoutProblem(a, prefix); p != nil {
			return []scaffold.FieldError{*p}
		}
		return nil
	}
	if !strings.HasSuffix(path, ".key") {
		if _, err := os.Stat(path + ".key"); err == nil {
			fe.Message = path + " is not a private key file"
			fe.Hint = "name the .key file: " + path + ".key"
			return []scaffold.FieldError{fe}
		}
	}
	key, _, _, err := loadKey(a)
	if err != nil {
		fe.Message = errText(err)
		var e *werr.Error
		if errors.As(err, &e) && !strings.Contains(e.Hint, "--") {
			fe.Hint = e.Hint
		}
		return []scaffold.FieldError{fe}
	}
	if _, err := keySigner(a.SignMethod, key, "check"); err != nil { // a key of another kind (the key id is checked apart)
		fe.Message = errText(err)
		fe.Hint = "choose \"create a new key pair\", or another way to sign"
		return []scaffold.FieldError{fe}
	}
	return nil
}

// dryPack writes the plan to a temporary directory and packs it without
// writing a tarball, with the registry's limits when it is to be signed.
func dryPack(plan *scaffold.Plan, opts NewOptions, forRegistry bool) error {
	tmp, err := os.MkdirTemp("", "wopkit-new-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := plan.Write(tmp, false); err != nil {
		return err
	}
	_, err = pack.Pack(context.Background(), pack.Options{Dir: tmp, DryRun: true, ForRegistry: forRegistry})
	return err
}

// errText is an error's message without its hint (hints name CLI flags
// the wizard does not have).
func errText(err error) string {
	var e *werr.Error
	if errors.As(err, &e) {
		if e.Err != nil {
			return e.Msg + ": " + errText(e.Err)
		}
		return e.Msg
	}
	return err.Error()
}

// runCmd writes the plan, then packs and signs as asked.
func runCmd(a *answers, opts NewOptions, plan *scaffold.Plan) tea.Cmd {
	snap := *a
	return func() tea.Msg {
		sum, err := write(context.Background(), &snap, opts, plan)
		return runMsg{summary: sum, err: err}
	}
}

// write writes the files, packs and signs them, and writes a new key pair,
// all or nothing: on a failure, what it wrote is removed again.
func write(ctx context.Context, a *answers, opts NewOptions, plan *scaffold.Plan) (sum []string, err error) {
	if plan == nil {
		return nil, werr.New(werr.Invalid, "scaffold_invalid", "nothing to write: the answers have problems").
			WithHint("go back and fix the problems the review lists")
	}
	dir := targetDir(a, opts)
	var undo []func()
	defer func() {
		if err != nil {
			for i := len(undo) - 1; i >= 0; i-- {
				undo[i]()
			}
		}
	}()
	_, statErr := os.Stat(dir)
	if err := plan.Write(dir, opts.Force); err != nil {
		return nil, err
	}
	undo = append(undo, func() {
		if statErr != nil { // the folder was made for these files
			os.RemoveAll(dir)
			return
		}
		for _, f := range plan.Files {
			os.Remove(filepath.Join(dir, filepath.FromSlash(f.Path)))
		}
	})
	sum = []string{fmt.Sprintf("wrote %d files in %s: %s", len(plan.Files), filepath.ToSlash(dir), strings.Join(plan.Paths(), ", "))}
	next := []string{"wopkit validate " + dir, "wopkit edit " + dir}
	if !a.isPack() {
		f := filepath.Join(dir, plan.Paths()[0])
		return append(append(sum, "", "next:"), indent([]string{"wopkit validate --strict " + f, "wopkit edit " + f})...), nil
	}
	if a.SignMethod == "skip" {
		return append(append(sum, "", "next:"), indent(append(next, "wopkit pack "+dir+" --key KEY --key-id ID"))...), nil
	}
	var (
		signer  sign.Signer
		pub     string
		newPair func() (string, error)
	)
	switch {
	case a.SignMethod == signKeyless:
		// The CLI's construction: token and service URLs from the environment.
		s, err := sigstore.NewSignerFromEnv(sigstore.SignOptions{})
		if err != nil {
			return nil, err
		}
		signer = s
	case needsKey(a.SignMethod):
		key, pubPath, save, err := loadKey(a)
		if err != nil {
			return nil, err
		}
		pub, newPair = pubPath, save
		if signer, err = keySigner(a.SignMethod, key, a.KeyID); err != nil {
			return nil, err
		}
	}
	res, err := pack.Pack(ctx, pack.Options{Dir: dir, Output: opts.Output, Signer: signer, ForRegistry: signer != nil})
	if err != nil {
		return nil, err
	}
	undo = append(undo, func() {
		os.Remove(res.Output)
		if res.Signature != nil {
			os.Remove(*res.Signature)
		}
		if res.VersionManifest != "" {
			os.Remove(res.VersionManifest)
		}
	})
	if newPair != nil {
		note, err := newPair()
		if err != nil {
			return nil, err
		}
		if note != "" {
			sum = append(sum, note)
		}
	}
	sum = append(sum, "packed "+res.Output+" ("+res.Integrity+")")
	switch {
	case res.Signature != nil && a.SignMethod == signKeyless:
		line, verifyCmd := keylessSummary(res.Output, *res.Signature)
		sum = append(sum, line)
		next = append([]string{verifyCmd}, next...)
	case res.Signature != nil:
		sum = append(sum, "signed ("+res.Method+", key id "+a.KeyID+"): "+*res.Signature)
		next = append([]string{"wopkit verify " + res.Output + " --key " + pub}, next...)
	}
	if res.VersionManifest != "" {
		sum = append(sum, "version manifest "+res.VersionManifest)
	}
	return append(append(sum, "", "next:"), indent(next)...), nil
}

func indent(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = "  " + l
	}
	return out
}

// loadKey makes a new key in memory (save writes it, PREFIX.key 0600 and
// PREFIX.pub, once the pack is signed) or loads an existing private key.
// An encrypted key's passphrase comes from WOPKIT_KEY_PASSPHRASE: the
// terminal belongs to the wizard.
func loadKey(a *answers) (key crypto.Signer, pubPath string, save func() (string, error), err error) {
	path := strings.TrimSpace(a.KeyPath)
	if a.KeyChoice == "new" {
		prefix := strings.TrimSuffix(path, ".key")
		alg := sign.Ed25519
		if a.SignMethod == sign.MethodSigstore {
			alg = sign.ECDSAP256 // a Sigstore message signature needs ECDSA (LIBRARIES.md)
		}
		k, err := sign.GenerateKey(alg)
		if err != nil {
			return nil, "", nil, err
		}
		save := func() (string, error) {
			if err := os.MkdirAll(filepath.Dir(prefix), 0o700); err != nil {
				return "", werr.Wrap(werr.Env, "key_write_failed", err, "cannot make the folder of %s", prefix+".key")
			}
			keyPath, pubPath, err := sign.WriteKeyPair(prefix, k, nil, false)
			if err != nil {
				return "", err
			}
			return "new key pair " + keyPath + " (keep it secret) and " + pubPath + keyNote(a, prefix), nil
		}
		return k, prefix + ".pub", save, nil
	}
	pass := func() ([]byte, error) {
		if v, ok := os.LookupEnv(sign.PassphraseEnv); ok {
			return []byte(v), nil
		}
		return nil, werr.New(werr.Env, "key_passphrase_unavailable", "%s is encrypted", path).
			WithHint("set %s and start the wizard again, or choose to pack without signing", sign.PassphraseEnv)
	}
	k, err := sign.LoadPrivateKey(path, pass)
	if err != nil {
		return nil, "", nil, err
	}
	return k, strings.TrimSuffix(path, ".key") + ".pub", nil, nil
}

// Drafts: the answers as JSON, written atomically, offered at the next start.

func saveDraft(path string, a *answers) error {
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Replace(path, append(b, '\n'), 0o644); err != nil {
		return werr.Wrap(werr.Env, "draft_unwritable", err, "cannot keep the draft at %s", path)
	}
	return nil
}

func loadDraft(path string) (*answers, bool) {
	b, err := untrusted.ReadNamed(path, untrusted.MaxDocument)
	if err != nil {
		return nil, false
	}
	a := newAnswers()
	if json.Unmarshal(b, a) != nil {
		return nil, false
	}
	return a, true
}

func removeDraft(path string) { _ = os.Remove(path) }

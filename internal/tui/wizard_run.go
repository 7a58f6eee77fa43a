package tui

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/openwop/wopkit/internal/atomicfile"
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

// toolFile is where a pack's tool manifest goes.
func toolFile(a *answers) string {
	if !a.isPack() {
		return ""
	}
	return "tools/" + a.Tool.Tool.ID + ".tool.json"
}

// makePlan asks the scaffold for the files: the pack (with its node, agent
// and eval suite), plus the tool manifest.
func makePlan(v *validate.Validator, a *answers) planned {
	if a.standalone() {
		return makeSoloPlan(a)
	}
	var out planned
	collect := func(err error) bool {
		var fes scaffold.FieldErrors
		if errors.As(err, &fes) {
			out.problems = append(out.problems, fes...)
			return true
		}
		var fe scaffold.FieldError
		if errors.As(err, &fe) {
			out.problems = append(out.problems, fe)
			return true
		}
		out.err = err
		return false
	}
	if a.isPack() {
		p, err := scaffold.PlanPack(a.packAnswers(), v)
		if err != nil && !collect(err) {
			return out
		}
		out.plan = p
	}
	if a.hasTool() {
		tp, err := scaffold.PlanTool(a.toolAnswers(), toolFile(a), v)
		if err != nil {
			if !collect(err) {
				return out
			}
			for i := range out.problems {
				if out.problems[i].File == "" {
					out.problems[i].File = "tool"
				}
			}
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
		if !a.isPack() {
			main = toolFile(a)
			if len(out.plan.Files) > 0 {
				main = out.plan.Files[0].Path
			}
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

func planCmd(v *validate.Validator, a *answers) tea.Cmd {
	snap := *a
	return func() tea.Msg { return planMsg(makePlan(v, &snap)) }
}

// targetDir is where the files go: --dir, else, as for `new --yes`, a
// directory named after the last part of the pack name (the current
// directory for a tool manifest).
func targetDir(a *answers, opts NewOptions) string {
	if opts.Dir != "" {
		return opts.Dir
	}
	if a.isPack() {
		return a.Part
	}
	return "."
}

// runCmd writes the plan, then packs and signs as asked.
func runCmd(a *answers, opts NewOptions, plan *scaffold.Plan) tea.Cmd {
	snap := *a
	return func() tea.Msg {
		sum, err := write(context.Background(), &snap, opts, plan)
		return runMsg{summary: sum, err: err}
	}
}

func write(ctx context.Context, a *answers, opts NewOptions, plan *scaffold.Plan) ([]string, error) {
	if plan == nil {
		return nil, werr.New(werr.Invalid, "scaffold_invalid", "nothing to write: the answers have problems").
			WithHint("go back and fix the problems the review lists")
	}
	dir := targetDir(a, opts)
	if err := plan.Write(dir, opts.Force); err != nil {
		return nil, err
	}
	sum := []string{fmt.Sprintf("wrote %d files in %s: %s", len(plan.Files), filepath.ToSlash(dir), strings.Join(plan.Paths(), ", "))}
	next := []string{"wopkit validate " + dir, "wopkit edit " + dir}
	if !a.isPack() {
		f := filepath.Join(dir, plan.Paths()[0])
		return append(append(sum, "", "next:"), indent([]string{"wopkit validate --strict " + f, "wopkit edit " + f})...), nil
	}
	if a.SignMethod == "skip" {
		return append(append(sum, "", "next:"), indent(append(next, "wopkit pack "+dir+" --sign manual --key KEY --key-id ID"))...), nil
	}
	var signer sign.Signer
	pub := ""
	switch {
	case a.SignMethod == signKeyless:
		// The CLI's construction: token and service URLs from the environment.
		s, err := sigstore.NewSignerFromEnv(sigstore.SignOptions{})
		if err != nil {
			return sum, err
		}
		signer = s
	case needsKey(a.SignMethod):
		key, pubPath, note, err := wizardKey(a)
		if err != nil {
			return sum, err
		}
		if note != "" {
			sum = append(sum, note)
		}
		pub = pubPath
		if a.SignMethod == sign.MethodSigstore {
			signer, err = sigstore.NewSigner(sigstore.SignOptions{Key: key}) // keyed, offline: no log entry
		} else {
			signer, err = sign.NewEd25519Signer(a.SignMethod, key, a.KeyID)
		}
		if err != nil {
			return sum, err
		}
	}
	res, err := pack.Pack(ctx, pack.Options{Dir: dir, Output: opts.Output, Signer: signer, ForRegistry: signer != nil})
	if err != nil {
		return sum, err
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

// wizardKey makes a new key pair (PREFIX.key 0600, PREFIX.pub) or loads an
// existing private key. An encrypted key's passphrase comes from
// WOPKIT_KEY_PASSPHRASE: the terminal belongs to the wizard.
func wizardKey(a *answers) (key crypto.Signer, pubPath, note string, err error) {
	path := strings.TrimSpace(a.KeyPath)
	if a.KeyChoice == "new" {
		prefix := strings.TrimSuffix(path, ".key")
		alg := sign.Ed25519
		if a.SignMethod == sign.MethodSigstore {
			alg = sign.ECDSAP256 // a Sigstore message signature needs ECDSA (LIBRARIES.md)
		}
		k, err := sign.GenerateKey(alg)
		if err != nil {
			return nil, "", "", err
		}
		keyPath, pubPath, err := sign.WriteKeyPair(prefix, k, nil, false)
		if err != nil {
			return nil, "", "", err
		}
		return k, pubPath, "new key pair " + keyPath + " (keep it secret) and " + pubPath, nil
	}
	pass := func() ([]byte, error) {
		if v, ok := os.LookupEnv(sign.PassphraseEnv); ok {
			return []byte(v), nil
		}
		return nil, werr.New(werr.Env, "key_passphrase_unavailable", "%s is encrypted", path).
			WithHint("set %s and run wopkit new again, or pack later with `wopkit pack`", sign.PassphraseEnv)
	}
	k, err := sign.LoadPrivateKey(path, pass)
	if err != nil {
		return nil, "", "", err
	}
	pubPath = strings.TrimSuffix(path, ".key") + ".pub"
	return k, pubPath, "", nil
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
	b, err := os.ReadFile(path)
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

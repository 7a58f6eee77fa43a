package create

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/words"
)

// Where lists where the files go, before anything is written: the folder
// and its files, the key (or that there is none), the tarball and what goes
// beside it. The review and accessible mode's summary print it.
func Where(opts Options) []string {
	plan, err := opts.plan()
	if err != nil {
		return nil
	}
	out := []string{words.Count(len(plan.Files), "file", "files") + " will be written in " + Shown(opts.dir()) + ": " + strings.Join(plan.Paths(), ", ")}
	if Base != "" {
		out = append(out, "(this is wopkit's own source tree: the files go to "+Shown(Base)+" instead; --dir chooses the folder)")
	}
	r := opts.Release
	switch {
	case r == nil && opts.PackLater:
		return append(out, "not packed: no tarball, no key")
	case r == nil:
		return out
	case r.Signer != nil:
	case r.Sign == Keyless:
		out = append(out, "signed keyless with Sigstore (no key file)")
	case NeedsKey(r.Sign) && r.Key.New:
		prefix := r.Key.prefix()
		line := "a new key pair: " + Shown(prefix+".key") + " (keep it secret) and " + Shown(prefix+".pub") + ", " + keySecrecy(r.Key.NewPassphrase)
		if d := r.Key.Default; d.Checkout != "" && prefix == d.New {
			line += ", kept in your config folder, not in the git checkout " + d.Checkout
		}
		out = append(out, line)
	case NeedsKey(r.Sign):
		out = append(out, "signed with the existing key "+Shown(strings.TrimSpace(r.Key.Path))+" (key id "+r.Key.ID+")")
	default:
		out = append(out, "not signed: no key")
	}
	files := releaseFiles(r)
	base := strings.TrimSuffix(files[0], ".tgz")
	var beside []string
	for _, f := range files[1:] {
		beside = append(beside, strings.TrimPrefix(f, base))
	}
	return append(out, "packed to "+Shown(files[0])+", with its "+words.And(beside)+" beside it")
}

// keySecrecy is what a new private key's line says of it: encrypted with
// the passphrase, or, plainly, that it is not.
func keySecrecy(passphrase []byte) string {
	if len(passphrase) > 0 {
		return "encrypted with your passphrase"
	}
	return "unencrypted (no passphrase)"
}

// Summary says what Run wrote and what to do next (the commands, then the
// plan's notes), one line each.
func (r Result) Summary() []string {
	if r.DryRun {
		sum := []string{"--dry-run: nothing was written (no files, no key, no tarball); without it:"}
		for _, l := range r.would {
			sum = append(sum, "  "+l)
		}
		return sum
	}
	sum := []string{"wrote " + words.Count(len(r.Files), "file", "files") + " in " + Shown(r.Dir) + ": " + strings.Join(r.Paths(), ", ")}
	if r.NewKey != "" {
		line := "new key pair " + Shown(r.NewKey) + " (keep it secret) and " + Shown(r.PublicKey) + ", " + keySecrecy(r.newKeyPass)
		if r.KeptOut != "" {
			line += " (kept in your config folder, not in the git checkout " + r.KeptOut + ")"
		}
		sum = append(sum, line)
	}
	if r.packed {
		sum = append(sum, "packed "+Shown(r.Tarball)+" ("+r.Integrity+")")
	}
	switch {
	case r.Signature == "":
	case r.Method == sign.MethodSigstore && r.Signer != "":
		sum = append(sum, "signed (sigstore keyless as "+r.Signer+", issuer "+r.Issuer+"): "+r.Signature)
	case r.Method == sign.MethodSigstore && r.PublicKey == "":
		sum = append(sum, "signed (sigstore keyless): "+r.Signature)
	case r.KeyID != "":
		sum = append(sum, "signed ("+r.Method+", key id "+r.KeyID+"): "+r.Signature)
	default:
		sum = append(sum, "signed ("+r.Method+"): "+r.Signature)
	}
	if r.VersionManifest != "" {
		sum = append(sum, "version manifest "+r.VersionManifest)
	}
	if len(r.Expansion) > 0 {
		sum = append(sum, "", "the expansion a host splices when an editor drops the chain (default parameters; `wopkit chain expand` to choose them):")
		for _, l := range r.Expansion {
			sum = append(sum, "  "+l)
		}
	}
	sum = append(sum, "", "next:")
	for _, n := range append(r.Next(), r.Notes...) {
		sum = append(sum, "  "+n)
	}
	return sum
}

// Command is how the next steps name wopkit: "go run ./cmd/wopkit" when
// it runs from `go run` in its own source tree (not on the PATH then).
var Command = "wopkit"

// Base is the folder the files were written under when it is not the one
// the author is in (wopkit's own source tree writes elsewhere): the next
// steps then name files by their whole paths.
var Base = ""

// Shown is a path as the review and the summary show it: whole, the
// home folder written ~ (a folder the files go under, a key, a tarball:
// where they are, whatever folder the author is in), with / between its
// parts. A key the ssh-agent holds is shown as it is named.
func Shown(p string) string {
	if p == "" || sign.IsAgentRef(p) {
		return p
	}
	abs, err := filepath.Abs(at(p))
	if err != nil {
		return filepath.ToSlash(p)
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// at is a path of the result as the next steps name it.
func at(p string) string {
	if Base == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(Base, p)
}

// testNote is the plan's notes, then how to run its scaffolded tests from
// the folder the author is in: the test runner looks in the folder it
// runs in (node --test elsewhere runs no test).
func testNote(plan *scaffold.Plan, dir string) []string {
	notes := slices.Clone(plan.Notes)
	d := at(dir)
	if d == "" {
		d = "."
	}
	for _, agent := range plan.Evals {
		args := shellWord(filepath.ToSlash(d)) + " " + shellWord(agent)
		if strings.HasSuffix(agent, ".json") { // a standalone agent manifest
			args = shellWord(filepath.ToSlash(filepath.Join(d, agent)))
		}
		notes = append(notes, "run the eval suite with: "+Command+" eval "+args+
			" --model echo (then --model replay:FILE or openai:BASEURL#MODEL: docs/EVAL.md)")
	}
	if plan.Test == "" {
		return notes
	}
	cmd := plan.Test
	if d := at(dir); d != "" && d != "." {
		cmd = "cd " + shellWord(filepath.ToSlash(d)) + " && " + cmd
	}
	return append(notes, "run the scaffolded tests with: "+cmd)
}

// Next are the commands to run next.
func (r Result) Next() []string {
	next := r.next()
	for i, n := range next {
		if rest, ok := strings.CutPrefix(n, "wopkit "); ok {
			next[i] = Command + " " + rest
		}
	}
	return next
}

func (r Result) next() []string {
	r.Dir, r.Tarball, r.PublicKey = at(r.Dir), at(r.Tarball), at(r.PublicKey)
	if !r.pack {
		f := r.Dir
		if len(r.Files) > 0 {
			f = filepath.Join(r.Dir, filepath.FromSlash(r.Files[0].Path))
		}
		return []string{"wopkit validate --strict " + f, "wopkit edit " + f}
	}
	next := []string{"wopkit validate " + r.Dir, "wopkit edit " + r.Dir}
	switch {
	case !r.packed:
		next = append(next, "wopkit pack "+r.Dir+" --key KEY --key-id ID")
	case r.Signature == "": // packed without signing: how to sign it later
		next = append([]string{"wopkit sign " + r.Tarball + " --key KEY --key-id ID"}, next...)
	case r.PublicKey != "":
		next = append([]string{"wopkit verify " + r.Tarball + " --key " + r.PublicKey}, next...)
		if r.agentStep != "" { // it writes the public key verify reads
			next = append([]string{r.agentStep}, next...)
		}
	case r.Method == sign.MethodSigstore && r.Signer != "":
		next = append([]string{"wopkit verify " + r.Tarball + " --certificate-identity " + r.Signer + " --certificate-oidc-issuer " + r.Issuer}, next...)
	case r.Method == sign.MethodSigstore:
		next = append([]string{"wopkit verify " + r.Tarball + " --certificate-identity ID --certificate-oidc-issuer ISSUER"}, next...)
	}
	return next
}

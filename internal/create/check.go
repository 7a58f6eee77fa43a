package create

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// Subject is what a problem is about: the answer the author changes to
// resolve it.
type Subject int

// The subjects of the problems Preflight finds.
const (
	Folder     Subject = iota // files already in the folder (its name, or --dir)
	Tarball                   // the tarball or a file beside it already there (the version, or --output)
	Packing                   // packing the files would fail
	SignMethod                // the signing method cannot sign
	KeyFile                   // the key file: missing, in the way, not loadable, in a git checkout
	KeyID                     // the key id
)

// Problem is one thing that stops the files from being written, with what
// to do about it, in the words of Options.Labels.
type Problem struct {
	Subject Subject
	Message string
	Hint    string
}

func (p Problem) Error() string {
	if p.Hint == "" {
		return p.Message
	}
	return p.Message + " (" + p.Hint + ")"
}

// Problems are the problems that stopped Run before it wrote anything.
type Problems []Problem

func (ps Problems) Error() string {
	if len(ps) == 1 {
		return "nothing was written: " + ps[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "nothing was written: %s:", words.Count(len(ps), "problem", "problems"))
	for _, p := range ps {
		b.WriteString("\n  " + p.Error())
	}
	return b.String()
}

// ExitClass is Invalid: the answers need changing (werr.Classed).
func (ps Problems) ExitClass() werr.Class { return werr.Invalid }

// StableCode is the code of the first problem (werr.Classed).
func (ps Problems) StableCode() string {
	if len(ps) == 0 {
		return ""
	}
	return ps[0].Code()
}

// Code is the problem's stable code, after its subject.
func (p Problem) Code() string {
	return [...]string{Folder: "scaffold_exists", Tarball: "release_exists", Packing: "pack_would_fail",
		SignMethod: "sign_unavailable", KeyFile: "key_unusable", KeyID: "key_id_invalid"}[p.Subject]
}

// Labels are the words the author knows the answers by, for the hints:
// each says how to make the change. The zero value is the command line's.
type Labels struct {
	OtherFolder  string // "start again with another --dir"
	OtherTarball string // "start again with another --output"
	Replace      string // "pass --force to replace them" ("" when the caller has none)
	UseExisting  string // how to sign with an existing key file, followed by its path: "sign with the existing key"
	NewPair      string // how to make a new key pair: "make a new key pair"
	OtherSigning string // "choose another way to sign"
	KeyOutside   string // how to keep a new key out of a checkout: "keep the key outside the checkout"
}

func (l Labels) or() Labels {
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	def(&l.OtherFolder, "start again with another --dir")
	def(&l.OtherTarball, "start again with another --output")
	def(&l.UseExisting, "sign with the existing key")
	def(&l.NewPair, "make a new key pair")
	def(&l.OtherSigning, "choose another way to sign")
	def(&l.KeyOutside, "keep the key outside the checkout")
	return l
}

// Preflight checks, before anything is written, everything that could stop
// Run: files already in the folder or where the tarball and its sidecars
// go (unless Force), the signing method, the key (a new pair must not
// replace files nor go into a git checkout that does not ignore it; an
// existing key must load and suit the method), the key id, and packing
// itself (the plan packed in a temporary folder, with the registry's
// limits when it is signed). With no plan (the answers have problems and
// Planner fails or is nil) a pack's pack.json stands for its files. Every
// problem at once, in the order of the answers.
func Preflight(opts Options) []Problem {
	plan, _ := opts.plan()
	return check(&opts, plan, true)
}

func check(o *Options, plan *scaffold.Plan, trial bool) Problems {
	var out Problems
	l := o.Labels.or()
	dir := o.dir()
	if !o.Force {
		var there []string
		files := []scaffold.File{{Path: "pack.json"}}
		if plan != nil {
			files = plan.Files
		} else if o.Release == nil && !o.PackLater {
			files = nil
		}
		for _, f := range files {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Path))); err == nil && !f.Update {
				there = append(there, f.Path)
			}
		}
		if len(there) > 0 {
			out = append(out, Problem{Subject: Folder, Message: filepath.ToSlash(dir) + " already holds " + words.And(there),
				Hint: "move the existing files away, or " + orReplace(l.OtherFolder, l.Replace)})
		}
		if ps := tarballProblems(o.Release, l); ps != nil {
			out = append(out, *ps)
		}
	}
	// asked before the review lets the author write (Run itself meets a
	// folder taken since as the write failure it is: exit 3)
	if err := writable(dir); trial && err != nil {
		out = append(out, Problem{Subject: Folder, Message: "cannot write the files: " + err.Error(),
			Hint: "write them elsewhere: " + l.OtherFolder + ", or run where you may write (or make the folder writable)"})
	}
	r := o.Release
	switch {
	case r == nil || !r.signed() || r.Signer != nil:
	case r.Sign == Keyless:
		if ok, reason := sigstore.KeylessReady(); !ok {
			out = append(out, Problem{Subject: SignMethod, Message: "keyless signing is not possible: " + reason, Hint: l.OtherSigning})
		}
	case NeedsKey(r.Sign):
		if p := keyProblem(r, l, trial); p != nil {
			out = append(out, *p)
		}
		if strings.TrimSpace(r.Key.ID) == "" {
			out = append(out, Problem{Subject: KeyID, Message: "a key id is needed to sign"})
		} else if errs := scaffold.CheckField(o.Validator, kinds.NodePack, "/signing/keyId", r.Key.ID); len(errs) > 0 {
			out = append(out, Problem{Subject: KeyID, Message: fmt.Sprintf("key id %q: %s", r.Key.ID, errs[0].Message), Hint: errs[0].Hint})
		}
	}
	if trial && len(out) == 0 && plan != nil && r != nil {
		if err := trialPack(dir, plan, r); err != nil {
			out = append(out, Problem{Subject: Packing, Message: "packing would fail: " + Text(err)})
		}
	}
	return out
}

// writable says why files cannot be made in a folder (a test replaces it:
// a superuser may write anywhere).
var writable = atomicfile.Writable

func orReplace(other, replace string) string {
	if replace == "" {
		return other
	}
	return other + ", or " + replace
}

// releaseFiles are the tarball and the files packing writes beside it.
func releaseFiles(r *Release) []string {
	if r == nil {
		return nil
	}
	return scaffold.ReleaseFiles(r.Name, r.Version, r.Output, DetachedExt(r.Sign))
}

// DetachedExt is the suffix of the signature a signing method writes
// beside the tarball ("" for none).
func DetachedExt(method string) string {
	switch method {
	case sign.MethodManual, sign.MethodV2:
		return sign.DetachedSigExt
	case sign.MethodSigstore, Keyless:
		return sigstore.DetachedExt
	}
	return ""
}

// tarballProblems: a tarball or a file beside it already there would be
// replaced by packing (a release signed before, with another key maybe).
func tarballProblems(r *Release, l Labels) *Problem {
	var there []string
	for _, f := range releaseFiles(r) {
		if _, err := os.Lstat(f); err == nil {
			there = append(there, f)
		}
	}
	if len(there) == 0 {
		return nil
	}
	verb := "exist"
	if len(there) == 1 {
		verb = "exists"
	}
	return &Problem{Subject: Tarball, Message: words.And(there) + " already " + verb + ": packing would replace a release made before",
		Hint: "move the existing files away, or " + orReplace(l.OtherTarball, l.Replace)}
}

// keyProblem checks the key: a new pair must not replace files nor go into
// a git checkout that does not ignore it, an existing key must load (when
// load is set) and suit the method.
func keyProblem(r *Release, l Labels, load bool) *Problem {
	k := r.Key
	path := strings.TrimSpace(k.Path)
	p := &Problem{Subject: KeyFile}
	if path == "" {
		p.Message = "a key file is needed to sign"
		return p
	}
	if k.New {
		prefix := k.prefix()
		// The key's folder is made when the pair is written (0700, as
		// `wopkit keygen --out` does); something in the way is a problem now.
		if dir := existingAncestor(filepath.Dir(prefix)); dir != "" {
			p.Message = dir + " is not a folder: the key pair cannot be written under it"
			p.Hint = "choose a key file in a folder, e.g. " + filepath.Base(prefix)
			return p
		}
		for _, f := range []string{prefix + ".key", prefix + ".pub"} {
			if _, err := os.Lstat(f); err == nil {
				p.Message = f + " already exists: a new key pair would replace it"
				p.Hint = "use another name, e.g. " + scaffold.FreeKeyPrefix("", prefix) + ", or " + l.UseExisting + " " + prefix + ".key"
				return p
			}
		}
		if root := scaffold.KeyCheckout(prefix); root != "" {
			p.Message = prefix + ".key would be written into the git checkout " + root + ", which does not ignore it"
			p.Hint = "add it to the checkout's .gitignore, or " + l.KeyOutside
			if d := k.Default; d.Checkout != "" && d.New != prefix {
				p.Hint = "use " + d.New + " (outside the checkout), or add " + filepath.Base(prefix) + ".key to .gitignore"
			}
			return p
		}
		return nil
	}
	if !strings.HasSuffix(path, ".key") {
		if _, err := os.Stat(path + ".key"); err == nil {
			p.Message = path + " is not a private key file"
			p.Hint = "name the .key file: " + path + ".key"
			return p
		}
	}
	if !load { // Run loads the key once, to sign with it
		return nil
	}
	key, err := LoadKey(k, r.Sign)
	if err == nil {
		_, err = keySigner(r.Sign, key, "check") // a key of another kind (the key id is checked apart)
	}
	if err != nil {
		p.Message = Text(err)
		if e := (*werr.Error)(nil); errors.As(err, &e) && !strings.Contains(e.Hint, "--") {
			p.Hint = e.Hint
		}
		if errors.As(err, new(*wrongKind)) {
			p.Hint = l.NewPair + ", or " + l.OtherSigning
		}
		return p
	}
	return nil
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

// trialPack packs the plan as it will be in dir, without writing anything
// (the planned files over what dir already holds, read in memory, with the
// registry's limits when it is to be signed): what packing after the write
// would refuse, it refuses now, naming the files where they will be.
func trialPack(dir string, plan *scaffold.Plan, r *Release) error {
	var base fs.FS
	if d, err := untrusted.DirFS(dir); err == nil { // the folder's own files, read as a stranger's
		base = d
		if c, ok := d.(io.Closer); ok {
			defer c.Close()
		}
	}
	_, err := pack.Pack(context.Background(), pack.Options{Dir: dir, FS: plan.FS(base), DryRun: true, ForRegistry: r.signed(), Validate: validate.BeforePack})
	return err
}

// Text is an error's message without its hints (a hint may name flags the
// caller does not have).
func Text(err error) string {
	var e *werr.Error
	if errors.As(err, &e) {
		if e.Err != nil {
			return e.Msg + ": " + Text(e.Err)
		}
		return e.Msg
	}
	return err.Error()
}

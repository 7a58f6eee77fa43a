// Package migrate upgrades a v1 OpenWOP pack manifest to v2 the way the
// registry's codemod does (kind, engines range, signing block,
// peer-dependency keys), editing the file's own text so that key order,
// indentation and unknown members survive, and refusing, with the reason,
// what it cannot migrate without inventing something. `wopkit migrate`
// calls Pack.
package migrate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Options configure Pack.
type Options struct {
	// DryRun computes and checks the migration but writes nothing (and
	// takes no lock).
	DryRun bool
	// NoValidate writes the migrated manifest even when it is not a valid
	// v2 pack (its problems are still reported).
	NoValidate bool
	// Validator checks the result under v2; nil uses one with the embedded
	// schemas that does not run the pack's code (no OW017).
	Validator *validate.Validator
}

// Result is what Pack did or would do.
type Result struct {
	Path     string    `json:"path"`     // the manifest migrated
	Already  bool      `json:"already"`  // it was v2 already: nothing to change
	Written  bool      `json:"written"`  // the migrated manifest was written
	Changes  []Change  `json:"changes"`  // what was rewritten
	Notes    []string  `json:"notes"`    // what the user must know or do next
	Problems []Problem `json:"problems"` // why it was refused, or the v2 problems of the result
	Diff     string    `json:"diff"`     // unified diff of the manifest ("" when unchanged)
	Before   []byte    `json:"-"`
	After    []byte    `json:"-"`
}

// Problem is a refusal or a v2 problem of the result, with its file.
type Problem = validate.FileProblem

// The stable codes of a refused migration (exit 1).
const (
	CodeRefused       = "migrate_refused"        // something cannot be migrated: see Problems
	CodeResultInvalid = "migrate_result_invalid" // the migrated manifest is not a valid v2 pack
)

// Pack migrates the pack manifest at path: a pack directory (its pack.json)
// or the manifest file itself. Without DryRun the directory is locked
// (atomicfile.LockDir) while the manifest is read, checked and replaced.
// The result is checked as v2 (schema and lint, with the pack's files);
// a result with errors is not written unless NoValidate. A refusal returns
// the Result (with its Problems) and an error of class Invalid.
func Pack(path string, opts Options) (*Result, error) {
	file, dir, err := locate(path)
	if err != nil {
		return nil, err
	}
	if !opts.DryRun {
		unlock, err := atomicfile.LockDir(dir)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	src, err := readManifest(file, dir)
	if err != nil {
		return nil, err
	}
	if !opts.DryRun {
		if err := writable(file); err != nil {
			return nil, err
		}
	}
	name := display(file)
	res := &Result{Path: name, Before: src, Changes: []Change{}, Notes: []string{}, Problems: []Problem{}}
	rw, err := Manifest(src, name)
	if err != nil {
		return nil, err
	}
	if len(rw.Findings) > 0 {
		res.Problems = problems(rw.Findings, "")
		return res, werr.New(werr.Invalid, CodeRefused, "%s cannot be migrated to v2: %d problem(s); nothing was written", name, len(rw.Findings)).
			WithHint("fix what each problem says, then migrate again")
	}
	res.After, res.Changes, res.Notes = rw.Out, rw.Changes, rw.Notes
	if len(res.Changes) == 0 {
		res.Already, res.Notes = true, []string{}
		return res, nil
	}
	res.Notes = append(res.Notes, signatureNotes(src, dir, name, rw.Changes)...)
	res.Diff = udiff.Unified(name, name, string(src), string(rw.Out))
	res.Problems = check(opts.Validator, name, dir, rw.Out)
	if hasErrors(res.Problems) {
		markInherited(res.Problems, check(v1Validator(), name, dir, src))
	}
	if hasErrors(res.Problems) && !opts.NoValidate {
		return res, werr.New(werr.Invalid, CodeResultInvalid, "%s would not be a valid v2 pack once migrated; nothing was written", name).
			WithHint("fix the problems listed (those marked \"the v1 pack has it too\" were there before), then migrate again; --no-validate writes it anyway")
	}
	if opts.DryRun {
		return res, nil
	}
	if err := atomicfile.ReplaceIf(file, rw.Out, src, 0o644); err != nil {
		return res, err
	}
	res.Written = true
	return res, nil
}

// readManifest reads the manifest through the untrusted layer, with its
// pack directory as the root: a pack.json that is (or links to) something
// outside the pack, or is not a regular file, is refused before anything is
// read, so migrate never rewrites a file outside the pack.
func readManifest(file, dir string) ([]byte, error) {
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", dir).WithHint("check the path and its permissions")
	}
	defer d.Close()
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		rel = filepath.Base(file)
	}
	src, err := d.ReadFile(filepath.ToSlash(rel), validate.MaxFileSize)
	if err != nil {
		if werr.CodeOf(err) != "" {
			return nil, err
		}
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", file).WithHint("check the path and its permissions")
	}
	return src, nil
}

// CodeReadOnly is the stable code of a manifest migrate will not rewrite
// because its owner made it read-only.
const CodeReadOnly = "file_read_only"

// writable refuses a manifest whose permissions say it must not be
// written: replacing it through a new file and a rename would succeed
// anyway (the directory is writable), silently overriding the owner.
func writable(file string) error {
	fi, err := os.Stat(file)
	if err != nil {
		return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", file)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return werr.New(werr.Invalid, CodeReadOnly, "%s is read-only (mode %04o); nothing was written", display(file), fi.Mode().Perm()).
			WithHint("make it writable (chmod u+w %s) to migrate it, or see the change with --dry-run", display(file))
	}
	return nil
}

// locate returns the manifest file path names and its pack directory.
func locate(path string) (file, dir string, err error) {
	if path == "" {
		path = "."
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", "", werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path).WithHint("pass a pack directory or its pack.json")
	}
	if !fi.IsDir() {
		return path, filepath.Dir(path), nil
	}
	file = filepath.Join(path, "pack.json")
	if _, err := os.Stat(file); err != nil {
		return "", "", werr.New(werr.Invalid, "pack_manifest_missing", "directory %s has no pack.json", path).
			WithHint("pass a pack directory (one holding pack.json) or the manifest file")
	}
	return file, path, nil
}

// check validates the migrated manifest as v2 with the pack's files. The
// pack's code is never run (no OW017): migrating is editing a manifest.
func check(v *validate.Validator, name, dir string, data []byte) []Problem {
	if v == nil {
		v, _ = validate.New(validate.Options{Spec: kinds.V2})
	}
	out := []Problem{}
	fsys, err := untrusted.DirFS(dir)
	if err != nil {
		return append(out, Problem{Problem: validate.Problem{Line: 1, Column: 1, Rule: "file_unreadable", Message: err.Error(), Severity: validate.Error}})
	}
	for _, fr := range v.PackFiles(name, fsys, data) {
		out = append(out, problems(fr.Errors, fr.Path)...)
		out = append(out, problems(fr.Warnings, fr.Path)...)
	}
	return out
}

// problems gives each problem its file (file when it has none).
func problems(ps []validate.Problem, file string) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{File: p.File, Problem: p}
		if out[i].File == "" {
			out[i].File = file
		}
	}
	return out
}

// v1Validator checks the original as v1, to tell the problems migrating
// did not bring.
func v1Validator() *validate.Validator {
	v, _ := validate.New(validate.Options{Spec: kinds.V1})
	return v
}

// markInherited appends "(the v1 pack has it too)" to each problem of ps
// that the original has as well (same file, rule and pointer): those are
// not migrate's doing.
func markInherited(ps, before []Problem) {
	had := map[[3]string]bool{}
	for _, p := range before {
		had[[3]string{p.File, p.Rule, p.Pointer}] = true
	}
	for i, p := range ps {
		if had[[3]string{p.File, p.Rule, p.Pointer}] {
			ps[i].Message += " (the v1 pack has it too)"
		}
	}
}

func hasErrors(ps []Problem) bool {
	for _, p := range ps {
		if p.Severity == validate.Error {
			return true
		}
	}
	return false
}

// signatureNotes says that a v1 signature does not survive: it signed the
// v1 manifest's bytes, and the v2 signature covers the migrated ones.
func signatureNotes(src []byte, dir, name string, changes []Change) []string {
	var sigs []string
	doc, err := jsondoc.Parse(src)
	if err == nil {
		if ref := doc.Lookup("/signing/signatureRef").Text(); ref != "" {
			sigs = append(sigs, ref)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "keys", "pack.json.sig")); err == nil && !slices.Contains(sigs, "keys/pack.json.sig") {
		sigs = append(sigs, "keys/pack.json.sig")
	}
	var notes []string
	for _, c := range changes {
		if c.Pointer == "/signing" {
			dropped := ""
			if err == nil && doc.Lookup("/signing/signatureRef") != nil {
				dropped = " (signatureRef was dropped: the v2 block has nothing but keyId and scheme)"
			}
			notes = append(notes, fmt.Sprintf("%s: the signing block was relabelled {keyId, scheme} as the registry's codemod does%s; no signature carries over: a v2 signature covers the migrated bytes", name, dropped))
		}
	}
	if len(sigs) > 0 {
		notes = append(notes, fmt.Sprintf("%s signed the v1 manifest and does not match the migrated one: re-sign with `wopkit pack --sign v2 --key KEY --key-id ID` (or `wopkit sign`), which replaces it", strings.Join(sigs, ", ")))
	}
	return notes
}

// display is a path as the user should read it: relative to the working
// directory when below it.
func display(p string) string {
	if rel, err := filepath.Rel(".", p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

package validate

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// PackFile is the kind of a file of a pack directory that is not a document
// wopkit checks, reported only for what `wopkit pack` would refuse in it (a
// named pipe, a secret, a name the tarball refuses).
const PackFile kinds.Kind = "pack-file"

// lintReported are pack's refusals the lint rules already report on
// pack.json, with their own rule ids (OW005, OW006, OW016).
var lintReported = map[string]bool{"pack_file_missing": true, "pack_ref_invalid": true}

// packRefusals adds to frs (pack.json's report first) what `wopkit pack`
// would refuse in dir (pack.Check, its dry collection), each as an error
// named by pack's code, on the report of the file it is about (created when
// validation did not read that file). `validate DIR` is thus the preflight
// of `pack DIR`, in every program that validates.
func (v *Validator) packRefusals(dir string, frs []FileReport) ([]FileReport, error) {
	if v.opts.SkipPackCheck {
		return frs, nil
	}
	lim := v.opts.limits()
	list, err := pack.Check(pack.Options{Dir: dir, Limits: &lim, ForRegistry: v.opts.ForRegistry})
	if err != nil {
		return nil, err
	}
	base := path.Dir(frs[0].Path)
	for _, r := range list {
		code := r.Err.Code
		if lintReported[code] || code == "pack_manifest_invalid" && len(frs[0].Errors) > 0 {
			continue
		}
		msg := r.Err.Msg
		if r.Err.Err != nil {
			msg += ": " + r.Err.Err.Error()
		}
		p := Problem{Line: 1, Column: 1, Rule: code, Message: msg, Hint: r.Err.Hint, Severity: Error}
		if r.File == "" || r.File == "pack.json" {
			frs[0].add(p)
			continue
		}
		name := path.Join(base, r.File)
		i := 0
		for i < len(frs) && frs[i].Path != name {
			i++
		}
		if i == len(frs) {
			frs = append(frs, FileReport{Path: name, Kind: PackFile})
		}
		if code == "pack_json_invalid" && hasJSONProblem(frs[i]) {
			continue // validate read it, and said where it does not parse
		}
		frs[i].add(p)
	}
	return frs, nil
}

// hasJSONProblem reports whether validate read fr itself and found it
// wanting: a file it reads that does not parse is reported there (json/...,
// or OW005 for a referenced schema), so pack_json_invalid would say it
// twice.
func hasJSONProblem(fr FileReport) bool { return len(fr.Errors) > 0 }

// UnparsedJSON reports the .json files of a pack held in memory (a
// tarball's) that JSON.parse refuses, as the registry does for every JSON
// file of a pack, referenced or not: the rule pack_json_invalid, on the
// file named prefix+path (its report in frs, or a new one). A file
// validate read itself and found wanting is not reported twice.
func UnparsedJSON(prefix string, files map[string][]byte, frs []FileReport) []FileReport {
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(strings.ToLower(n), ".json") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		err := untrusted.ParseError(files[n])
		if err == nil {
			continue
		}
		i := slices.IndexFunc(frs, func(fr FileReport) bool { return fr.Path == prefix+n })
		if i < 0 {
			frs = append(frs, FileReport{Path: prefix + n, Kind: PackFile})
			i = len(frs) - 1
		}
		if hasJSONProblem(frs[i]) {
			continue
		}
		we := pack.JSONRefusal(n, err)
		frs[i].add(Problem{Line: 1, Column: 1, Rule: we.Code, Message: we.Msg + ": " + err.Error(), Hint: we.Hint, Severity: Error})
	}
	return frs
}

// maxListed bounds the problems BeforePack quotes in its refusal.
const maxListed = 8

// BeforePack is the validation `wopkit pack` runs before it packs
// (pack.Options.Validate): the verdict of `wopkit validate DIR`, refusing
// the pack when it has errors. A pack held in memory (opts.FS, a plan not
// written yet) is validated as the same files in DIR would be.
func BeforePack(dir string, opts pack.Options) error {
	// A v2 signing block makes the manifest a v2 document whatever the
	// source says (kind required, an engines ceiling admitting major 2, v2
	// peer-dependency families): it is checked as such before it is signed.
	// Other methods keep the source's own spec version.
	spec := kinds.SpecAuto
	if opts.Signer != nil && opts.Signer.Method() == sign.MethodV2 {
		spec = kinds.V2
	}
	// A v1 signature (manual, or the legacy ed25519) is for the frozen v1
	// tree, whose releases' engines ranges stop at major 1 (FrozenV1).
	v1Signed := opts.Signer != nil && (opts.Signer.Method() == sign.MethodManual || opts.Signer.Method() == sign.MethodLegacy)
	v, err := New(Options{ForRegistry: opts.ForRegistry, FrozenV1: v1Signed, SchemaDir: opts.SchemaDir, Spec: spec,
		SkipPackCheck: true}) // Pack collects the files itself next
	if err != nil {
		return err
	}
	rep, err := v.beforePack(dir, opts.FS)
	if err != nil {
		return err
	}
	if rep.Valid {
		return nil
	}
	var lines []string
	n, staleIDs := 0, false
	for _, f := range rep.Files {
		for _, p := range f.Errors {
			n++
			staleIDs = staleIDs || p.Rule == "OW013" && strings.Contains(p.Message, "does not name this pack version")
			if len(lines) < maxListed {
				lines = append(lines, "  "+p.String())
			}
		}
	}
	if n > len(lines) {
		lines = append(lines, fmt.Sprintf("  ... and %d more", n-len(lines)))
	}
	// The version raised by hand: the $ids still name the old one.
	fixHint := fmt.Sprintf("`wopkit validate --fix %s` rewrites every $id (and $ref) to name the pack's version; then pack again (`wopkit bump` raises a version and its $ids together)", dir)
	if spec == kinds.V2 {
		hint := fmt.Sprintf("a v1 pack becomes v2 with `wopkit migrate %s`; check with `wopkit validate --spec v2 %s`, or sign it v1 with --sign manual", dir, dir)
		if staleIDs {
			hint = fixHint
		}
		return werr.New(werr.Invalid, "pack_invalid", "%s does not validate as the v2 pack a v2 signature makes it (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
			WithHint("%s", hint)
	}
	if staleIDs {
		return werr.New(werr.Invalid, "pack_invalid", "%s does not validate (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
			WithHint("%s", fixHint)
	}
	return werr.New(werr.Invalid, "pack_invalid", "%s does not validate (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
		WithHint("fix the errors (see `wopkit validate %s`), or pass --no-validate to pack anyway", dir)
}

// beforePack validates the pack directory dir, or the pack fsys holds when
// it is given (named as if it were in dir): the same files, the same rules
// and the same report either way (pack.json read bounded, the files it
// references read from the same file system).
func (v *Validator) beforePack(dir string, fsys fs.FS) (*Report, error) {
	if fsys == nil {
		return v.Path(dir)
	}
	pj := filepath.Join(dir, "pack.json")
	// the caller holds the files in memory: read whole, then held to the
	// size a pack.json on disk is held to
	data, err := fs.ReadFile(fsys, "pack.json")
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_missing", err, "directory %s has no pack.json", dir).
			WithHint("pass a pack directory, or a manifest file such as an agent, eval suite or tool manifest")
	}
	if len(data) > MaxFileSize {
		return nil, werr.New(werr.Invalid, "file_too_large", "%s is %d bytes; wopkit validates documents of at most %d bytes", pj, len(data), MaxFileSize)
	}
	return v.report(v.PackFiles(displayPath(pj), fsys, data)...), nil
}

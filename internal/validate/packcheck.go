package validate

import (
	"path"

	"github.com/openwop/wopkit/internal/tarball"
)

// PackFile is the kind of a file of a pack directory that is not a document
// wopkit checks, reported only for what `wopkit pack` would refuse in it (a
// named pipe, a secret, a name the tarball refuses).
const PackFile Kind = "pack-file"

// PackRefusal is one thing `wopkit pack` would refuse in a pack directory.
type PackRefusal struct {
	File    string // pack-relative, slash-separated ("pack.json" or "" for the pack as a whole)
	Code    string // pack's error code, the problem's rule (pack_secret, pack_unsafe_entry...)
	Message string
	Hint    string
}

// PackCheck lists everything `wopkit pack` would refuse in the pack
// directory dir under the size limits lim (the registry's rules with
// forRegistry). It fails only when dir cannot be read at all.
type PackCheck func(dir string, lim tarball.Limits, forRegistry bool) ([]PackRefusal, error)

// packCheck is the registered PackCheck (nil: none).
var packCheck PackCheck

// RegisterPackCheck installs the check Path runs on a pack directory, so
// that `validate DIR` is the preflight of `pack DIR`. internal/pack
// registers its dry collection (pack.Check) from an init function: this
// package cannot import it, since pack validates a directory before packing
// it. Call it from an init function only.
func RegisterPackCheck(f PackCheck) { packCheck = f }

// lintReported are pack's refusals the lint rules already report on
// pack.json, with their own rule ids (OW005, OW006, OW016).
var lintReported = map[string]bool{"pack_file_missing": true, "pack_ref_invalid": true}

// packRefusals adds to frs (pack.json's report first) what `wopkit pack`
// would refuse in dir, each as an error named by pack's code, on the report
// of the file it is about (created when validation did not read that file).
func (v *Validator) packRefusals(dir string, frs []FileReport) ([]FileReport, error) {
	if packCheck == nil || v.opts.SkipPackCheck {
		return frs, nil
	}
	list, err := packCheck(dir, v.opts.limits(), v.opts.ForRegistry)
	if err != nil {
		return nil, err
	}
	base := path.Dir(frs[0].Path)
	for _, r := range list {
		if lintReported[r.Code] || r.Code == "pack_manifest_invalid" && len(frs[0].Errors) > 0 {
			continue
		}
		p := Problem{Line: 1, Column: 1, Rule: r.Code, Message: r.Message, Hint: r.Hint, Severity: Error}
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
		frs[i].add(p)
	}
	return frs, nil
}

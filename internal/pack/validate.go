package pack

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// DefaultValidate checks a pack directory with the validation package (the
// same verdict as `wopkit validate DIR`) and refuses it when it has errors.
var DefaultValidate = validateDir

// `wopkit validate DIR` is the preflight of `wopkit pack DIR`: it reports
// what Check finds, with pack's codes.
func init() { validate.RegisterPackCheck(preflight) }

// preflight is Check as validate asks for it.
func preflight(dir string, lim tarball.Limits, forRegistry bool) ([]validate.PackRefusal, error) {
	list, err := Check(Options{Dir: dir, Limits: &lim, ForRegistry: forRegistry})
	if err != nil {
		return nil, err
	}
	out := make([]validate.PackRefusal, len(list))
	for i, r := range list {
		msg := r.Err.Msg
		if r.Err.Err != nil {
			msg += ": " + r.Err.Err.Error()
		}
		out[i] = validate.PackRefusal{File: r.File, Code: r.Err.Code, Message: msg, Hint: r.Err.Hint}
	}
	return out, nil
}

// maxListed bounds the problems quoted in the refusal.
const maxListed = 8

func validateDir(dir string, opts Options) error {
	// A v2 signing block makes the manifest a v2 document whatever the
	// source says (kind required, an engines ceiling admitting major 2, v2
	// peer-dependency families): it is checked as such before it is signed.
	// Other methods keep the source's own spec version.
	spec := validate.SpecAuto
	if opts.Signer != nil && opts.Signer.Method() == sign.MethodV2 {
		spec = validate.V2
	}
	v, err := validate.New(validate.Options{ForRegistry: opts.ForRegistry, SchemaDir: opts.SchemaDir, Spec: spec,
		SkipPackCheck: true}) // Pack collects the files itself next
	if err != nil {
		return err
	}
	rep, err := v.Path(dir)
	if err != nil {
		return err
	}
	if rep.Valid {
		return nil
	}
	var lines []string
	n := 0
	for _, f := range rep.Files {
		for _, p := range f.Errors {
			n++
			if len(lines) < maxListed {
				lines = append(lines, "  "+p.String())
			}
		}
	}
	if n > len(lines) {
		lines = append(lines, fmt.Sprintf("  ... and %d more", n-len(lines)))
	}
	if spec == validate.V2 {
		return werr.New(werr.Invalid, "pack_invalid", "%s does not validate as the v2 pack a v2 signature makes it (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
			WithHint("a v1 pack becomes v2 with `wopkit migrate %s`; check with `wopkit validate --spec v2 %s`, or sign it v1 with --sign manual", dir, dir)
	}
	return werr.New(werr.Invalid, "pack_invalid", "%s does not validate (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
		WithHint("fix the errors (see `wopkit validate %s`), or pass --no-validate to pack anyway", dir)
}

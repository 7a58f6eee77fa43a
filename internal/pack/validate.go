package pack

import (
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// DefaultValidate checks a pack directory with the validation package (the
// same verdict as `wopkit validate DIR`) and refuses it when it has errors.
var DefaultValidate = validateDir

// maxListed bounds the problems quoted in the refusal.
const maxListed = 8

func validateDir(dir string, opts Options) error {
	v, err := validate.New(validate.Options{ForRegistry: opts.ForRegistry, SchemaDir: opts.SchemaDir})
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
	return werr.New(werr.Invalid, "pack_invalid", "%s does not validate (%d errors):\n%s", dir, n, strings.Join(lines, "\n")).
		WithHint("fix the errors (see `wopkit validate %s`), or pass --no-validate to pack anyway", dir)
}

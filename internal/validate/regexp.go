package validate

import (
	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/internal/ecmare"
)

// ecmaRegexp is the schema compiler's regexp engine: JSON Schema patterns
// are ECMA-262 regular expressions (ajv, the registry's validator, reads
// them so, with the u flag), not Go's RE2; internal/ecmare compiles them,
// each match bounded in time. A match it cannot decide in time refuses the
// value (pattern) or the property (patternProperties, through
// jsonschema.DecidingRegexp), and leaf says so.
func ecmaRegexp(src string) (jsonschema.Regexp, error) {
	re, err := ecmare.Cached(src)
	if err != nil {
		return nil, err
	}
	return re, nil
}

// Dialects: each schema is read with the keywords of its own dialect
// (draft 2020-12, 2019-09, draft-07); a keyword its dialect does not
// define is data to the validator, so wopkit compares it as JSON.

package semdiff

import (
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/pack"
)

// dialect is the JSON Schema draft a schema is read in.
type dialect uint8

const (
	dialect2020 dialect = iota // the default: no $schema
	dialect2019
	dialect07
	dialectOther // a json-schema.org draft wopkit does not read (draft-04, -06)
)

func (d dialect) String() string {
	return [...]string{"draft 2020-12", "draft 2019-09", "draft-07", "a draft wopkit does not read"}[d]
}

// vocab are the keywords each dialect defines that wopkit compares by
// their meaning (the annotations, read by every dialect, aside); built on
// first use, so that start-up pays nothing for it.
var vocab = sync.OnceValue(func() [3]map[string]bool {
	common := []string{"$ref", "$schema", "type", "enum", "const", "required", "properties", "patternProperties",
		"additionalProperties", "propertyNames", "items", "contains", "pattern", "format", "multipleOf", "uniqueItems",
		"allOf", "anyOf", "oneOf", "if", "then", "else", "not", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"}
	since2019 := []string{"dependentSchemas", "dependentRequired", "unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains"}
	set := func(lists ...[]string) map[string]bool {
		m := map[string]bool{}
		for _, l := range lists {
			for _, k := range l {
				m[k] = true
			}
		}
		return m
	}
	return [3]map[string]bool{
		dialect2020: set(common, since2019, []string{"prefixItems", "$dynamicRef"}),
		dialect2019: set(common, since2019, []string{"additionalItems", "$recursiveRef", "$recursiveAnchor"}),
		dialect07:   set(common, []string{"additionalItems", "dependencies"}),
	}
})

// reads reports whether the dialect defines the keyword kw (annotations
// and x-* aside).
func (d dialect) reads(kw string) bool { return d < dialectOther && vocab()[d][kw] }

// dialectOf reads $schema: the node's own, else its file's root's. A
// $schema that names no json-schema.org draft (a manifest's schema URL)
// leaves the default, draft 2020-12.
func (d *differ) dialectOf(x node) dialect {
	if m, ok := x.v.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			if dl, ok := dialectNamed(s); ok {
				return dl
			}
		}
	}
	if x.ptr == "" || x.p == nil || x.file == pack.ManifestFile {
		// A manifest's $schema names the manifest's schema, no dialect.
		return dialect2020
	}
	if m, ok := x.p.JSON(x.file).(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			if dl, ok := dialectNamed(s); ok {
				return dl
			}
		}
	}
	return dialect2020
}

// dialectNamed is the dialect the $schema URL s names (ok false: no
// json-schema.org draft).
func dialectNamed(s string) (dialect, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://"), "#")
	switch s {
	case "json-schema.org/draft/2020-12/schema":
		return dialect2020, true
	case "json-schema.org/draft/2019-09/schema":
		return dialect2019, true
	case "json-schema.org/draft-07/schema":
		return dialect07, true
	}
	if strings.HasPrefix(s, "json-schema.org/") {
		return dialectOther, true
	}
	return 0, false
}

// inDialect is m without the keywords the dialect dl does not define
// (annotations and x-* kept), or m itself when it has none: those are data
// to a validator of that dialect, compared as JSON by notRead.
func inDialect(dl dialect, m map[string]any) map[string]any {
	keep := func(k string) bool { return dl.reads(k) || annotations[k] || strings.HasPrefix(k, "x-") }
	all := true
	for k := range m {
		if !keep(k) {
			all = false
			break
		}
	}
	if all {
		return m
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if keep(k) {
			out[k] = v
		}
	}
	return out
}

package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// FieldInfo is what the schema says about one field: the help the wizard
// and the editor show beside it.
type FieldInfo struct {
	SchemaURL   string   // absolute location of the field's schema; "" when unknown
	Title       string   //
	Description string   // the schema's description
	Type        string   // "string", "array", ... ("" when the schema does not say)
	Enum        []string // allowed values, when the schema lists them
	Pattern     string   // the regular expression, when there is one
	PatternHelp string   // the pattern in words
	Format      string   // "uri", "email", ...
	Default     any      // the schema's default, if any
	Required    bool     // the parent object requires this member
}

// Field returns the schema's description of the value at pointer in a
// document of kind k. Unknown fields give a FieldInfo with no SchemaURL.
// The spec version is Options.Spec (v1 when auto, v2 for a kind only v2
// has: a connection pack); FieldFor names it.
func (v *Validator) Field(k kinds.Kind, pointer string) FieldInfo {
	return v.FieldFor(v.opts.Spec, k, pointer)
}

// FieldFor is Field for a document of kind k under spec version spec (the
// editor passes the version of the document it edits).
func (v *Validator) FieldFor(spec kinds.Spec, k kinds.Kind, pointer string) FieldInfo {
	id := kinds.SchemaIDFor(spec, k)
	if id == "" && spec == kinds.SpecAuto { // a kind v1 does not have is checked as v2 checks it
		id = kinds.SchemaIDFor(kinds.V2, k)
	}
	if v.init() != nil || id == "" {
		return FieldInfo{}
	}
	url, required := v.set.resolve(id+"#", jsondoc.SplitPointer(pointer))
	if url == "" {
		return FieldInfo{}
	}
	sch := v.set.at(url)
	fi := FieldInfo{SchemaURL: url, Required: required}
	fi.Title, _ = sch["title"].(string)
	fi.Description, _ = sch["description"].(string)
	fi.Type, _ = sch["type"].(string)
	fi.Pattern, _ = sch["pattern"].(string)
	fi.PatternHelp = patternWords[fi.Pattern]
	fi.Format, _ = sch["format"].(string)
	fi.Default = sch["default"]
	if c, ok := sch["const"]; ok {
		fi.Enum = []string{fmt.Sprint(c)}
	}
	for _, e := range asSlice(sch["enum"]) {
		fi.Enum = append(fi.Enum, fmt.Sprint(e))
	}
	if items, ok := sch["items"].(map[string]any); ok && fi.Type == "array" && len(fi.Enum) == 0 {
		for _, e := range asSlice(items["enum"]) {
			fi.Enum = append(fi.Enum, fmt.Sprint(e))
		}
	}
	return fi
}

// CheckValue validates one field's value against its own schema, as the
// author types it. Problems carry the field's pointer; the lint rules and
// the rules that tie fields together run on the whole document instead.
func (v *Validator) CheckValue(k kinds.Kind, pointer string, value any) []Problem {
	return v.CheckValueFor(v.opts.Spec, k, pointer, value)
}

// CheckValueFor is CheckValue under spec version spec.
func (v *Validator) CheckValueFor(spec kinds.Spec, k kinds.Kind, pointer string, value any) []Problem {
	fi := v.FieldFor(spec, k, pointer)
	if fi.SchemaURL == "" {
		return nil
	}
	sch, err := v.set.compile(fi.SchemaURL)
	if err != nil {
		return []Problem{{Pointer: pointer, Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error}}
	}
	b, err := json.Marshal(value)
	if err != nil {
		return []Problem{{Pointer: pointer, Line: 1, Column: 1, Rule: "schema/type", Message: "this value cannot be written as JSON", Severity: Error}}
	}
	doc, err := jsondoc.Parse(b)
	if err != nil {
		return []Problem{syntaxProblem(err)}
	}
	verr := sch.Validate(doc.Root.Value())
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil
	}
	s := shaper{set: v.set, doc: doc}
	s.walk(ve)
	field := lastToken(jsondoc.SplitPointer(pointer))
	for i := range s.out {
		s.out[i].Pointer = pointer + s.out[i].Pointer
		s.out[i].Line, s.out[i].Column = 0, 0
		s.out[i].Message = strings.ReplaceAll(s.out[i].Message, "`the document`", quoteKey(field))
	}
	return s.out
}

// resolve walks the schema from the document root along the instance
// tokens, following $ref, properties, additionalProperties and items (and,
// when a member is only declared inside a oneOf/anyOf/allOf branch, the first
// branch that declares it). It returns the absolute URL of the schema for
// the value and whether its parent requires it.
func (s *schemaSet) resolve(url string, toks []string) (string, bool) {
	required := false
	for depth := 0; ; depth++ {
		url = s.deref(url)
		if len(toks) == 0 || depth > 64 {
			return url, required
		}
		tok := toks[0]
		toks = toks[1:]
		next, req := s.step(url, tok, 0)
		if next == "" {
			return "", false
		}
		url, required = next, req
	}
}

func (s *schemaSet) step(url, tok string, depth int) (string, bool) {
	url = s.deref(url)
	sch := s.at(url)
	if sch == nil || depth > 8 {
		return "", false
	}
	if props, ok := sch["properties"].(map[string]any); ok {
		if _, ok := props[tok]; ok {
			req := false
			for _, r := range asSlice(sch["required"]) {
				req = req || r == tok
			}
			return url + "/properties" + jsondoc.Pointer(tok), req
		}
	}
	if _, err := strconv.Atoi(tok); err == nil {
		if _, ok := sch["items"].(map[string]any); ok {
			return url + "/items", false
		}
	}
	if _, ok := sch["additionalProperties"].(map[string]any); ok {
		return url + "/additionalProperties", false
	}
	for _, kw := range []string{"allOf", "oneOf", "anyOf"} {
		for i := range asSlice(sch[kw]) {
			if u, req := s.step(fmt.Sprintf("%s/%s/%d", url, kw, i), tok, depth+1); u != "" {
				return u, req
			}
		}
	}
	return "", false
}

// deref follows $ref chains from an absolute schema URL.
func (s *schemaSet) deref(url string) string {
	for i := 0; i < 16; i++ {
		ref, _ := s.at(url)["$ref"].(string)
		if ref == "" {
			return url
		}
		base, _, _ := strings.Cut(url, "#")
		switch {
		case strings.HasPrefix(ref, "#"):
			url = base + ref
		case strings.Contains(ref, "://"):
			url = ref
		default:
			dir := base[:strings.LastIndex(base, "/")+1]
			url = dir + strings.TrimPrefix(ref, "./")
		}
		if !strings.Contains(url, "#") {
			url += "#"
		}
	}
	return url
}

func asSlice(v any) []any {
	a, _ := v.([]any)
	return a
}

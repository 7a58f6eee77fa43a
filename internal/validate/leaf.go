package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"
	"github.com/openwop/wopkit/third_party/jsonschema/kind"

	"github.com/openwop/wopkit/internal/ecmare"
	"github.com/openwop/wopkit/internal/jsondoc"
)

// leaf reports one leaf error in words.
func (s *shaper) leaf(e *jsonschema.ValidationError) {
	ptr := s.base + jsondoc.Pointer(e.InstanceLocation...)
	got := s.doc.Lookup(ptr)
	title := s.conditionTitle(e.SchemaURL)
	add := func(p string, key bool, rule, msg, hint string) {
		if title != "" {
			msg = title + ": " + msg
		}
		s.add(p, key, "schema/"+rule, msg, hint)
	}
	field := lastToken(jsondoc.SplitPointer(ptr))
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			add(ptr, false, "required", "missing required property "+quoteKey(m), "add "+quoteKey(m)+describeProp(s.set, e.SchemaURL, m))
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add(jsondoc.Child(ptr, p), true, "additionalProperties", fmt.Sprintf("property %s is not allowed here", quoteKey(p)),
				fmt.Sprintf("remove %s (check its spelling), or validate with a newer schema via --schemas DIR if a newer spec defines it", quoteKey(p)))
		}
	case *kind.Enum:
		wants := make([]string, len(k.Want))
		for i, w := range k.Want {
			wants[i] = display(w)
		}
		add(ptr, false, "enum", fmt.Sprintf("%s is not an allowed value for %s", gotText(got), memberName(field)),
			"use one of: "+strings.Join(wants, ", ")+"; or validate with a newer schema via --schemas DIR")
	case *kind.Const:
		hint := "set it to " + display(k.Want)
		if field == "manifest_version" {
			hint = "this is a tool manifest of another version: run `wopkit tool upgrade FILE` to move it to " + display(k.Want)
		}
		add(ptr, false, "const", fmt.Sprintf("%s must be %s, not %s", quoteKey(field), display(k.Want), gotText(got)), hint)
	case *kind.Type:
		wants := make([]string, len(k.Want))
		for i, w := range k.Want {
			wants[i] = article(w)
		}
		add(ptr, false, "type", fmt.Sprintf("%s must be %s, not %s", fieldText(ptr), orList(wants), article(k.Got)), "")
	case *kind.Pattern:
		words := patternWords[k.Want]
		msg := fmt.Sprintf("%s does not have the form %s needs", gotText(got), quoteKey(field))
		if got != nil && got.Kind == jsondoc.String {
			if where := nameBadChar(k.Want, got.Str); where != "" {
				msg += ": " + where
			}
		}
		hint := "the schema's form for it is " + k.Want
		if words != "" {
			hint = words
		}
		if ecmare.Undecided(k.Want, k.Got) {
			msg = fmt.Sprintf("%s could not be checked against the form %s needs: the schema's pattern backtracks too much to decide within %v", gotText(got), quoteKey(field), ecmare.Timeout)
			hint = "simplify the pattern " + k.Want + " (nested repetition such as (a+)+ takes exponential time), or shorten the value"
		}
		add(ptr, false, "pattern", msg, hint)
	case *kind.PatternPropertyUndecided:
		add(jsondoc.Child(ptr, k.Property), true, "patternProperties",
			fmt.Sprintf("property %s could not be checked against the form of names %s allows: the schema's pattern backtracks too much to decide within %v", quoteKey(k.Property), fieldText(ptr), ecmare.Timeout),
			"simplify the pattern "+k.Pattern+" (nested repetition such as (a+)+ takes exponential time), or shorten the name")
	case *kind.Format:
		add(ptr, false, "format", fmt.Sprintf("%s is not a valid %s", gotText(got), k.Want), formatHint(k.Want))
	case *kind.MinLength:
		if k.Want == 1 {
			add(ptr, false, "minLength", memberName(field)+" must not be empty", "")
		} else {
			add(ptr, false, "minLength", fmt.Sprintf("%s is %d characters; at least %d are needed", quoteKey(field), k.Got, k.Want), "")
		}
	case *kind.MaxLength:
		add(ptr, false, "maxLength", fmt.Sprintf("%s is %d characters; at most %d are allowed", quoteKey(field), k.Got, k.Want), "shorten it")
	case *kind.MinItems:
		add(ptr, false, "minItems", fmt.Sprintf("%s has %d item(s); at least %d are needed", quoteKey(field), k.Got, k.Want), "")
	case *kind.MaxItems:
		add(ptr, false, "maxItems", fmt.Sprintf("%s has %d items; at most %d are allowed", quoteKey(field), k.Got, k.Want), "")
	case *kind.UniqueItems:
		add(ptr, false, "uniqueItems", fmt.Sprintf("%s lists the same value twice (items %d and %d)", quoteKey(field), k.Duplicates[0], k.Duplicates[1]), "remove the duplicate")
	case *kind.Minimum:
		add(ptr, false, "minimum", fmt.Sprintf("%s is %s; the minimum is %s", quoteKey(field), ratText(k.Got), ratText(k.Want)), "")
	case *kind.Maximum:
		add(ptr, false, "maximum", fmt.Sprintf("%s is %s; the maximum is %s", quoteKey(field), ratText(k.Got), ratText(k.Want)), "")
	case *kind.Not:
		sch := s.set.at(e.SchemaURL)
		not, _ := sch["not"].(map[string]any)
		if req, ok := not["required"].([]any); ok && len(req) > 1 {
			names := make([]string, len(req))
			for i, r := range req {
				names[i] = quoteKey(fmt.Sprint(r))
			}
			add(ptr, false, "not", andList(names)+" cannot be used together", "set at most one of "+orList(names))
		} else if ok && len(req) == 1 {
			add(ptr, false, "not", quoteKey(fmt.Sprint(req[0]))+" is not allowed here", "remove it")
		} else {
			add(ptr, false, "not", "this value matches a form the schema forbids", "")
		}
	case *kind.FalseSchema:
		add(ptr, true, "false", quoteKey(field)+" is not allowed here", "remove it")
	default:
		add(ptr, false, ruleName(e), e.ErrorKind.LocalizedString(printer), "")
	}
}

// conditionTitle returns the title of the if/then rule an error comes from.
func (s *shaper) conditionTitle(url string) string {
	i := strings.LastIndex(url, "/then")
	if i < 0 {
		i = strings.LastIndex(url, "/else")
	}
	if i < 0 {
		return ""
	}
	t, _ := s.set.at(url[:i])["title"].(string)
	return t
}

func describeProp(set *schemaSet, url, prop string) string {
	sch := set.at(url)
	props, _ := sch["properties"].(map[string]any)
	p, _ := props[prop].(map[string]any)
	d, _ := p["description"].(string)
	if d == "" {
		return ""
	}
	if i := strings.IndexAny(d, ".\n"); i > 0 && i < 140 {
		d = d[:i]
	} else if len(d) > 140 {
		d = d[:140] + "…"
	}
	return " (" + d + ")"
}

func ruleName(e *jsonschema.ValidationError) string {
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		return kp[len(kp)-1]
	}
	return "schema"
}

func ratText(r *big.Rat) string {
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// fieldText names the value at ptr for a message: `name`, or item 3 of `nodes`.
func fieldText(ptr string) string {
	toks := jsondoc.SplitPointer(ptr)
	if len(toks) == 0 {
		return "the document"
	}
	last := toks[len(toks)-1]
	if _, err := strconv.Atoi(last); err == nil && len(toks) > 1 {
		return "item " + last + " of " + quoteKey(toks[len(toks)-2])
	}
	return quoteKey(last)
}

func lastToken(loc []string) string {
	if len(loc) == 0 {
		return "the document"
	}
	return loc[len(loc)-1]
}

func quoteKey(k string) string { return "`" + k + "`" }

func quoteAll(ks []string) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = quoteKey(k)
	}
	return out
}

func gotText(n *jsondoc.Node) string {
	if n == nil {
		return "the value"
	}
	switch n.Kind {
	case jsondoc.String:
		b := marshalText(n.Str)
		if len(b) > 60 {
			return string(b[:57]) + `…"`
		}
		return string(b)
	case jsondoc.Number:
		return n.Str
	case jsondoc.Bool:
		return fmt.Sprint(n.Bool)
	case jsondoc.Null:
		return "null"
	}
	return "this " + n.Kind.String()
}

func display(v any) string {
	b := marshalText(v)
	if b == nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// marshalText writes v as JSON for a message, without the HTML escaping of
// json.Marshal (which prints ">=2.0.0" as "\u003e=2.0.0"); nil when v cannot
// be written.
func marshalText(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		if t == "integer" {
			return "an integer"
		}
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func orList(xs []string) string { return joinList(xs, "or") }

func andList(xs []string) string { return joinList(xs, "and") }

func joinList(xs []string, conj string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	case 2:
		return xs[0] + " " + conj + " " + xs[1]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " " + conj + " " + xs[len(xs)-1]
}

func unique(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func formatHint(f string) string {
	switch f {
	case "uri":
		return "write an absolute URL with a scheme, such as https://example.com/path"
	case "email":
		return "write an email address such as security@example.com"
	case "hostname":
		return "write a bare host name such as api.acme.com: no scheme, port or path"
	}
	return "see the JSON Schema " + f + " format"
}

// patternWords explains the seed schemas' patterns in words.
var patternWords = map[string]string{
	`^(core|vendor|community|private)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`:       "a pack name is reverse-DNS: a scope (core, vendor, community or private), then lower-case dot-separated parts each starting with a letter, e.g. vendor.acme.hello",
	`^(core|vendor|community|private|local)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`: "an agent id is the pack name plus a dot and the agent's own name, e.g. vendor.acme.hello.writer (scopes: core, vendor, community, private, local)",
	`^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`:                          "a Semantic Version: MAJOR.MINOR.PATCH with optional -prerelease and +build, e.g. 1.0.0 or 2.1.0-beta.1",
	`^[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`:                                        "a v2 type id: two or more dot-separated parts, each starting with a lower-case letter, e.g. vendor.acme.hello.greet",
	`^[0-9]+\.[0-9]+\.[0-9]+$`:                                                          "a plain Semantic Version MAJOR.MINOR.PATCH, e.g. 1.0.0",
	`^\d+\.\d+\.\d+(-[a-z0-9.-]+)?$`:                                                    "a Semantic Version MAJOR.MINOR.PATCH with an optional lower-case -prerelease, e.g. 0.4.1",
	`^[a-z][a-zA-Z0-9._-]*$`:                                                            "starts with a lower-case letter, then letters, digits, '.', '_' or '-', e.g. vendor.acme.hello.greet",
	`^[a-z0-9.-]+\.evals\.[a-z0-9-]+$`:                                                  "a suite id is <scope>.<org>.evals.<name> in lower case, e.g. vendor.acme.evals.writer",
	`^[a-z0-9][a-z0-9-]*$`:                                                              "kebab-case: lower-case letters, digits and '-', starting with a letter or digit, e.g. greets-in-french",
	`^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$`:                                                 "3 to 64 lower-case letters, digits and '-', not starting or ending with '-', e.g. gmail-yep",
	`^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$`:                                                 "2 to 32 lower-case letters, digits and '-', not starting or ending with '-'",
	`^[A-Z][A-Z0-9_]*$`:                                                                 "SCREAMING_SNAKE_CASE: upper-case letters, digits and '_', starting with a letter, e.g. API_TOKEN",
	`^[a-z][a-z0-9_]{0,62}$`:                                                            "snake_case: lower-case letters, digits and '_', starting with a letter, at most 63 characters, e.g. send_message",
	`^[a-z0-9][a-z0-9._-]{0,127}$`:                                                      "lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128 characters",
	`^[a-z][a-z0-9.-]*$`:                                                                "lower-case letters, digits, '.' and '-', starting with a letter, e.g. salesforce",
	`^[a-z][a-z0-9-]*$`:                                                                 "lower-case letters, digits and '-', starting with a letter, e.g. anthropic",
	`^[a-z0-9-]+$`:                                                                      "lower-case letters, digits and '-', e.g. email",
	`^([a-z][a-z0-9-]*|x-host-[a-z][a-z0-9-]*-[a-z][a-z0-9-]*)$`:                        "a spec capability such as structured-output, or a host extension x-host-<host>-<name>",
	`^[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+(@(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))?$`: "a node type id, two or more dot-separated parts each starting with a lower-case letter, with an optional exact version pin @MAJOR.MINOR.PATCH, e.g. vendor.acme.tools.digest@1.0.0",
	`^(?!-)[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*\.[a-z][a-z0-9-]*$`:                                     "a bare host name in lower case, two or more dot-separated labels, the last starting with a letter, no scheme, port or path, e.g. api.acme.com",
	`^https://`:                     "it must start with https://, e.g. https://acme.dev/weather",
	`^https://[^\s{}]+$`:            "an address that starts with https:// and has no spaces or braces, e.g. https://acme.dev/hook",
	`^[1-9][0-9]*$`:                 "a whole number from 1 up, e.g. 3",
	`^[a-zA-Z_][a-zA-Z0-9_]*$`:      "letters, digits and '_', starting with a letter or '_', e.g. user_name",
	`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`: "letters, digits and '_', starting with a letter or '_', at most 64 characters, e.g. user_name",
	`^([a-z][a-z0-9]*|vendor\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|x-[a-z][a-z0-9-]*)$`:                                                    "a format name in lower-case letters and digits (e.g. pdf), or vendor.<org>.<format>, or x-<name>",
	`^(email|uri|date|date-time|time|x-[a-z][a-z0-9-]*)$`:                                                                              "one of email, uri, date, date-time or time, or a host's own format: x- then lower-case letters, digits and dashes, e.g. x-phone",
	`^(text|longtext|number|boolean|select|multiselect|file|artifact-ref|vendor\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*|x-[a-z][a-z0-9-]*)$`: "one of text, longtext, number, boolean, select, multiselect, file or artifact-ref, or vendor.<org>.<type>, or x-<name>",
}

// memberName names the member a problem is about: its quoted name, or for
// a list's item its place in words ("item 2 of the list"), not a bare
// index such as `1`.
func memberName(field string) string {
	if n, err := strconv.Atoi(field); err == nil && n >= 0 {
		return "item " + strconv.Itoa(n+1) + " of the list"
	}
	return quoteKey(field)
}

// nameScopes are the scopes of the reverse-DNS name patterns (a pack name;
// an agent id adds local).
var nameScopes = map[string][]string{
	`^(core|vendor|community|private)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`:       {"core", "vendor", "community", "private"},
	`^(core|vendor|community|private|local)\.[a-z][a-z0-9_-]*(\.[a-z][a-zA-Z0-9_-]*)+$`: {"core", "vendor", "community", "private", "local"},
}

// nameBadChar says where a reverse-DNS name first leaves its pattern: the
// scope, a missing part, or the character (its place, counted from 1) that
// is not allowed there; "" for another pattern.
func nameBadChar(pattern, s string) string {
	scopes, ok := nameScopes[pattern]
	if !ok {
		return ""
	}
	parts := strings.Split(s, ".")
	if !slices.Contains(scopes, parts[0]) {
		return fmt.Sprintf("it starts with %q, not a scope (%s)", parts[0], orList(scopes))
	}
	pos := len([]rune(parts[0])) + 1
	for i, p := range parts[1:] {
		if p == "" {
			return fmt.Sprintf("character %d: an empty part between dots", pos+1)
		}
		for j, r := range []rune(p) {
			lower := r >= 'a' && r <= 'z'
			allowed := lower || r >= '0' && r <= '9' || r == '_' || r == '-' || i > 0 && r >= 'A' && r <= 'Z'
			switch {
			case j == 0 && !lower:
				return fmt.Sprintf("character %d, %q, starts a part, and a part starts with a lower-case letter", pos+1, r)
			case !allowed && i == 0:
				return fmt.Sprintf("character %d, %q, is not allowed in the organisation part (lower-case letters, digits, '_' and '-')", pos+j+1, r)
			case !allowed:
				return fmt.Sprintf("character %d, %q, is not allowed (letters, digits, '_' and '-' between the dots)", pos+j+1, r)
			}
		}
		pos += len([]rune(p)) + 1
	}
	if len(parts) < 3 {
		return "it needs a scope and at least two more dot-separated parts, e.g. vendor.acme.hello"
	}
	return ""
}

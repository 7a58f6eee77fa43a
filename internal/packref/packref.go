// Package packref is the one definition of which pack.json members name
// files of the pack and how such a reference becomes a path. validate
// (rules OW005, OW006, OW016), pack (which files it collects), verify (the
// v1 signatureRef) and the scaffold all use it, so they cannot disagree on
// what a pack ships.
//
// A reference is written relative to the pack root, with "/" separators,
// and may start with "./". It must already be clean: "types/../types/in.json"
// or "schemas//a.json" names a file, but not in the one way every tool and
// extractor agrees on, so it is refused (Code "ref_unclean", rule OW016)
// rather than cleaned or dropped. An https:// URL is allowed and never
// fetched; any other URL, an absolute path or a path leaving the pack is
// refused.
package packref

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/lazyre"
)

// Role is what a referenced file must be.
type Role int

// The roles.
const (
	Schema    Role = iota + 1 // a JSON Schema: *SchemaRef, schemaRef
	JSON                      // a JSON document: envelopeContractRef
	Prompt                    // a UTF-8 text file: systemPromptRef
	EvalSuite                 // an agent eval suite: evalSuiteRef
	Entry                     // the runtime entry: runtime.entry
)

// RoleOf says whether a member named key references a file, and as what.
// Other members whose names end in "Ref" (subChainRef, promptRef, a v1
// signing block's publicKeyRef) name ids, not files.
func RoleOf(key string) (Role, bool) {
	switch {
	case strings.HasSuffix(key, "SchemaRef") || key == "schemaRef":
		return Schema, true
	case key == "envelopeContractRef":
		return JSON, true
	case key == "systemPromptRef":
		return Prompt, true
	case key == "evalSuiteRef":
		return EvalSuite, true
	}
	return 0, false
}

// Skip reports whether the member key of the object at JSON pointer parent
// is left out of the walk: the top-level signing block (key ids and the
// signature file belong to signing, not to the pack's content).
func Skip(parent, key string) bool { return parent == "" && key == "signing" }

// Codes of the problems Path reports.
const (
	CodeUnclean  = "ref_unclean" // not in clean form ("a/../b", "a//b", "a/./b", "a/")
	CodeOutside  = "ref_outside" // absolute, "..", or a backslash path
	CodeURL      = "ref_url"     // a URL other than https://
	CodeEmpty    = "ref_empty"   // ""
	CodeInvalid  = "ref_invalid" // not a valid file name (NUL, ...)
	RuleUnclean  = "OW016"       // the validate rule for CodeUnclean
	RuleResolved = "OW005"       // the validate rule for the others
)

// Error is why a reference does not name a file of the pack.
type Error struct {
	Ref   string
	Code  string
	Clean string // for CodeUnclean: the clean spelling
}

func (e *Error) Error() string {
	switch e.Code {
	case CodeUnclean:
		return fmt.Sprintf("%q is not a clean path: write %q", e.Ref, e.Clean)
	case CodeURL:
		return fmt.Sprintf("%q is a URL that is not https://", e.Ref)
	case CodeEmpty:
		return "the reference is empty"
	case CodeInvalid:
		return fmt.Sprintf("%q is not a valid file path", e.Ref)
	}
	return fmt.Sprintf("%q points outside the pack: references are paths relative to the pack root, without .. or a leading /", e.Ref)
}

// Rule is the validate rule id that reports this problem.
func (e *Error) Rule() string {
	if e.Code == CodeUnclean {
		return RuleUnclean
	}
	return RuleResolved
}

var urlScheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// IsURL reports whether ref is an https:// URL: allowed, never fetched, and
// not a file of the pack.
func IsURL(ref string) bool { return strings.HasPrefix(ref, "https://") }

// Path turns a reference into the path of a file of the pack (clean,
// slash-separated, relative to the pack root, without "./"). For an
// https:// URL it returns "", nil.
func Path(ref string) (string, error) {
	switch {
	case ref == "":
		return "", &Error{Ref: ref, Code: CodeEmpty}
	case IsURL(ref):
		return "", nil
	case urlScheme.MatchString(ref) && !strings.Contains(ref[:strings.IndexByte(ref, ':')], "/"):
		return "", &Error{Ref: ref, Code: CodeURL}
	case ref[0] == '/' || strings.Contains(ref, `\`):
		return "", &Error{Ref: ref, Code: CodeOutside}
	}
	p := strings.TrimPrefix(ref, "./")
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", &Error{Ref: ref, Code: CodeOutside}
	}
	if c != p || c == "." {
		if c == "." {
			return "", &Error{Ref: ref, Code: CodeInvalid}
		}
		return "", &Error{Ref: ref, Code: CodeUnclean, Clean: c}
	}
	if !fs.ValidPath(c) || strings.ContainsRune(c, 0) {
		return "", &Error{Ref: ref, Code: CodeInvalid}
	}
	return c, nil
}

// Ref is one file reference of a manifest.
type Ref struct {
	Pointer string // JSON pointer of the member's value
	Key     string // the member's name ("entry" for runtime.entry)
	Value   string // the reference as written
	Role    Role
}

// Refs returns every file reference of a decoded manifest (as
// encoding/json decodes it), sorted by pointer: the members RoleOf names,
// anywhere but under Skip, and runtime.entry unless runtime.language is
// "remote". Values that are not strings are left to the schema.
func Refs(doc map[string]any) []Ref {
	var out []Ref
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				if Skip(ptr, k) {
					continue
				}
				p := ptr + "/" + escape(k)
				if r, ok := RoleOf(k); ok {
					if s, ok := vv.(string); ok {
						out = append(out, Ref{Pointer: p, Key: k, Value: s, Role: r})
					}
					continue
				}
				walk(p, vv)
			}
		case []any:
			for i, vv := range x {
				walk(fmt.Sprintf("%s/%d", ptr, i), vv)
			}
		}
	}
	walk("", doc)
	if rt, ok := doc["runtime"].(map[string]any); ok {
		if e, ok := rt["entry"].(string); ok && rt["language"] != "remote" {
			out = append(out, Ref{Pointer: "/runtime/entry", Key: "entry", Value: e, Role: Entry})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

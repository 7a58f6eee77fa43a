package validate

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/werr"
)

// A pack's own schemas (a node's configSchemaRef, inputSchemaRef,
// outputSchemaRef) check the values a node is run with and returns
// (`wopkit run`, `wopkit test`). They are compiled apart from wopkit's
// embedded schemas, as the registry's smoke test compiles them (JSON Schema
// 2020-12 unless the schema's $schema says otherwise; formats annotate, as
// Ajv's defaults do; ECMAScript regular expressions), and their problems
// are shaped as validate's own: rule, message, pointer, line and column.

// packSchemaBase is the base URL a pack file's schema is registered under:
// a relative $ref between the pack's schema files resolves to another file
// of the pack, and nothing resolves to the network.
const packSchemaBase = "wopkit-pack:///"

// PackSchema is one compiled schema file of a pack.
type PackSchema struct {
	set *schemaSet
	url string
}

// CompilePackSchema compiles the schema file name (a slash path in the
// pack) whose bytes are data; read returns another file of the pack that
// the schema $refs (a slash path), and may be nil (then such a $ref fails).
func CompilePackSchema(name string, data []byte, read func(name string) ([]byte, error)) (*PackSchema, error) {
	s := &schemaSet{docs: map[string]any{}, sources: map[string]string{}, compiled: map[string]*jsonschema.Schema{}}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "schema_invalid", err, "schema %s is not valid JSON", name)
	}
	u := packSchemaBase + strings.TrimPrefix(path.Clean("/"+name), "/")
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(ecmaRegexp)
	c.UseLoader(packLoader{s: s, read: read})
	if err := c.AddResource(u, doc); err != nil {
		return nil, werr.Wrap(werr.Invalid, "schema_invalid", err, "schema %s cannot be used", name)
	}
	s.docs[u] = doc
	s.sources[u] = name
	s.compiler = c
	if _, err := s.compile(u); err != nil {
		return nil, werr.Wrap(werr.Invalid, "schema_invalid", errors.Unwrap(err), "schema %s does not compile", name)
	}
	return &PackSchema{set: s, url: u}, nil
}

// packLoader resolves a $ref to another file of the same pack.
type packLoader struct {
	s    *schemaSet
	read func(string) ([]byte, error)
}

func (l packLoader) Load(raw string) (any, error) {
	if !strings.HasPrefix(raw, packSchemaBase) || l.read == nil {
		return nil, fmt.Errorf("schema %s is not a file of the pack: wopkit resolves nothing else", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(path.Clean(u.Path), "/")
	b, err := l.read(name)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("schema %s is not valid JSON: %w", name, err)
	}
	l.s.docMu.Lock()
	l.s.docs[packSchemaBase+name] = doc
	l.s.docMu.Unlock()
	return doc, nil
}

// Check validates the JSON document src and returns its problems,
// positioned in src (pointers from its root). A src that is not JSON is one
// problem saying where.
func (p *PackSchema) Check(src []byte) []Problem {
	doc, err := jsondoc.Parse(src)
	if err != nil {
		return []Problem{syntaxProblem(err)}
	}
	if doc.Root == nil {
		return nil
	}
	sch, err := p.set.compile(p.url)
	if err != nil {
		return []Problem{{Pointer: "", Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error}}
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sch.Validate(doc.Root.Value()), &ve) {
		return nil
	}
	s := shaper{set: p.set, doc: doc}
	s.walk(ve)
	return s.out
}

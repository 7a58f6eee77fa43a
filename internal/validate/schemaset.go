package validate

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/schemas"
)

// schemaSet holds the schema documents by $id and compiles them on first use.
// Validation never touches the network: only registered documents resolve.
type schemaSet struct {
	mu       sync.Mutex     // guards compiler and compiled
	docMu    sync.Mutex     // guards docs and sources
	docs     map[string]any // $id -> decoded schema document (embedded ones decoded on first use)
	sources  map[string]string
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema

	shellMu sync.Mutex            // see memo.go
	shells  map[string]shellEntry // pack schema $id -> its shell
}

// embedLoader resolves a schema URL to an embedded schema (decoded on first
// use) and refuses every other URL, so a schema $ref to an unknown document
// fails clearly instead of reaching the network.
type embedLoader struct{ s *schemaSet }

func (l embedLoader) Load(url string) (any, error) {
	if doc := l.s.doc(url); doc != nil {
		return doc, nil
	}
	return nil, fmt.Errorf("schema %s is not embedded in wopkit; provide it with --schemas DIR", url)
}

// doc returns the decoded schema document with $id id: an override from
// --schemas, else the embedded one, decoded on first use; nil if unknown.
func (s *schemaSet) doc(id string) any {
	s.docMu.Lock()
	defer s.docMu.Unlock()
	if d, ok := s.docs[id]; ok {
		return d
	}
	file, ok := schemas.Index[id]
	if !ok {
		return nil
	}
	b, err := fs.ReadFile(schemas.FS, file)
	if err != nil {
		return nil
	}
	d, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	s.docs[id] = d
	s.sources[id] = "schemas/" + file
	return d
}

// newSchemaSet registers the embedded schemas (decoded and compiled only
// when a document needs them: a command pays for the kinds it meets), then
// loads the *.json files of dir (if any), which replace embedded ones with
// the same $id or add new ones.
func newSchemaSet(dir string) (*schemaSet, error) {
	s := &schemaSet{docs: map[string]any{}, sources: map[string]string{}, compiled: map[string]*jsonschema.Schema{}}
	if dir != "" {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || files == nil {
			if _, serr := os.Stat(dir); serr != nil {
				return nil, werr.Wrap(werr.Env, "schemas_dir_unreadable", serr, "cannot read schema directory %s", dir)
			}
			return nil, werr.New(werr.Usage, "schemas_dir_empty", "schema directory %s holds no *.json files", dir).
				WithHint("point --schemas at a directory of JSON Schema files with an $id")
		}
		sort.Strings(files)
		for _, f := range files {
			b, err := untrusted.ReadNamed(f, MaxFileSize)
			if werr.CodeOf(err) != "" {
				return nil, err
			}
			if err != nil {
				return nil, werr.Wrap(werr.Env, "schemas_dir_unreadable", err, "cannot read schema %s", f)
			}
			if err := s.add(f, b); err != nil {
				return nil, err
			}
		}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(ecmaRegexp)
	c.UseLoader(embedLoader{s})
	// wopkit's embedded schemas are checked against their metaschema by
	// TestEmbeddedSchemasPassTheirMetaschema, not at every start (issue 27:
	// a third of `wopkit validate pack.json`); a --schemas override is
	// checked when it is compiled.
	overridden := map[string]bool{}
	for id := range s.docs {
		overridden[id] = true
	}
	c.TrustSchemas(func(url string) bool {
		_, embedded := schemas.Index[url]
		return embedded && !overridden[url]
	})
	for id, doc := range s.docs { // the overrides; embedded schemas load on first use
		if err := c.AddResource(id, doc); err != nil {
			return nil, werr.Wrap(werr.Invalid, "schema_invalid", err, "schema %s (%s) cannot be used", id, s.sources[id])
		}
	}
	s.compiler = c
	return s, nil
}

func (s *schemaSet) add(source string, b []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return werr.Wrap(werr.Invalid, "schema_invalid", err, "schema %s is not valid JSON", source)
	}
	m, _ := doc.(map[string]any)
	id, _ := m["$id"].(string)
	if id == "" {
		return werr.New(werr.Invalid, "schema_invalid", "schema %s has no $id", source).
			WithHint("wopkit matches override schemas to the embedded ones by $id")
	}
	s.docs[id] = doc
	s.sources[id] = source
	return nil
}

// compile returns the compiled schema at url (an $id, optionally with a
// fragment such as "#/properties/name").
func (s *schemaSet) compile(url string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.compiled[url]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile(url)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "schema_invalid", err, "cannot compile schema %s", url)
	}
	s.compiled[url] = sch
	return sch, nil
}

// at returns the raw schema object at an absolute schema URL
// ("<$id>#/json/pointer"), or nil.
func (s *schemaSet) at(url string) map[string]any {
	id, frag, _ := strings.Cut(url, "#")
	v := s.doc(id)
	for _, tok := range splitFragment(frag) {
		switch t := v.(type) {
		case map[string]any:
			v = t[tok]
		case []any:
			i := 0
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	m, _ := v.(map[string]any)
	return m
}

func splitFragment(frag string) []string {
	frag = strings.TrimPrefix(frag, "/")
	if frag == "" {
		return nil
	}
	toks := strings.Split(frag, "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

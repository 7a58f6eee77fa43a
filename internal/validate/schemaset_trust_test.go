package validate

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/schemas"
	"github.com/openwop/wopkit/third_party/jsonschema"
)

// Issue 27: the schema set trusts wopkit's embedded schemas (they are not
// checked against their metaschema at each start), so this test checks
// each of them against it, with the set's own options, once here.
func TestEmbeddedSchemasPassTheirMetaschema(t *testing.T) {
	s := &schemaSet{docs: map[string]any{}, sources: map[string]string{}, compiled: map[string]*jsonschema.Schema{}}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(ecmaRegexp)
	c.UseLoader(embedLoader{s})
	ids := make([]string, 0, len(schemas.Index))
	for id := range schemas.Index {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if _, err := c.Compile(id); err != nil {
			t.Errorf("embedded schema %s (%s): %v", id, schemas.Index[id], err)
		}
	}
	if len(ids) < 30 {
		t.Errorf("only %d embedded schemas checked", len(ids))
	}
}

// A schema the metaschema refuses (a title that is not a string) compiles
// when trusted and is refused otherwise; an override of an embedded $id
// from --schemas is not trusted.
func TestTrustSkipsOnlyEmbeddedSchemas(t *testing.T) {
	const id = "https://example.test/bad.json"
	bad := map[string]any{"$id": id, "title": 5.0}
	for _, trust := range []bool{false, true} {
		c := jsonschema.NewCompiler()
		if trust {
			c.TrustSchemas(func(u string) bool { return u == id })
		}
		if err := c.AddResource(id, bad); err != nil {
			t.Fatal(err)
		}
		_, err := c.Compile(id)
		if (err == nil) != trust {
			t.Errorf("trusted %v: %v", trust, err)
		}
	}
	var embedded string
	for k := range schemas.Index {
		embedded = k
		break
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "override.json"), []byte(`{"$id":"`+embedded+`","title":5}`), 0o644)
	s, err := newSchemaSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.compile(embedded); werr.CodeOf(err) != "schema_invalid" {
		t.Errorf("an override the metaschema refuses compiled: %v", err)
	}
}

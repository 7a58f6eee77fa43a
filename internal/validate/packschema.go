package validate

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/schemas"
)

// draft2020 is the metaschema the registry's smoke test (an Ajv2020
// instance) knows; it knows no other.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// CompilePackSchema compiles one of a pack's schema files (name is its
// path in the pack, for messages) as the registry's smoke test
// (scripts/test-packs.mjs) does with a fresh Ajv 2020: the file must be
// JSON, name no metaschema but draft 2020-12, pass that metaschema, and
// resolve every $ref within itself or to the schemas wopkit embeds (the
// script registers the agent manifest and agent ref; nothing is fetched).
// The error says why it does not compile; nil when it does.
func (v *Validator) CompilePackSchema(name string, data []byte) error {
	if err := v.init(); err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not valid JSON: %v", err)
	}
	switch d := doc.(type) {
	case bool:
	case map[string]any:
		if ms, ok := d["$schema"]; ok {
			s, _ := ms.(string)
			if strings.TrimSuffix(s, "#") != draft2020 {
				return fmt.Errorf("no schema with key or ref %q (the registry's Ajv 2020 knows only %s)", fmt.Sprint(ms), draft2020)
			}
		}
	default:
		return fmt.Errorf("schema must be object or boolean")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(ecmaRegexp)
	c.UseLoader(embedLoader{v.set})
	c.TrustSchemas(func(url string) bool { _, ok := schemas.Index[url]; return ok })
	url := "urn:wopkit:pack-schema:" + strings.ReplaceAll(name, " ", "%20")
	if err := c.AddResource(url, doc); err != nil {
		return err
	}
	_, err = c.Compile(url)
	return err
}

// SmokeFinding is one finding of the smoke test for OW023: where in
// pack.json (a JSON pointer), what, and whether it is only a warning.
type SmokeFinding struct {
	Pointer string
	Message string
	Hint    string
	Warning bool
}

// checkSmoke is OW023: with --for-registry and --run-entry, the registry's
// smoke test on a pack directory, reporting what the other rules do not
// (OW017 reports the entry's import and exports, the schema the manifest).
// When the smoke test cannot run, OW017 says why.
func checkSmoke(c *lintCtx) {
	if !c.opts.ForRegistry || !c.opts.RunEntry || c.opts.Smoke == nil {
		return
	}
	dfs, ok := c.fsys.(diskFS)
	if !ok || c.doc.Lookup("/runtime/language").Text() != "javascript" {
		return
	}
	for _, f := range c.opts.Smoke(dfs.dir) {
		line, col := c.doc.Position(c.doc.Locate(f.Pointer, false))
		sev := c.severity()
		if f.Warning {
			sev = Warning
		}
		c.out = append(c.out, Problem{Pointer: f.Pointer, Line: line, Column: col, Rule: c.rule.ID, Message: f.Message, Hint: f.Hint, Severity: sev})
	}
}

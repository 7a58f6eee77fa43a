package packref

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestPath(t *testing.T) {
	cases := []struct {
		ref, want, code string
	}{
		{"schemas/in.json", "schemas/in.json", ""},
		{"./schemas/in.json", "schemas/in.json", ""},
		{"in.json", "in.json", ""},
		{"https://example.com/s.json", "", ""},
		{"types/../types/in.json", "", CodeUnclean},
		{"schemas//in.json", "", CodeUnclean},
		{"schemas/./in.json", "", CodeUnclean},
		{"schemas/", "", CodeUnclean},
		{"../in.json", "", CodeOutside},
		{"a/../../in.json", "", CodeOutside},
		{"..", "", CodeOutside},
		{"/etc/passwd", "", CodeOutside},
		{`schemas\in.json`, "", CodeOutside},
		{"http://example.com/s.json", "", CodeURL},
		{"file:in.json", "", CodeURL},
		{"", "", CodeEmpty},
		{".", "", CodeInvalid},
		{"./", "", CodeInvalid},
	}
	for _, c := range cases {
		got, err := Path(c.ref)
		var pe *Error
		code := ""
		if errors.As(err, &pe) {
			code = pe.Code
		}
		if got != c.want || code != c.code {
			t.Errorf("Path(%q) = %q, %v; want %q, code %q", c.ref, got, err, c.want, c.code)
		}
	}
	_, err := Path("types/../types/in.json")
	if pe := err.(*Error); pe.Clean != "types/in.json" || pe.Rule() != "OW016" {
		t.Errorf("unclean: %+v rule %s", pe, pe.Rule())
	}
}

func TestRefs(t *testing.T) {
	var doc map[string]any
	src := `{"runtime": {"language": "esm", "entry": "./index.mjs"},
	  "signing": {"method": "manual", "publicKeyRef": "k", "signatureRef": "keys/pack.json.sig"},
	  "nodes": [{"typeId": "a.b", "configSchemaRef": "schemas/c.json", "inputSchemaRef": 5}],
	  "agents": [{"systemPromptRef": "p.md", "evalSuiteRef": "e.json", "handoff": {"taskSchemaRef": "t.json"}}],
	  "artifactTypes": [{"schemaRef": "a.json"}],
	  "chains": [{"dag": {"nodes": [{"config": {"subChainRef": "x.y"}}]}}]}`
	if err := json.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	want := []Ref{
		{"/agents/0/evalSuiteRef", "evalSuiteRef", "e.json", EvalSuite},
		{"/agents/0/handoff/taskSchemaRef", "taskSchemaRef", "t.json", Schema},
		{"/agents/0/systemPromptRef", "systemPromptRef", "p.md", Prompt},
		{"/artifactTypes/0/schemaRef", "schemaRef", "a.json", Schema},
		{"/nodes/0/configSchemaRef", "configSchemaRef", "schemas/c.json", Schema},
		{"/runtime/entry", "entry", "./index.mjs", Entry},
	}
	if got := Refs(doc); !reflect.DeepEqual(got, want) {
		t.Errorf("Refs:\n got %+v\nwant %+v", got, want)
	}
	doc["runtime"] = map[string]any{"language": "remote", "entry": "https://x"}
	if got := Refs(doc); len(got) != 5 {
		t.Errorf("a remote entry is not a file: %+v", got)
	}
}

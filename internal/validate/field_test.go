package validate

import (
	"github.com/openwop/wopkit/internal/kinds"
	"strings"
	"testing"
)

func TestFieldInfoFollowsRefs(t *testing.T) {
	t.Parallel()
	v, _ := New(Options{})
	cases := []struct {
		kind          kinds.Kind
		ptr           string
		wantType      string
		wantEnumFirst string
		wantRequired  bool
		descContains  string
	}{
		{kinds.NodePack, "/name", "string", "", true, "Reverse-DNS pack name"},
		{kinds.NodePack, "/nodes/3/category", "string", "chat", true, "classification"},
		{kinds.NodePack, "/agents/0/modelClass", "string", "reasoning", true, "Closed enum"},
		{kinds.NodePack, "/agents/0/promptOverrides/system", "", "", false, "Reference to a PromptTemplate"},
		{kinds.NodePack, "/runtime/language", "string", "javascript", true, "How the engine loads"},
		{kinds.ToolManifest, "/runtime/install/package", "string", "", true, ""}, // required in the pip branch
		{kinds.ToolManifest, "/env/0/name", "string", "", true, "SCREAMING_SNAKE_CASE"},
		{kinds.EvalSuite, "/tasks/0/expected/kind", "string", "golden", true, "Scoring mode"},
		{kinds.NodePack, "/peerDependenciesMeta/x/optional", "boolean", "", false, "degrades"},
	}
	for _, c := range cases {
		fi := v.Field(c.kind, c.ptr)
		if fi.SchemaURL == "" {
			t.Errorf("%s %s: not resolved", c.kind, c.ptr)
			continue
		}
		if fi.Type != c.wantType || fi.Required != c.wantRequired || !strings.Contains(fi.Description, c.descContains) {
			t.Errorf("%s %s: got type=%q required=%v desc=%.40q", c.kind, c.ptr, fi.Type, fi.Required, fi.Description)
		}
		if c.wantEnumFirst != "" && (len(fi.Enum) == 0 || fi.Enum[0] != c.wantEnumFirst) {
			t.Errorf("%s %s: enum %v", c.kind, c.ptr, fi.Enum)
		}
	}
	if fi := v.Field(kinds.NodePack, "/nope"); fi.SchemaURL != "" {
		t.Errorf("unknown field resolved to %s", fi.SchemaURL)
	}
}

func TestCheckValueExplainsInWords(t *testing.T) {
	t.Parallel()
	v, _ := New(Options{})
	ps := v.CheckValue(kinds.NodePack, "/name", "Acme")
	if len(ps) != 1 || ps[0].Rule != "schema/pattern" || !strings.Contains(ps[0].Hint, "reverse-DNS") || ps[0].Pointer != "/name" {
		t.Fatalf("name: %+v", ps)
	}
	if ps := v.CheckValue(kinds.NodePack, "/name", "vendor.acme.hello"); len(ps) != 0 {
		t.Fatalf("good name refused: %+v", ps)
	}
	if ps := v.CheckValue(kinds.NodePack, "/homepage", "not a uri"); len(ps) != 1 || ps[0].Rule != "schema/format" {
		t.Fatalf("homepage: %+v", ps)
	}
	if ps := v.CheckValue(kinds.NodePack, "/nodes/0/category", "flow"); len(ps) != 1 || ps[0].Rule != "schema/enum" || !strings.Contains(ps[0].Message, "`category`") {
		t.Fatalf("category: %+v", ps)
	}
	if ps := v.CheckValue(kinds.ToolManifest, "/env/0/name", "api_key"); len(ps) != 1 || !strings.Contains(ps[0].Hint, "SCREAMING_SNAKE_CASE") {
		t.Fatalf("env name: %+v", ps)
	}
	if ps := v.CheckValue(kinds.NodePack, "/nodes/0/capabilities", []any{"abc"}); len(ps) != 1 || ps[0].Rule != "schema/enum" || ps[0].Pointer != "/nodes/0/capabilities/0" ||
		strings.Contains(ps[0].Message, "`0`") || !strings.Contains(ps[0].Message, "item 1 of the list") {
		t.Fatalf("a list's item is named by a bare index: %+v", ps)
	}
	if ps := v.CheckValue(kinds.NodePack, "/agents/0/confidence/defaultThreshold", 1.5); len(ps) != 1 || ps[0].Rule != "schema/maximum" {
		t.Fatalf("threshold: %+v", ps)
	}
}

package validate

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/openwop/wopkit/third_party/jsonschema"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// Incremental schema validation for packs.
//
// The wizard and the editor re-check the whole pack.json on every keystroke,
// and a keystroke changes one node or one agent. A pack is therefore checked
// as a "shell" (the pack schema with the items of nodes[] and agents[]
// accepted as they are) plus each item against its own schema, with the
// item results memoized by the item's exact source text. Items are
// independent under the schema, so the verdicts and messages are those of a
// whole-document validation (TestMemoMatchesWholeDocument checks this).

// memoArrays are the pack members whose items are checked one by one.
var memoArrays = []string{"nodes", "agents"}

type memo struct {
	mu      sync.Mutex
	entries map[string][]Problem // schema URL + "\x00" + item source -> problems relative to the item
}

const memoMax = 4096

func (m *memo) get(key string) ([]Problem, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ps, ok := m.entries[key]
	return ps, ok
}

func (m *memo) put(key string, ps []Problem) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil || len(m.entries) >= memoMax {
		m.entries = make(map[string][]Problem, 64)
	}
	m.entries[key] = ps
}

// shell returns the $id of the shell schema for the pack schema id,
// building and registering it on first use; "" when the pack schema does not
// have the expected shape (a --schemas override), in which case
// whole-document validation is used.
func (s *schemaSet) shell(id string) (shellID string, itemURLs map[string]string) {
	s.shellMu.Lock()
	defer s.shellMu.Unlock()
	if e, ok := s.shells[id]; ok {
		return e.id, e.items
	}
	sid, urls := s.buildShell(id)
	if s.shells == nil {
		s.shells = map[string]shellEntry{}
	}
	s.shells[id] = shellEntry{sid, urls}
	return sid, urls
}

type shellEntry struct {
	id    string
	items map[string]string
}

func (s *schemaSet) buildShell(id string) (string, map[string]string) {
	doc, _ := s.doc(id).(map[string]any)
	props, _ := doc["properties"].(map[string]any)
	urls := map[string]string{}
	cp := shallowCopy(doc)
	cpProps := shallowCopy(props)
	for _, name := range memoArrays {
		arr, _ := props[name].(map[string]any)
		if _, ok := arr["items"].(map[string]any); !ok {
			return "", nil
		}
		urls[name] = s.deref(id + "#/properties/" + name + "/items")
		a := shallowCopy(arr)
		a["items"] = true
		cpProps[name] = a
	}
	cp["properties"] = cpProps
	// The shell lives beside the original so relative $refs resolve the same.
	sid := strings.TrimSuffix(id, ".json") + ".wopkit-shell.json"
	cp["$id"] = sid
	b, err := json.Marshal(cp)
	if err != nil {
		return "", nil
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return "", nil
	}
	s.mu.Lock()
	err = s.compiler.AddResource(sid, v)
	s.mu.Unlock()
	if err != nil {
		return "", nil
	}
	s.docMu.Lock()
	s.docs[sid] = v
	s.docMu.Unlock()
	return sid, urls
}

func shallowCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// packSchemaProblems validates a pack document incrementally.
func (v *Validator) packSchemaProblems(id string, doc *jsondoc.Doc) ([]Problem, bool) {
	shellID, itemURLs := v.set.shell(id)
	root := doc.Root
	if shellID == "" || root == nil || root.Kind != jsondoc.Object {
		return nil, false
	}
	// The shell sees the items as placeholders: they are checked one by one.
	top := make(map[string]any, len(root.Members))
	for _, m := range root.Members {
		if _, ok := itemURLs[m.Key]; ok && m.Value.Kind == jsondoc.Array {
			top[m.Key] = make([]any, len(m.Value.Items))
			continue
		}
		top[m.Key] = m.Value.Value()
	}
	out := v.shape(shellID, top, doc, "")
	for _, m := range root.Members {
		url, ok := itemURLs[m.Key]
		if !ok || m.Value.Kind != jsondoc.Array {
			continue
		}
		for i, item := range m.Value.Items {
			base := jsondoc.Index("/"+m.Key, i)
			key := url + "\x00" + string(doc.Src[item.Start:item.End])
			rel, hit := v.memo.get(key)
			if !hit {
				abs := v.shape(url, item.Value(), doc, base)
				rel = make([]Problem, len(abs))
				for j, p := range abs {
					p.Pointer = strings.TrimPrefix(p.Pointer, base)
					p.off -= item.Start
					rel[j] = p
				}
				v.memo.put(key, rel)
			}
			for _, p := range rel {
				p.Pointer = base + p.Pointer
				p.off += item.Start
				p.Line, p.Column = doc.Position(p.off)
				out = append(out, p)
			}
		}
	}
	return out, true
}

// shape validates value against the schema at url and shapes the errors,
// positioned in doc under pointer base.
func (v *Validator) shape(url string, value any, doc *jsondoc.Doc, base string) []Problem {
	if err := v.init(); err != nil {
		return []Problem{{Pointer: base, Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error}}
	}
	sch, err := v.set.compile(url)
	if err != nil {
		return []Problem{{Pointer: base, Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error}}
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sch.Validate(value), &ve) {
		return nil
	}
	s := shaper{set: v.set, doc: doc, base: base}
	s.walk(ve)
	return s.out
}

package validate

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
)

// This file holds what the language server (internal/lsp) asks of the
// validator beyond Field: one document checked the way `wopkit validate
// FILE` checks it, and the members a schema allows at a pointer.

// Document validates one document as `wopkit validate FILE` does for a file
// named name whose directory is fsys: a pack.json with the pack's files
// (PackFiles), any other document by its detected kind, with the files an
// eval suite, tool manifest or agent reads beside it. With fsys nil the
// rules that read other files do not run (Bytes). The report is finished:
// its first file is the document, the others the files it references.
func (v *Validator) Document(name string, fsys fs.FS, data []byte) *Report {
	if fsys == nil {
		return v.Bytes(name, data, v.opts.Kind)
	}
	if path.Base(name) == "pack.json" {
		return v.report(v.PackFiles(name, fsys, data)...)
	}
	fr := v.File(name, data, v.opts.Kind)
	var extra []FileReport
	if fr.Kind == kinds.EvalSuite || fr.Kind == kinds.ToolManifest || fr.Kind == kinds.Agent {
		extra = v.lintStandalone(&fr, fsys, data)
	}
	return v.report(append([]FileReport{fr}, extra...)...)
}

// MemberInfo is one member the schema declares for an object.
type MemberInfo struct {
	Name        string
	Required    bool   // the object's schema requires it
	Description string // the member schema's description
	Type        string // "string", "array", ... ("" when the schema does not say)
	Enum        []string
}

// Members returns the members the schema of kind k under spec declares for
// the object at pointer (its properties, and those of its allOf, oneOf and
// anyOf branches), required ones first, then by name. Unknown pointers give
// nil.
func (v *Validator) Members(spec kinds.Spec, k kinds.Kind, pointer string) []MemberInfo {
	id := kinds.SchemaIDFor(spec, k)
	if v.init() != nil || id == "" {
		return nil
	}
	url, _ := v.set.resolve(id+"#", jsondoc.SplitPointer(pointer))
	if url == "" {
		return nil
	}
	seen := map[string]int{}
	var out []MemberInfo
	var walk func(url string, depth int, top bool)
	walk = func(url string, depth int, top bool) {
		url = v.set.deref(url)
		sch := v.set.at(url)
		if sch == nil || depth > 8 {
			return
		}
		req := map[string]bool{}
		for _, r := range asSlice(sch["required"]) {
			if s, ok := r.(string); ok {
				req[s] = true
			}
		}
		props, _ := sch["properties"].(map[string]any)
		for name := range props {
			i, ok := seen[name]
			if !ok {
				m := MemberInfo{Name: name}
				murl := v.set.deref(url + "/properties" + jsondoc.Pointer(name))
				ms := v.set.at(murl)
				m.Description, _ = ms["description"].(string)
				m.Type, _ = ms["type"].(string)
				if c, ok := ms["const"]; ok {
					m.Enum = []string{fmt.Sprint(c)}
				}
				for _, e := range asSlice(ms["enum"]) {
					m.Enum = append(m.Enum, fmt.Sprint(e))
				}
				out = append(out, m)
				i = len(out) - 1
				seen[name] = i
			}
			if top && req[name] {
				out[i].Required = true
			}
		}
		for _, kw := range []string{"allOf", "oneOf", "anyOf"} {
			for i := range asSlice(sch[kw]) {
				walk(fmt.Sprintf("%s/%s/%d", url, kw, i), depth+1, top && kw == "allOf")
			}
		}
	}
	walk(url, 0, true)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// SchemaSource returns the schema with $id id as the validator uses it
// (embedded, or from Options.SchemaDir) re-encoded as JSON, for a peer tool
// that must check a document against the same schema.
func (v *Validator) SchemaSource(id string) ([]byte, bool) {
	if v.init() != nil {
		return nil, false
	}
	d := v.set.doc(id)
	if d == nil {
		return nil, false
	}
	b, err := json.Marshal(d)
	return b, err == nil
}

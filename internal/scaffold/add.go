package scaffold

import (
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

func init() {
	registerKind(newKind(Kind{Name: "node", Verb: "node", Order: 85, About: "A node added into a pack", Schema: kinds.NodePack},
		NodeAnswers{}.Defaults))
}

// PackSource is an existing pack that agents, nodes and eval suites are
// added into.
type PackSource struct {
	Dir      string // the pack directory
	Manifest []byte // pack.json as the author wrote it
	Name     string
	Language string // runtime.language
	Entry    string // runtime.entry, without "./"
	FS       fs.FS  // the pack's files (os.DirFS(Dir) unless set by the caller)
	doc      *jsondoc.Doc
}

// version is the pack's version for its schemas' $id: "" for a v1 pack
// (whose scaffold output stays as it was) and a pack without one.
func (s *PackSource) version() string {
	if s.doc == nil {
		return ""
	}
	if sp, _ := kinds.DetectSpec(s.doc.Root); sp != kinds.V2 {
		return ""
	}
	return s.doc.Root.Get("version").Text()
}

// OpenPack reads the pack in dir.
func OpenPack(dir string) (*PackSource, error) {
	pj := filepath.Join(dir, "pack.json")
	fsys, err := untrusted.DirFS(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_missing", err, "cannot read %s", pj).
			WithHint("--pack names a pack directory (one holding pack.json); create one with `wopkit new pack`")
	}
	// pack.json may be a link the author made to a manifest kept elsewhere
	// (the write goes through it, atomicfile.Replace): it is read as the
	// file the author named; the files it references, inside the pack only.
	b, err := untrusted.ReadNamed(pj, untrusted.MaxPackFile)
	if werr.CodeOf(err) != "" {
		return nil, err
	}
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_missing", err, "cannot read %s", pj).
			WithHint("--pack names a pack directory (one holding pack.json); create one with `wopkit new pack`")
	}
	return NewPackSource(dir, fsys, b)
}

// NewPackSource describes a pack from its pack.json bytes and files (the
// editor passes its in-memory state).
func NewPackSource(dir string, files fs.FS, manifest []byte) (*PackSource, error) {
	doc, err := jsondoc.Parse(manifest)
	if err != nil || doc.Root.Kind != jsondoc.Object {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "%s is not a JSON object", filepath.Join(dir, "pack.json")).
			WithHint("run `wopkit validate %s` to see where", dir)
	}
	s := &PackSource{Dir: dir, Manifest: manifest, FS: files, doc: doc,
		Name:     doc.Root.Get("name").Text(),
		Language: doc.Lookup("/runtime/language").Text(),
		Entry:    strings.TrimPrefix(doc.Lookup("/runtime/entry").Text(), "./")}
	if s.Name == "" {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "%s has no \"name\"", filepath.Join(dir, "pack.json")).
			WithHint("set the pack name first: new entries are named after it")
	}
	return s, nil
}

// ids returns the values of key in each item of the array at arr.
func (s *PackSource) ids(arr, key string) []string {
	var out []string
	if n := s.doc.Lookup(arr); n != nil {
		for _, it := range n.Items {
			out = append(out, it.Get(key).Text())
		}
	}
	return out
}

// AgentIDs lists the pack's agent ids, in order.
func (s *PackSource) AgentIDs() []string { return s.ids("/agents", "agentId") }

// NodeIDs lists the pack's node typeIds, in order.
func (s *PackSource) NodeIDs() []string { return s.ids("/nodes", "typeId") }

// PlanAgent computes the files that add an agent to the pack: its entry at
// the end of agents[] (the rest of pack.json byte for byte as it was), its
// prompt, handoff schemas and eval suite. An agent id already in the pack
// is refused.
func PlanAgent(src *PackSource, a AgentAnswers, v *validate.Validator) (*Plan, error) {
	id := qualify(src.Name, a.ID)
	ids := src.AgentIDs()
	if errs := src.taken("agent", "agents", "agentId", id, ids, "choose another id, or edit the existing agent with `wopkit edit`"); errs != nil {
		return nil, errs
	}
	p := &Plan{Kind: "agent", pack: src.Name, version: src.version()}
	d, err := buildAgent(p, "", src.Name, a)
	if err != nil {
		return nil, err
	}
	man := src.Manifest
	if sp, _ := kinds.DetectSpec(src.doc.Root); sp == kinds.V2 {
		d.Role = AgentRoleV2 // as in a new v2 pack; the v1 agent schema has no role
		// and the peer dependencies a new v2 pack with agents declares,
		// those the pack lacks added after engines (the rest kept as is).
		if man, err = addPeers(man, src.doc.Root.Get("peerDependencies")); err != nil {
			return nil, err
		}
	}
	return src.finishWith(man, p, "/agents", len(ids), d, v)
}

// addPeers adds to a v2 pack.json the AgentPeersV2 families it does not
// declare yet.
func addPeers(man []byte, have *jsondoc.Node) ([]byte, error) {
	if have == nil {
		return jsonedit.SetAfter(man, "/peerDependencies", "engines", AgentPeersV2)
	}
	if have.Kind != jsondoc.Object {
		return man, nil // the validator reports it
	}
	keys := make([]string, 0, len(AgentPeersV2))
	for k := range AgentPeersV2 {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var err error
	for _, k := range keys {
		if have.Get(k) == nil {
			if man, err = jsonedit.Set(man, jsondoc.Pointer("peerDependencies", k), AgentPeersV2[k]); err != nil {
				return nil, err
			}
		}
	}
	return man, nil
}

// taken refuses an id already in the pack's array arr (as its member idKey),
// pointing at the entry that holds it; nil when the id is free.
func (s *PackSource) taken(what, arr, idKey, id string, ids []string, hint string) FieldErrors {
	i := slices.Index(ids, id)
	if i < 0 {
		return nil
	}
	return FieldErrors{{Field: "id", Pointer: jsondoc.Index("/"+arr, i) + "/" + idKey, File: "pack.json",
		Message: what + " " + id + " already exists in " + filepath.Join(s.Dir, "pack.json") + " (" + arr + "[" + strconv.Itoa(i) + "])",
		Hint:    hint}}
}

// PlanNode computes the files that add a node to the pack: its entry at the
// end of nodes[], its schemas, and its implementation appended to the
// runtime entry when the runtime's template knows how.
func PlanNode(src *PackSource, n NodeAnswers, v *validate.Validator) (*Plan, error) {
	id := qualify(src.Name, n.ID)
	ids := src.NodeIDs()
	if errs := src.taken("node", "nodes", "typeId", id, ids, "choose another id"); errs != nil {
		return nil, errs
	}
	if errs := checkPorts("", n); len(errs) > 0 {
		return nil, errs
	}
	if src.Language == "remote" {
		return nil, werr.New(werr.Invalid, "scaffold_remote_pack", "pack %s is agent-only (runtime.language \"remote\" in %s): it has no code to run a node", src.Name, filepath.Join(src.Dir, "pack.json")).
			WithHint("give the pack a runtime first (runtime.language and runtime.entry, e.g. javascript and index.mjs), then add the node")
	}
	p := &Plan{Kind: "node", pack: src.Name, version: src.version()}
	d, err := buildNode(p, "", src.Name, n)
	if err != nil {
		return nil, err
	}
	if err := src.appendCode(p, n); err != nil {
		return nil, err
	}
	return src.finish(p, "/nodes", len(ids), d, v)
}

// appendCode appends the node's implementation to the runtime entry.
func (s *PackSource) appendCode(p *Plan, n NodeAnswers) error {
	rs, err := Runtime(s.Language)
	if err != nil {
		p.Notes = append(p.Notes, "runtime "+strconv.Quote(s.Language)+" has no template: implement "+qualify(s.Name, n.ID)+" in "+s.Entry+" yourself")
		return nil
	}
	entry, err := fs.ReadFile(s.FS, s.Entry)
	if rs.Append == "" || err != nil || s.Entry != rs.Entry || !strings.Contains(string(entry), rs.Marker) {
		p.Notes = append(p.Notes, "implement "+qualify(s.Name, n.ID)+" in "+s.Entry+" (wopkit does not edit this entry)")
		return nil
	}
	nv := nodeViewOf(s.Name, n)
	text := string(entry)
	for i := 2; strings.Contains(text, "function "+nv.Func+"(") || strings.Contains(text, "def "+nv.PyFunc+"(") || strings.Contains(text, "func "+nv.GoFunc+"("); i++ {
		base := nodeViewOf(s.Name, n)
		nv.Func, nv.PyFunc, nv.GoFunc = base.Func+strconv.Itoa(i), base.PyFunc+"_"+strconv.Itoa(i), base.GoFunc+strconv.Itoa(i)
	}
	code, err := render(path.Join("runtimes", rs.Language, rs.Append), view{Node: nv})
	if err != nil {
		return err
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	data, err := tidy(s.Entry, []byte(text+string(code)))
	if err != nil {
		data = []byte(text + string(code)) // the author's file does not parse: append without formatting
	}
	p.Files = append(p.Files, File{Path: s.Entry, Data: data, Mode: 0o644, Update: true, Base: entry})
	if rs.Language == "javascript" {
		ignoreTests(p, s.FS)
	}
	return addCases(p, rs, []nodeView{nv})
}

// finish appends entry to the array at arr (which had count items) in
// pack.json, adds pack.json to the plan and validates the result, keeping
// only the problems of the new entry and the new files.
func (s *PackSource) finish(p *Plan, arr string, count int, entry any, v *validate.Validator) (*Plan, error) {
	return s.finishWith(s.Manifest, p, arr, count, entry, v)
}

// finishWith is finish over man, the pack.json bytes with edits made
// before the entry is appended (s.Manifest stays the base on disk).
func (s *PackSource) finishWith(man []byte, p *Plan, arr string, count int, entry any, v *validate.Validator) (*Plan, error) {
	out, err := jsonedit.Append(man, arr, entry)
	if err != nil {
		return nil, err
	}
	p.Files = append([]File{{Path: "pack.json", Data: out, Mode: 0o644, Update: true, Base: s.Manifest}}, p.Files...)
	if errs := s.check(p, jsondoc.Index(arr, count), v); len(errs) > 0 {
		return nil, errs
	}
	return p, nil
}

// check validates the pack as it will be and keeps the problems under
// pointer prefix in pack.json and those in files the plan writes; their
// fields are relative to the new entry.
func (s *PackSource) check(p *Plan, prefix string, v *validate.Validator) FieldErrors {
	planned := map[string]bool{}
	for _, f := range p.Files {
		if f.Path != "pack.json" {
			planned[f.Path] = true
		}
	}
	keep := func(file, ptr string) bool {
		if file == "pack.json" {
			return ptr == prefix || strings.HasPrefix(ptr, prefix+"/")
		}
		return planned[file]
	}
	strip := fieldOf(prefix)
	rename := func(f string) string {
		if f == strip {
			return ""
		}
		return strings.TrimPrefix(f, strip+".")
	}
	return checkPackPlanRenamed(v, p, s.FS, keep, rename)
}

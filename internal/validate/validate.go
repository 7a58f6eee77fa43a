package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

var printer = message.NewPrinter(language.English)

// Options configure a Validator.
type Options struct {
	// SchemaDir holds JSON Schema files that replace the embedded ones with
	// the same $id (the live registry is ahead of the seeds in places).
	SchemaDir string
	// Strict makes warnings fail validation.
	Strict bool
	// Placeholders runs PH001, which warns of the values a scaffold writes
	// for the author to replace (`validate --strict` sets it, and so do the
	// scaffold and the wizard, which list them on the review).
	Placeholders bool
	// ForRegistry applies the rules for packs about to be published (the
	// registry's size limits; private.* and local.* names are refused).
	ForRegistry bool
	// FrozenV1: with ForRegistry, the pack goes into the registry's frozen
	// v1 tree (publish --spec v1), whose releases' engines ranges stop at
	// major 1: PK001 does not refuse a v1 pack's range there.
	FrozenV1 bool
	// Limits bound the tarballs read (nil: tarball.DefaultLimits, the
	// registry's; RegistryLimits with ForRegistry).
	Limits *tarball.Limits
	// Kind forces the kind of standalone documents instead of detecting it
	// (needed for agent refs, which carry too little to be recognised).
	Kind kinds.Kind
	// Spec forces the spec version every document is checked against
	// (`validate --spec`); SpecAuto detects it per document (DetectSpec).
	// Field help (Field, CheckValue) uses it, v1 when auto.
	Spec kinds.Spec
	// RunEntry lets OW017 load a javascript pack's runtime.entry with node
	// (which runs the author's code) for packs read from a directory.
	RunEntry bool
	// Smoke runs the registry's smoke test (internal/smoke) on a pack
	// directory for OW023, which runs only with ForRegistry and RunEntry;
	// cmd/wopkit sets it (validate cannot import the smoke test, which
	// uses it).
	Smoke func(dir string) []SmokeFinding
	// SkipPackCheck leaves out of a pack directory's verdict what only
	// `wopkit pack` refuses (pack.Check): BeforePack sets it, since pack
	// collects the files itself right after validating.
	SkipPackCheck bool
	// Catalog, when set, is the registry's node typeIds: with ForRegistry,
	// OW020 resolves `openwop:<typeId>` tools against it (nil: only the
	// pack's own namespace is checked).
	Catalog TypeCatalog
}

// MaxFileSize bounds how much of one file wopkit will read to validate it.
const MaxFileSize = 16 << 20

// Validator checks documents. It is safe for concurrent use; schemas are
// compiled on first use, so commands that do not validate never pay for it.
type Validator struct {
	opts     Options
	once     sync.Once
	set      *schemaSet
	initErr  error
	memo     memo
	packRuns atomic.Int32
}

// New returns a Validator. It fails only when Options.SchemaDir is unusable.
func New(opts Options) (*Validator, error) {
	v := &Validator{opts: opts}
	if opts.SchemaDir != "" {
		if err := v.init(); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// embedded is the set of the embedded schemas, shared by every Validator
// without a SchemaDir: what one compiled, the next finds compiled (the
// wizard and `new` make several validators in one process; the tests
// hundreds). A schemaSet is safe for concurrent use and its schemas never
// change once compiled.
var embedded struct {
	once sync.Once
	set  *schemaSet
	err  error
}

func (v *Validator) init() error {
	v.once.Do(func() {
		if v.opts.SchemaDir != "" {
			v.set, v.initErr = newSchemaSet(v.opts.SchemaDir)
			return
		}
		embedded.once.Do(func() { embedded.set, embedded.err = newSchemaSet("") })
		v.set, v.initErr = embedded.set, embedded.err
	})
	return v.initErr
}

// Paths validates each path (a pack directory, a manifest file or a pack
// tarball) and merges the reports in the order given. Paths are checked on
// all CPUs. An error is returned only for problems that are not about the
// documents' content (unreadable files); the first such error wins.
func (v *Validator) Paths(paths []string) (*Report, error) {
	if err := v.init(); err != nil {
		return nil, err
	}
	reps := make([]*Report, len(paths))
	errs := make([]error, len(paths))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for w := min(runtime.GOMAXPROCS(0), len(paths)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < len(paths); i = int(next.Add(1)) - 1 {
				reps[i], errs[i] = v.Path(paths[i])
			}
		}()
	}
	wg.Wait()
	rep := &Report{Valid: true, Files: []FileReport{}}
	for i := range paths {
		if errs[i] != nil {
			return nil, errs[i]
		}
		rep.Files = append(rep.Files, reps[i].Files...)
		rep.Valid = rep.Valid && reps[i].Valid
	}
	return rep, nil
}

// Path validates one pack directory, manifest file or pack tarball.
func (v *Validator) Path(path string) (*Report, error) {
	if err := v.init(); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path).WithHint("check the path")
	}
	switch {
	case fi.IsDir():
		pj := filepath.Join(path, "pack.json")
		if _, err := os.Stat(pj); err != nil {
			return nil, werr.New(werr.Invalid, "pack_manifest_missing", "directory %s has no pack.json", path).
				WithHint("pass a pack directory, or a manifest file such as an agent, eval suite or tool manifest")
		}
		return v.packDir(path)
	case isTarball(path):
		return v.tarballFile(path)
	}
	data, err := readBounded(path, fi.Size())
	if err != nil {
		return nil, err
	}
	// The files beside the document are read inside its folder only.
	fsys, err := untrusted.DirFS(filepath.Dir(path))
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", filepath.Dir(path))
	}
	if filepath.Base(path) == "pack.json" {
		return v.report(v.PackFiles(displayPath(path), fsys, data)...), nil
	}
	fr := v.File(displayPath(path), data, v.opts.Kind)
	var extra []FileReport
	if fr.Kind == kinds.EvalSuite || fr.Kind == kinds.ToolManifest || fr.Kind == kinds.Agent {
		extra = v.lintStandalone(&fr, fsys, data)
	}
	return v.report(append([]FileReport{fr}, extra...)...), nil
}

func (v *Validator) report(frs ...FileReport) *Report {
	rep := &Report{Valid: true, Files: frs}
	for i := range rep.Files {
		rep.Files[i].finish(v.opts.Strict)
		rep.Valid = rep.Valid && rep.Files[i].Valid
	}
	return rep
}

func isTarball(p string) bool {
	return strings.HasSuffix(p, ".tgz") || strings.HasSuffix(p, ".tar.gz")
}

func displayPath(p string) string {
	if rel, err := filepath.Rel(".", p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

func readBounded(path string, size int64) ([]byte, error) {
	if size > MaxFileSize {
		return nil, werr.New(werr.Invalid, "file_too_large", "%s is %d bytes; wopkit validates documents of at most %d bytes", path, size, MaxFileSize).
			WithHint("a manifest is a small JSON document: check that this is the right file")
	}
	b, err := untrusted.ReadNamed(path, MaxFileSize)
	if werr.CodeOf(err) != "" {
		return nil, err
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path)
	}
	if len(b) > MaxFileSize {
		return nil, werr.New(werr.Invalid, "file_too_large", "%s grew beyond %d bytes while being read", path, MaxFileSize)
	}
	return b, nil
}

// File validates one document given as bytes. kind "" detects it. The
// result is not finished: callers merge it into a Report (see Bytes).
func (v *Validator) File(name string, data []byte, k kinds.Kind) FileReport {
	return v.file(name, data, k, v.opts.Spec)
}

// file is File under spec version spec (SpecAuto detects it): a file a
// pack references is checked under the pack's version.
func (v *Validator) file(name string, data []byte, k kinds.Kind, spec kinds.Spec) FileReport {
	fr := FileReport{Path: name, Kind: k}
	if err := v.init(); err != nil {
		fr.add(Problem{Line: 1, Column: 1, Rule: "schema/unavailable", Message: err.Error(), Severity: Error})
		return fr
	}
	doc, perr := jsondoc.Parse(data)
	if perr != nil {
		if fr.Kind == "" {
			fr.Kind = kinds.Unknown
		}
		fr.add(syntaxProblem(perr))
		return fr
	}
	if fr.Kind == "" {
		fr.Kind = kinds.Detect(name, doc.Root)
	}
	fr.Spec = v.specOf(fr.Kind, doc)
	if spec != kinds.SpecAuto && fr.Spec != kinds.SpecAuto {
		fr.Spec = spec
	}
	v.checkDoc(&fr, doc, nil)
	v.noteSpec(&fr, doc)
	return fr
}

// noteSpec says, in the file's note, which spec a pack was checked under
// and why when its marks disagree (an engines range that cannot decide,
// v2 marks that do), and the flag that forces the other.
func (v *Validator) noteSpec(fr *FileReport, doc *jsondoc.Doc) {
	if v.opts.Spec != kinds.SpecAuto {
		return
	}
	sp, why := kinds.DetectSpec(doc.Root)
	marks, ok := strings.CutPrefix(why, kinds.MarksReason)
	if !ok || sp != fr.Spec {
		return
	}
	r := doc.Root.Get("engines").Get("openwop").Text()
	n := fmt.Sprintf("checked as v2: engines.openwop %q names no ceiling and cannot decide the spec, so the pack's v2 marks do (%s); --spec v1 checks it as v1", r, marks)
	if fr.Note != "" {
		n += "; " + fr.Note
	}
	fr.Note = n
}

// SpecOf returns the spec version a document of kind k is checked against:
// Options.Spec when forced, else the one the document follows (DetectSpec);
// SpecAuto for kinds that are not OpenWOP documents (tool manifests). The
// editor asks it to give each field its schema's help.
func (v *Validator) SpecOf(k kinds.Kind, doc *jsondoc.Doc) kinds.Spec { return v.specOf(k, doc) }

// specOf returns the spec version doc is checked against: the forced one,
// else the detected one. Tool manifests and unknown documents have none.
func (v *Validator) specOf(k kinds.Kind, doc *jsondoc.Doc) kinds.Spec {
	switch k {
	case kinds.ToolManifest, kinds.Unknown, kinds.Tarball, kinds.JSONSchema, kinds.Prompt:
		return kinds.SpecAuto
	}
	if v.opts.Spec != kinds.SpecAuto {
		return v.opts.Spec
	}
	sp, _ := kinds.DetectSpec(doc.Root)
	return sp
}

// Bytes validates one document given as bytes and returns its report.
func (v *Validator) Bytes(name string, data []byte, k kinds.Kind) *Report {
	return v.report(v.File(name, data, k))
}

// checkDoc runs the schema and the lint rules on doc; rules that read other
// files run only when fsys is given. It returns reports on referenced files.
func (v *Validator) checkDoc(fr *FileReport, doc *jsondoc.Doc, fsys fs.FS) []FileReport {
	switch fr.Kind {
	case kinds.Unknown:
		fr.add(Problem{Line: 1, Column: 1, Rule: "kind/unknown", Severity: Error,
			Message: "cannot tell what kind of document this is",
			Hint:    "a pack has engines and a kind (or runtime), a registry version manifest also has integrity, an agent has agentId, persona and modelClass, an eval suite has suiteId and tasks, a tool manifest has manifest_version; or pass --kind"})
		return nil
	case kinds.OtherPack:
		k := doc.Root.Get("kind").Text()
		fr.Note = "pack kind \"" + k + "\" is not covered by any schema wopkit has: its content is not schema-checked"
		return nil
	}
	if kinds.SchemaIDFor(fr.Spec, fr.Kind) == "" {
		fr.Note = fmt.Sprintf("no %s schema exists for %s documents: only the lint rules check it", fr.Spec, fr.Kind)
		if fr.Spec == kinds.V1 {
			fr.Note += " (pass --spec v2 to check it against the v2 schema)"
		}
	}
	fr.add(v.SchemaProblemsFor(fr.Spec, fr.Kind, doc, "")...)
	ps, extra := v.lint(fr.Path, fr.Spec, fr.Kind, doc, fsys)
	fr.add(ps...)
	if fr.Kind == kinds.VersionManifest {
		fr.noteFileRules(fr.Spec, kinds.DocOf(versionManifestKind(doc.Root)))
	}
	return extra
}

// SchemaProblems validates the value at pointer base of doc (the whole
// document when base is "") against kind's schema, under the forced spec
// version or the one the document follows.
func (v *Validator) SchemaProblems(k kinds.Kind, doc *jsondoc.Doc, base string) []Problem {
	return v.SchemaProblemsFor(v.specOf(k, doc), k, doc, base)
}

// SchemaProblemsFor validates the value at pointer base of doc against the
// schema of kind k under spec (the schema table). A registry version
// manifest is checked against the version-manifest schema and, with the
// registry's fields removed (what remains is the signed pack.json), against
// the schema of its pack kind.
func (v *Validator) SchemaProblemsFor(spec kinds.Spec, k kinds.Kind, doc *jsondoc.Doc, base string) []Problem {
	id := kinds.SchemaIDFor(spec, k)
	if id == "" || v.init() != nil {
		return nil
	}
	if k == kinds.VersionManifest && base == "" {
		out := v.shape(id, doc.Root.Value(), doc, "")
		if inner := kinds.SchemaIDFor(spec, kinds.DocOf(versionManifestKind(doc.Root))); inner != "" {
			out = append(out, v.shape(inner, stripRegistryFields(doc.Root), doc, "")...)
		}
		return out
	}
	// Incremental validation pays off from the second pack on (the wizard,
	// the editor, many files in one call); a one-shot check skips building it.
	if k == kinds.NodePack && base == "" && v.packRuns.Add(1) > 1 {
		if ps, ok := v.packSchemaProblems(id, doc); ok {
			return ps
		}
	}
	return v.shape(id, doc.Lookup(base).Value(), doc, base)
}

// registryFields are the members a registry adds to a pack manifest to make
// its version manifest (SDK registry-version-manifest.schema.json; v1 adds
// deprecated). The signing block stays: the signed pack.json carries it.
var registryFields = map[string]bool{
	"integrity": true, "publishedAt": true, "tarballUrl": true, "signatureUrl": true,
	"yanked": true, "yankedReason": true, "deprecated": true, "deprecationReason": true,
	"versionDeprecated": true, "supersededBy": true, "advisoryUrl": true,
}

func stripRegistryFields(root *jsondoc.Node) any {
	out := make(map[string]any, len(root.Members))
	for _, m := range root.Members {
		if !registryFields[m.Key] {
			out[m.Key] = m.Value.Value()
		}
	}
	return out
}

// versionManifestKind is the pack kind of a version manifest ("node" when
// absent, as v1 read it).
func versionManifestKind(root *jsondoc.Node) string {
	if k := root.Get("kind"); k != nil && k.Kind == jsondoc.String {
		return k.Str
	}
	return kinds.NodeName
}

func syntaxProblem(err error) Problem {
	var se *jsondoc.SyntaxError
	if errors.As(err, &se) {
		hint := "fix the JSON at this position"
		switch se.Code {
		case "json_duplicate_key":
			hint = "keep one of the two members: canonical JSON (and so the signature) needs each key once"
		case "json_encoding":
			hint = "save the file as UTF-8 without a byte-order mark"
		case "json_too_many_nodes", "json_too_deep":
			hint = "a pack file this large or deep is not a manifest, schema or suite a registry serves: check it is the right file, or split it"
		case "json_empty":
			hint = "write the manifest as one JSON object, or start from `wopkit new`"
		}
		return Problem{Line: se.Line, Column: se.Column, Rule: strings.Replace(se.Code, "_", "/", 1), Message: se.Msg, Hint: hint, Severity: Error}
	}
	return Problem{Line: 1, Column: 1, Rule: "json/syntax", Message: err.Error(), Severity: Error}
}

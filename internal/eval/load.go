package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/third_party/jsonschema"
)

// maxFile bounds a file of the pack the run reads (a prompt, a schema, a
// suite) and a file the user names (a replay file, --suite).
const maxFile = 16 << 20

// Target is an agent with its suite, ready to run: everything read and
// validated.
type Target struct {
	// Dir is the folder the agent's references resolve in (the pack's,
	// or a standalone manifest's).
	Dir          string
	AgentID      string
	ModelClass   string
	SystemPrompt string
	Tools        []string // toolAllowlist
	Suite        *Suite
	SuiteSource  string // the suite file, as shown
	TaskSchema   *jsonschema.Schema
	ReturnSchema *jsonschema.Schema
	// Inputs are the tasks' inputs, parsed, by task index.
	Inputs []any
}

// LoadOptions say which agent and suite to run.
type LoadOptions struct {
	// Dir is the pack folder (ignored when Agent is a manifest file).
	Dir string
	// Agent is an agentId of the pack (or the part after the pack's name),
	// or the path of a standalone agent manifest (*.json).
	Agent string
	// SuiteFile, when set, is the suite to run instead of the agent's
	// evalSuiteRef.
	SuiteFile string
}

type agentManifest struct {
	AgentID         string   `json:"agentId"`
	ModelClass      string   `json:"modelClass"`
	SystemPrompt    string   `json:"systemPrompt"`
	SystemPromptRef string   `json:"systemPromptRef"`
	EvalSuiteRef    string   `json:"evalSuiteRef"`
	ToolAllowlist   []string `json:"toolAllowlist"`
	Handoff         *struct {
		TaskSchemaRef   string `json:"taskSchemaRef"`
		ReturnSchemaRef string `json:"returnSchemaRef"`
	} `json:"handoff"`
}

// Load reads the agent and its suite, and validates both first (the
// schema and the rules, as `wopkit validate` reports them: only the
// errors of the agent's entry, the files it names and the suite count),
// then each task's input against the agent's task schema.
func Load(o LoadOptions) (*Target, error) {
	v, err := validate.New(validate.Options{})
	if err != nil {
		return nil, err
	}
	var (
		a        agentManifest
		rep      *validate.Report
		relevant func(validate.FileReport, validate.Problem) bool
		t        = &Target{}
	)
	if strings.HasSuffix(o.Agent, ".json") && isFile(o.Agent) {
		b, err := untrusted.ReadNamed(o.Agent, maxFile)
		if err != nil {
			return nil, readErr(err, o.Agent)
		}
		if err := untrusted.DecodeJSON(b, &a); err != nil {
			return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "%s is not an agent manifest", o.Agent)
		}
		t.Dir = filepath.Dir(o.Agent)
		if rep, err = v.Path(o.Agent); err != nil {
			return nil, err
		}
		relevant = func(validate.FileReport, validate.Problem) bool { return true }
	} else {
		t.Dir = o.Dir
		d, err := untrusted.OpenDir(o.Dir)
		if err != nil {
			return nil, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot open the pack folder %s", o.Dir)
		}
		var pack struct {
			Name   string            `json:"name"`
			Agents []json.RawMessage `json:"agents"`
		}
		err = d.ReadJSON("pack.json", maxFile, &pack)
		d.Close()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, werr.New(werr.Invalid, "pack_manifest_missing", "%s holds no pack.json", o.Dir).
					WithHint("give the pack folder, or the path of a standalone agent manifest (*.json)")
			}
			return nil, readErr(err, filepath.Join(o.Dir, "pack.json"))
		}
		idx, ids := -1, []string{}
		for i, raw := range pack.Agents {
			var e agentManifest
			if untrusted.DecodeJSON(raw, &e) != nil || e.AgentID == "" {
				continue
			}
			ids = append(ids, e.AgentID)
			if e.AgentID == o.Agent || e.AgentID == pack.Name+"."+o.Agent {
				idx, a = i, e
			}
		}
		if idx < 0 {
			hint := "the pack has no agents[]: add one with `wopkit new agent --pack " + o.Dir + "`"
			if len(ids) > 0 {
				hint = "the pack's agents: " + strings.Join(ids, ", ")
			}
			return nil, werr.New(werr.Invalid, CodeAgentNotFound, "%s has no agent %q", filepath.Join(o.Dir, "pack.json"), o.Agent).WithHint("%s", hint)
		}
		if rep, err = v.Path(o.Dir); err != nil {
			return nil, err
		}
		agentPtr := jsondoc.Index("/agents", idx)
		suiteRel, _ := packref.Path(a.EvalSuiteRef)
		relevant = func(f validate.FileReport, p validate.Problem) bool {
			path := filepath.ToSlash(f.Path)
			if strings.HasSuffix(path, "/pack.json") || path == "pack.json" {
				return p.Pointer == agentPtr || strings.HasPrefix(p.Pointer, agentPtr+"/")
			}
			return suiteRel != "" && o.SuiteFile == "" && (path == suiteRel || strings.HasSuffix(path, "/"+suiteRel))
		}
	}
	var problems []string
	for _, f := range rep.Files {
		for _, p := range f.Errors {
			if relevant(f, p) {
				problems = append(problems, p.String())
			}
		}
	}
	t.AgentID, t.ModelClass, t.Tools = a.AgentID, a.ModelClass, a.ToolAllowlist

	// The suite: --suite, or the agent's evalSuiteRef.
	var suiteData []byte
	switch {
	case o.SuiteFile != "":
		b, err := untrusted.ReadNamed(o.SuiteFile, maxFile)
		if err != nil {
			return nil, readErr(err, o.SuiteFile)
		}
		sv, err := validate.New(validate.Options{Kind: kinds.EvalSuite})
		if err != nil {
			return nil, err
		}
		srep, err := sv.Path(o.SuiteFile)
		if err != nil {
			return nil, err
		}
		for _, p := range srep.Problems() {
			if p.Severity == validate.Error {
				problems = append(problems, p.String())
			}
		}
		suiteData, t.SuiteSource = b, o.SuiteFile
	case a.EvalSuiteRef != "":
		b, err := readRef(t.Dir, a.EvalSuiteRef, "evalSuiteRef")
		if err != nil {
			return nil, err
		}
		suiteData, t.SuiteSource = b, filepath.Join(t.Dir, filepath.FromSlash(a.EvalSuiteRef))
	default:
		return nil, werr.New(werr.Usage, CodeNoSuite, "agent %s has no evalSuiteRef", a.AgentID).
			WithHint("give a suite with --suite FILE, or add one with `wopkit new eval --pack DIR`")
	}
	if len(problems) > 0 {
		return nil, invalid(problems, "the agent %s or its suite is not valid", a.AgentID)
	}
	t.Suite = &Suite{}
	if err := untrusted.DecodeJSON(suiteData, t.Suite); err != nil {
		return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "%s is not an eval suite", t.SuiteSource)
	}
	if id := t.Suite.TargetAgentID; id != "" && id != a.AgentID {
		return nil, werr.New(werr.Invalid, CodeSuiteInvalid, "suite %s targets agent %s, not %s", t.Suite.SuiteID, id, a.AgentID).
			WithHint("run it against %s, or change the suite's targetAgentId", id)
	}

	// What the agent names in the pack.
	switch {
	case a.SystemPrompt != "":
		t.SystemPrompt = a.SystemPrompt
	case a.SystemPromptRef != "":
		b, err := readRef(t.Dir, a.SystemPromptRef, "systemPromptRef")
		if err != nil {
			return nil, err
		}
		t.SystemPrompt = string(b)
	}
	if h := a.Handoff; h != nil {
		if h.TaskSchemaRef != "" {
			if t.TaskSchema, err = compileRef(t.Dir, h.TaskSchemaRef, "handoff.taskSchemaRef"); err != nil {
				return nil, err
			}
		}
		if h.ReturnSchemaRef != "" {
			if t.ReturnSchema, err = compileRef(t.Dir, h.ReturnSchemaRef, "handoff.returnSchemaRef"); err != nil {
				return nil, err
			}
		}
	}
	t.Inputs = make([]any, len(t.Suite.Tasks))
	for i, task := range t.Suite.Tasks {
		in, err := jsvalue.Parse(task.Input)
		if err != nil {
			return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "task %s: its input is not JSON", task.TaskID)
		}
		t.Inputs[i] = in
		if t.TaskSchema != nil {
			if msg := schemaError(t.TaskSchema, in); msg != "" {
				problems = append(problems, fmt.Sprintf("task %s: its input does not match the agent's task schema (%s): %s", task.TaskID, a.Handoff.TaskSchemaRef, msg))
			}
		}
	}
	if len(problems) > 0 {
		return nil, invalid(problems, "the inputs of suite %s do not fit agent %s", t.Suite.SuiteID, a.AgentID)
	}
	return t, nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func invalid(problems []string, format string, args ...any) error {
	const shown = 10
	msg := fmt.Sprintf(format, args...) + ":\n  " + strings.Join(problems[:min(len(problems), shown)], "\n  ")
	if len(problems) > shown {
		msg += fmt.Sprintf("\n  … and %d more", len(problems)-shown)
	}
	return werr.New(werr.Invalid, CodeSuiteInvalid, "%s", msg).WithHint("fix them first: `wopkit validate` lists them with their fixes")
}

func readErr(err error, what string) error {
	if werr.CodeOf(err) != "" {
		return err
	}
	return werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", what)
}

// readRef reads a pack-relative reference inside dir.
func readRef(dir, ref, field string) ([]byte, error) {
	rel, err := packref.Path(ref)
	if err != nil || rel == "" {
		return nil, werr.New(werr.Invalid, CodeSuiteInvalid, "%s %q is not a path inside the pack", field, ref).
			WithHint("give a pack-relative path such as prompts/agent.md")
	}
	d, err := untrusted.OpenDir(dir)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot open %s", dir)
	}
	defer d.Close()
	b, err := d.ReadFile(rel, maxFile)
	if err != nil {
		return nil, readErr(err, filepath.Join(dir, filepath.FromSlash(rel))+" ("+field+")")
	}
	return b, nil
}

// compileRef compiles the JSON Schema at a pack-relative reference. Its
// $refs may point inside the file only.
func compileRef(dir, ref, field string) (*jsonschema.Schema, error) {
	b, err := readRef(dir, ref, field)
	if err != nil {
		return nil, err
	}
	doc, err := jsvalue.Parse(b)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "%s %s is not JSON", field, ref)
	}
	return compileSchema(jsvalue.Plain(doc), field+" "+ref)
}

func compileSchema(doc any, what string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const url = "urn:wopkit:eval-schema"
	if m, ok := doc.(map[string]any); ok {
		delete(m, "$id") // the file is compiled on its own: its $id names no place to load from
	}
	if err := c.AddResource(url, doc); err != nil {
		return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "%s cannot be used as a JSON Schema", what)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, CodeSuiteInvalid, err, "%s cannot be compiled", what).
			WithHint("eval follows $ref only inside the schema file")
	}
	return sch, nil
}

// noLoader loads nothing: a schema of a pack refers only inside itself.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema file", url)
}

// schemaError is "" when v is valid against sch, else the first failure
// ("/pointer: message").
func schemaError(sch *jsonschema.Schema, v any) string {
	err := sch.Validate(jsvalue.Plain(v))
	if err == nil {
		return ""
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return jsondoc.Pointer(ve.InstanceLocation...) + ": " + strings.TrimSpace(lastLine(ve.Error()))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

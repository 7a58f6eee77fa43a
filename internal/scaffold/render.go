package scaffold

import (
	"bytes"
	"encoding/json"
	"go/format"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"text/template"
	"unicode"

	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/templates"
)

// RuntimeSpec is a runtime's description, templates/runtimes/<language>/runtime.json.
type RuntimeSpec struct {
	Language          string            `json:"language"`
	Format            string            `json:"format"`
	Entry             string            `json:"entry"`
	MinRuntimeVersion string            `json:"minRuntimeVersion"`
	Test              string            `json:"test"`   // the command that runs the scaffolded tests
	Files             map[string]string `json:"files"`  // written file -> template in the runtime's directory
	Append            string            `json:"append"` // template appended to the entry for each added node
	Marker            string            `json:"marker"` // text an entry must hold for Append to apply (the nodes map)
	Ignore            []string          `json:"ignore"` // extra .openwopignore lines
}

// Runtime returns the description of a runtime the templates offer.
func Runtime(language string) (*RuntimeSpec, error) {
	b, err := fs.ReadFile(templates.FS, "runtimes/"+language+"/runtime.json")
	if err != nil || slices.Index(Runtimes, language) < 0 {
		return nil, werr.New(werr.Invalid, "scaffold_runtime_unknown", "runtime %q has no template", language).
			WithHint("choose one of: %s", strings.Join(Runtimes, ", "))
	}
	var rs RuntimeSpec
	if err := json.Unmarshal(b, &rs); err != nil {
		return nil, werr.Wrap(werr.Env, "scaffold_template_broken", err, "templates/runtimes/%s/runtime.json is not valid", language)
	}
	return &rs, nil
}

// view is what templates see (templates/README.md lists the fields).
type view struct {
	Name, Version, Description, Author, License, Engines string
	Holder                                               string // copyright holder for LICENSE
	SignMethod                                           string // the pack's signing method: v2, or manual for a v1 pack
	Runtime                                              runtimeView
	Nodes                                                []nodeView
	Agents                                               []agentView
	Ignore                                               []string
	Node                                                 nodeView  // the node being added (append templates)
	Agent                                                agentView // the agent being written (prompt template)
}

type runtimeView struct {
	Language, Format, Entry, MinRuntimeVersion, Test string
}

type nodeView struct {
	TypeID, Suffix, Func, PyFunc, GoFunc, Label, Description string
	Inputs, Outputs                                          []string
}

type agentView struct {
	ID, Persona, ModelClass, SystemPrompt, PromptFile, EvalFile string
}

var funcs = template.FuncMap{
	"q": func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	},
	"first": func(xs []string) string {
		if len(xs) == 0 {
			return ""
		}
		return xs[0]
	},
	"join":    strings.Join,
	"comment": comment,
}

// comment makes free text safe inside a one-line code comment or
// docstring of any runtime: one line, no comment or string terminators.
func comment(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer("*/", "* /", `"""`, `" " "`, `\`, "/")
	return r.Replace(s)
}

// parsed holds each template of templates/ parsed on first use (name ->
// *parsedTemplate): a template is parsed once per process, not at every
// render (the wizard re-plans the pack as the author types). An executed
// template is not changed, and Execute is safe for concurrent use.
var parsed sync.Map

type parsedTemplate struct {
	once sync.Once
	t    *template.Template
	err  error
}

// render executes one template file of templates/ with data.
func render(name string, data any) ([]byte, error) {
	e, _ := parsed.LoadOrStore(name, &parsedTemplate{})
	p := e.(*parsedTemplate)
	p.once.Do(func() {
		src, err := fs.ReadFile(templates.FS, name)
		if err != nil {
			p.err = werr.Wrap(werr.Env, "scaffold_template_missing", err, "template %s is missing", name)
			return
		}
		p.t, err = template.New(path.Base(name)).Funcs(funcs).Option("missingkey=error").Parse(string(src))
		if err != nil {
			p.err = werr.Wrap(werr.Env, "scaffold_template_broken", err, "template %s does not parse", name)
		}
	})
	if p.err != nil {
		return nil, p.err
	}
	var b bytes.Buffer
	if err := p.t.Execute(&b, data); err != nil {
		return nil, werr.Wrap(werr.Env, "scaffold_template_broken", err, "template %s failed", name)
	}
	return b.Bytes(), nil
}

// tidy ends a rendered source file with exactly one newline and formats Go
// source with gofmt's rules (a template that yields invalid Go is a bug).
func tidy(name string, b []byte) ([]byte, error) {
	b = append(bytes.TrimRight(b, "\n"), '\n')
	if !strings.HasSuffix(name, ".go") {
		return b, nil
	}
	out, err := format.Source(b)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "scaffold_template_broken", err, "the Go source rendered for %s does not parse", name)
	}
	return out, nil
}

// identifier turns an id suffix ("say-hello") into a camelCase identifier
// ("sayHello"); upper makes it exported ("SayHello").
func identifier(s string, upper bool) string {
	var b strings.Builder
	up := upper
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = b.Len() > 0 || upper
			continue
		}
		if b.Len() == 0 && unicode.IsDigit(r) {
			b.WriteString("n")
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "node"
	}
	return b.String()
}

// snake turns an id suffix into a snake_case identifier.
func snake(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else if b.Len() > 0 {
			b.WriteByte('_')
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "node_" + out
	}
	return out
}

// wasmModule is a minimal valid core WebAssembly module exporting
// `run: () -> i32` that returns 0 (the compiled form of node.wat).
var wasmModule = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
	0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type section: () -> i32
	0x03, 0x02, 0x01, 0x00, // function section: func 0 has type 0
	0x07, 0x07, 0x01, 0x03, 'r', 'u', 'n', 0x00, 0x00, // export "run" = func 0
	0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x00, 0x0b, // code: i32.const 0; end
}

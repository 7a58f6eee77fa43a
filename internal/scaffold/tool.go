package scaffold

import (
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/placeholder"
	"github.com/openwop/wopkit/internal/validate"
)

func init() {
	k := newKind(Kind{Name: "tool", Verb: "tool", Order: 95, About: "A standalone tool install manifest", Schema: kinds.ToolManifest},
		ToolAnswers{}.Defaults)
	k.Full = func() any {
		t := ToolAnswers{}.Defaults()
		t.Runtime.Command = []string{}
		t.Env = []EnvAnswers{{Required: true}}
		t.Scopes = []ScopeAnswers{{Actions: []string{}}}
		return &t
	}
	k.Plan = func(a any, v *validate.Validator) (*Plan, error) { return PlanTool(*a.(*ToolAnswers), "", v) }
	registerKind(k)
}

// ToolManifestVersion is the install-manifest version scaffold writes.
const ToolManifestVersion = "0.4"

// privateData is the install-manifest schema's private-data prefix list:
// scopes on these resources need a data_boundary.
var privateData = lazyre.New(`^(gmail|calendar|drive|contacts|messages|sms|files|photos|location|health|finance|payments|stripe|plaid)\.`)

// IsPrivateData reports whether a scope resource is private data in the
// sense of the install-manifest schema (a data_boundary is then required).
func IsPrivateData(resource string) bool { return privateData.MatchString(resource) }

// ToolHomepage is the homepage a tool gets when none is given: a page to
// replace before publishing.
func ToolHomepage(id string) string { return "https://example.com/tools/" + id }

// Normalize fills what follows from other answers: the homepage, the
// licence (DefaultToolLicense when none is given), the
// install block's package, URL, ref, image or locator, and the entrypoint
// or endpoint of the runtime kind.
func (a *ToolAnswers) Normalize() {
	t := &a.Tool
	if t.Homepage == "" {
		t.Homepage = ToolHomepage(t.ID)
	}
	if t.License == "" {
		t.License = DefaultToolLicense
	}
	in := &a.Install
	switch in.Method {
	case "pip", "npm":
		if in.Package == "" {
			in.Package = t.ID
		}
		if in.VersionSpec == "" && t.Version != "" {
			in.VersionSpec = map[string]string{"pip": "==", "npm": "^"}[in.Method] + t.Version
		}
	case "git":
		if in.URL == "" {
			in.URL = "https://github.com/example/" + t.ID
		}
		if in.Ref == "" {
			in.Ref = "v" + t.Version
		}
	case "container":
		if in.Image == "" {
			in.Image = "ghcr.io/example/" + t.ID + ":" + t.Version
		}
	case "url":
		if in.URL == "" {
			in.URL = "https://example.com/downloads/" + t.ID + "-" + t.Version
		}
		if in.SHA256 == "" {
			in.SHA256 = placeholder.ZeroDigest
		}
	case "preinstalled":
		if in.Locator == "" {
			switch a.Runtime.Kind {
			case "python-module":
				in.Locator = "python-module"
			case "mcp-stdio", "mcp-http":
				in.Locator = "mcp-server-id"
			default:
				in.Locator = "binary-on-path"
			}
		}
		if in.Probe == "" {
			in.Probe = t.ID
			if in.Locator == "python-module" {
				in.Probe = snake(t.ID)
			}
		}
	}
	r := &a.Runtime
	if r.Kind == "mcp-http" {
		if r.EndpointURL == "" {
			r.EndpointURL = "http://127.0.0.1:8080/mcp"
		}
		return
	}
	if len(r.Command) == 0 {
		r.Command = a.defaultCommand()
	}
}

// defaultCommand is the entrypoint argv that fits the kind and install method.
func (a *ToolAnswers) defaultCommand() []string {
	in, id := a.Install, a.Tool.ID
	image := in.Image
	if image == "" {
		image = "ghcr.io/example/" + id + ":" + a.Tool.Version
	}
	switch {
	case a.Runtime.Kind == "container" || in.Method == "container":
		return []string{"docker", "run", "--rm", "-i", image}
	case in.Method == "pip":
		return []string{"python", "-m", snake(in.Package)}
	case in.Method == "npm":
		return []string{"npx", "--no-install", in.Package}
	case in.Method == "preinstalled" && in.Locator == "python-module":
		return []string{"python", "-m", in.Probe}
	case in.Method == "preinstalled" && in.Locator == "mcp-server-id":
		return nil // the host runs the registered server
	case in.Method == "preinstalled":
		return []string{in.Probe}
	case a.Runtime.Kind == "python-module":
		return []string{"python", "-m", snake(id)}
	case a.Runtime.Kind == "node-module":
		return []string{"node", "index.mjs"}
	}
	return []string{id}
}

// PlanTool computes a v0.4 tool install manifest (one file, <id>.json by
// default). The answers are normalized first; the manifest is validated
// (strict) with v, or with a default validator when v is nil, and any
// problem is returned as FieldErrors. Nothing is written.
func PlanTool(a ToolAnswers, file string, v *validate.Validator) (*Plan, error) {
	a.Normalize()
	if file == "" {
		file = a.Tool.ID + ".tool.json"
	}
	doc, errs := a.manifest()
	if len(errs) > 0 {
		return nil, errs
	}
	p := &Plan{Kind: "tool"}
	if err := p.addJSON(file, doc); err != nil {
		return nil, err
	}
	rep := orDefault(v).Bytes(file, p.Files[0].Data, kinds.ToolManifest)
	for _, pr := range rep.Problems() {
		fe := FieldError{Field: toolFieldOf(pr), Pointer: pr.Pointer, File: file, Message: pr.Message, Hint: pr.Hint, Rule: pr.Rule}
		if pr.Rule == validate.PlaceholderRule {
			p.Placeholders = append(p.Placeholders, fe)
			continue
		}
		errs = append(errs, fe)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if a.Install.Method == "url" && a.Install.SHA256 == placeholder.ZeroDigest {
		p.Notes = append(p.Notes, "install.sha256 is a placeholder: set it to the SHA-256 of "+a.Install.URL)
	}
	return p, nil
}

// toolRenames maps manifest keys to answer fields (see keyRenames).
var toolRenames = map[string]string{
	"kill_switch": "killSwitch!", "data_boundary": "scopes!", "smoke": "smoke!",
	"entrypoint": "command!", "endpoint_url": "endpointUrl", "version_spec": "versionSpec",
	"side_effects": "sideEffects", "scopes_used": "scopesUsed", "input": "inputs!", "invocation": "name!",
	"locator": "locator!", "manifest_version": "!", "output": "name!",
}

// toolField maps a pointer in a generated tool manifest to its answer field.
func toolField(pointer string) string {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) >= 2 && toks[0] == "runtime" && toks[1] == "install" {
		toks = append([]string{"install"}, toks[2:]...)
	}
	var parts []string
	for _, tok := range toks {
		r, ok := toolRenames[tok]
		if !ok {
			parts = append(parts, tok)
			continue
		}
		if strings.HasSuffix(r, "!") {
			if r != "!" {
				parts = append(parts, strings.TrimSuffix(r, "!"))
			}
			break
		}
		parts = append(parts, r)
	}
	return strings.Join(parts, ".")
}

// toolFieldOf maps a problem to its answer field; problems the schema
// reports at the root (its if/then rules) are mapped by their title.
func toolFieldOf(pr validate.Problem) string {
	if f := toolField(pr.Pointer); f != "" {
		return f
	}
	for key, field := range map[string]string{"kill_switch": "killSwitch.kind", "actions[]": "actions", "data_boundary": "scopes"} {
		if strings.Contains(pr.Message, key) {
			return field
		}
	}
	return ""
}

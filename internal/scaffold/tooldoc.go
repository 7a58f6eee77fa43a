package scaffold

import (
	"strings"

	"github.com/openwop/wopkit/internal/placeholder"
)

// The tool install manifest as ordered Go values (key order of the spec's examples).

type toolDoc struct {
	ManifestVersion string        `json:"manifest_version"`
	Tool            toolIDDoc     `json:"tool"`
	Runtime         toolRTDoc     `json:"runtime"`
	Env             []envDoc      `json:"env,omitempty"`
	Scopes          []scopeDoc    `json:"scopes,omitempty"`
	Actions         []actionDoc   `json:"actions,omitempty"`
	DataBoundary    *boundaryDoc  `json:"data_boundary,omitempty"`
	Smoke           smokeDoc      `json:"smoke"`
	KillSwitch      killSwitchDoc `json:"kill_switch"`
}

type toolIDDoc struct {
	Namespace string `json:"namespace,omitempty"`
	ID        string `json:"id"`
	Version   string `json:"version"`
	Name      string `json:"name"`
	Summary   string `json:"summary"`
	Homepage  string `json:"homepage"`
	License   string `json:"license,omitempty"`
}

type toolRTDoc struct {
	Kind        string         `json:"kind"`
	Install     installDoc     `json:"install"`
	Entrypoint  *entrypointDoc `json:"entrypoint,omitempty"`
	EndpointURL string         `json:"endpoint_url,omitempty"`
}

type installDoc struct {
	Method      string      `json:"method"`
	Package     string      `json:"package,omitempty"`
	VersionSpec string      `json:"version_spec,omitempty"`
	URL         string      `json:"url,omitempty"`
	Ref         string      `json:"ref,omitempty"`
	Image       string      `json:"image,omitempty"`
	SHA256      string      `json:"sha256,omitempty"`
	Locator     *locatorDoc `json:"locator,omitempty"`
}

type locatorDoc struct {
	Kind     string `json:"kind"`
	Module   string `json:"module,omitempty"`
	Binary   string `json:"binary,omitempty"`
	ServerID string `json:"server_id,omitempty"`
}

type entrypointDoc struct {
	Command []string `json:"command"`
}

type envDoc struct {
	Name     string `json:"name"`
	Prompt   string `json:"prompt"`
	Secret   bool   `json:"secret"`
	Required bool   `json:"required"`
}

type scopeDoc struct {
	Resource  string   `json:"resource"`
	Actions   []string `json:"actions"`
	Rationale string   `json:"rationale"`
}

type actionDoc struct {
	Name        string         `json:"name"`
	Summary     string         `json:"summary"`
	Invocation  any            `json:"invocation"`
	Input       inputSchema    `json:"input"`
	Output      map[string]any `json:"output"`
	SideEffects string         `json:"side_effects"`
	Idempotent  bool           `json:"idempotent"`
	ScopesUsed  []string       `json:"scopes_used,omitempty"`
}

type inputSchema struct {
	Type                 string                    `json:"type"`
	Properties           map[string]map[string]any `json:"properties"`
	Required             []string                  `json:"required,omitempty"`
	AdditionalProperties bool                      `json:"additionalProperties"`
}

type boundaryDoc struct {
	Reads []readDoc `json:"reads"`
}

type readDoc struct {
	Resource    string `json:"resource"`
	Sensitivity string `json:"sensitivity"`
}

type smokeDoc struct {
	Kind      string            `json:"kind"`
	Command   []string          `json:"command,omitempty"`
	URL       string            `json:"url,omitempty"`
	ToolName  string            `json:"tool_name,omitempty"`
	Action    string            `json:"action,omitempty"`
	Arguments map[string]string `json:"arguments,omitempty"`
	Success   map[string]any    `json:"success"`
}

type killSwitchDoc struct {
	Kind         string   `json:"kind"`
	URL          string   `json:"url,omitempty"`
	Command      []string `json:"command,omitempty"`
	Instructions string   `json:"instructions,omitempty"`
}

func isMCP(kind string) bool { return kind == "mcp-stdio" || kind == "mcp-http" }

// manifest builds the manifest of normalized answers. It refuses only what
// the schema cannot word (a smoke test with nothing to call); the rest is
// left to the validator.
func (a *ToolAnswers) manifest() (toolDoc, FieldErrors) {
	var errs FieldErrors
	d := toolDoc{ManifestVersion: ToolManifestVersion,
		Tool: toolIDDoc{Namespace: a.Tool.Namespace, ID: a.Tool.ID, Version: a.Tool.Version, Name: a.Tool.Name,
			Summary: a.Tool.Summary, Homepage: a.Tool.Homepage, License: a.Tool.License},
		Runtime: toolRTDoc{Kind: a.Runtime.Kind, EndpointURL: a.Runtime.EndpointURL},
	}
	if len(a.Runtime.Command) > 0 {
		d.Runtime.Entrypoint = &entrypointDoc{Command: a.Runtime.Command}
	}
	in := a.Install
	d.Runtime.Install = installDoc{Method: in.Method}
	switch in.Method {
	case "pip", "npm":
		d.Runtime.Install.Package, d.Runtime.Install.VersionSpec = in.Package, in.VersionSpec
	case "git":
		d.Runtime.Install.URL, d.Runtime.Install.Ref = in.URL, in.Ref
	case "container":
		d.Runtime.Install.Image = in.Image
	case "url":
		d.Runtime.Install.URL, d.Runtime.Install.SHA256 = in.URL, in.SHA256
	case "preinstalled":
		l := &locatorDoc{Kind: in.Locator}
		switch in.Locator {
		case "python-module":
			l.Module = in.Probe
		case "binary-on-path":
			l.Binary = in.Probe
		default:
			l.ServerID = in.Probe
		}
		d.Runtime.Install.Locator = l
	}
	for _, e := range a.Env {
		d.Env = append(d.Env, e.resolved())
	}
	var reads []readDoc
	for _, s := range a.Scopes {
		d.Scopes = append(d.Scopes, scopeDoc{Resource: s.Resource, Actions: s.Actions, Rationale: s.Rationale})
		if IsPrivateData(s.Resource) || s.Sensitivity != "" { // a sensitivity given is written, never dropped
			sens := s.Sensitivity
			if sens == "" {
				sens = "medium"
			}
			reads = append(reads, readDoc{Resource: s.Resource, Sensitivity: sens})
		}
	}
	if len(reads) > 0 {
		d.DataBoundary = &boundaryDoc{Reads: reads}
	}
	for _, ac := range a.Actions {
		d.Actions = append(d.Actions, a.action(ac))
	}
	d.Smoke, errs = a.smoke(errs)
	d.KillSwitch = a.killSwitch()
	errs = append(errs, d.KillSwitch.problems()...)
	return d, errs
}

func (a *ToolAnswers) action(ac ActionAnswer) actionDoc {
	input := inputSchema{Type: "object", Properties: map[string]map[string]any{}, Required: ac.Inputs}
	argv := []string{ac.Name}
	for _, in := range ac.Inputs {
		input.Properties[in] = map[string]any{"type": "string"}
		argv = append(argv, "--"+strings.ReplaceAll(in, "_", "-"), "${input."+in+"}")
	}
	var inv any = struct {
		Kind         string   `json:"kind"`
		ArgvTemplate []string `json:"argv_template"`
	}{"subcommand", argv}
	if isMCP(a.Runtime.Kind) {
		inv = struct {
			Kind     string `json:"kind"`
			ToolName string `json:"tool_name"`
		}{"mcp-tool", ac.Name}
	}
	return actionDoc{Name: ac.Name, Summary: ac.Summary, Invocation: inv, Input: input,
		Output: map[string]any{"format": "json"}, SideEffects: ac.SideEffects,
		Idempotent: ac.SideEffects == "none" || ac.SideEffects == "read", ScopesUsed: ac.ScopesUsed}
}

// SafeAction is the first action without side effects (none or read),
// the one a smoke test may call on every install; "" when there is none.
func (a ToolAnswers) SafeAction() string {
	for _, ac := range a.Actions {
		if ac.SideEffects == "none" || ac.SideEffects == "read" {
			return ac.Name
		}
	}
	return ""
}

// smoke derives the smoke test (SmokeAnswers documents the choice). A call
// without a target calls the first action without side effects of the
// current answers; none is a problem when a call was chosen, and makes the
// derived test a shell one (the entrypoint's --help) otherwise: a smoke
// test never calls an action that changes anything.
func (a *ToolAnswers) smoke(errs FieldErrors) (smokeDoc, FieldErrors) {
	kind, target := a.Smoke.Kind, a.Smoke.Target
	safe := a.SafeAction()
	if kind == Derived {
		switch {
		case safe != "" && isMCP(a.Runtime.Kind):
			kind, target = "mcp-tool-call", safe
		case safe != "":
			kind, target = "action-call", safe
		case isMCP(a.Runtime.Kind) || len(a.Runtime.Command) > 0:
			kind = "shell"
		default:
			kind = "action-call" // nothing to run: the problem below
		}
	}
	ok := map[string]any{"no_error_field": true}
	switch kind {
	case "shell":
		cmd := strings.Fields(target)
		if len(cmd) == 0 {
			cmd = append(append([]string{}, a.Runtime.Command...), "--help")
			if len(a.Runtime.Command) == 0 {
				cmd = []string{"true"}
			}
		}
		return smokeDoc{Kind: kind, Command: cmd, Success: map[string]any{"exit_code": 0}}, errs
	case "http":
		if target == "" {
			target = a.Runtime.EndpointURL
		}
		if target == "" {
			target = a.Tool.Homepage
		}
		return smokeDoc{Kind: kind, URL: target, Success: map[string]any{"http_status": 200}}, errs
	}
	if target == "" {
		target = safe
	}
	if target == "" {
		errs = append(errs, FieldError{Field: "smoke.kind", Pointer: "/smoke",
			Message: "no action without side effects for the install smoke test to call",
			Hint:    "add an action whose side effects are none or read, or let the smoke test follow from the answers (smoke.kind empty)"})
	}
	if kind == "mcp-tool-call" {
		return smokeDoc{Kind: kind, ToolName: target, Arguments: a.smokeArgs(target), Success: ok}, errs
	}
	return smokeDoc{Kind: kind, Action: target, Arguments: a.smokeArgs(target), Success: ok}, errs
}

// SmokeTest says in words what the smoke test of the current answers does
// ("call the MCP tool hello (no side effects)", "run python -m my_tool
// --help"), and whether it can be written.
func (a ToolAnswers) SmokeTest() (string, bool) {
	a.Normalize()
	d, errs := a.smoke(nil)
	switch {
	case len(errs) > 0:
		return "no action without side effects to call", false
	case d.Kind == "shell":
		return "run " + strings.Join(d.Command, " "), true
	case d.Kind == "http":
		return "GET " + d.URL, true
	case d.ToolName != "":
		return "call the MCP tool " + d.ToolName + " (no side effects)", true
	}
	return "call the action " + d.Action + " (no side effects)", true
}

// smokeArgs gives every input of the named action a harmless value, so
// that the smoke call is complete.
func (a *ToolAnswers) smokeArgs(action string) map[string]string {
	for _, ac := range a.Actions {
		if ac.Name == action && len(ac.Inputs) > 0 {
			args := map[string]string{}
			for _, in := range ac.Inputs {
				args[in] = "smoke-test"
			}
			return args
		}
	}
	return nil
}

// killSwitch derives an honest kill switch: "none" only when the tool
// holds no credentials and persists nothing.
func (a *ToolAnswers) killSwitch() killSwitchDoc {
	k := a.KillSwitch
	instructions := k.Instructions
	if instructions == "" {
		instructions = "Remove " + a.Tool.ID + " from the agent's tools and uninstall it."
		var names []string
		for _, e := range a.Env {
			names = append(names, e.Name)
		}
		if len(names) > 0 {
			instructions += " Then revoke or rotate the credentials it was given (" + strings.Join(names, ", ") + ") where they were issued."
		}
	}
	switch k.Kind {
	case "":
		if len(a.Env) == 0 {
			return killSwitchDoc{Kind: "none"}
		}
		return killSwitchDoc{Kind: "manual", Instructions: instructions}
	case "url":
		return killSwitchDoc{Kind: "url", URL: strings.TrimSpace(k.URL)}
	case "shell":
		return killSwitchDoc{Kind: "shell", Command: strings.Fields(k.Command)}
	case "manual":
		return killSwitchDoc{Kind: "manual", Instructions: instructions}
	}
	return killSwitchDoc{Kind: k.Kind}
}

// problems are what makes a kill switch point nowhere: a url one without
// its address (or with a placeholder's), a shell one without its command.
// Such a manifest would look safe and stop nothing, so it is refused.
func (k killSwitchDoc) problems() FieldErrors {
	switch {
	case k.Kind == "url" && k.URL == "":
		return FieldErrors{{Field: "killSwitch.url", Pointer: "/kill_switch/url",
			Message: "a url kill switch needs the address that stops the tool",
			Hint:    "set killSwitch.url to where the owner revokes it (https://…), or choose another kind of kill switch"}}
	case k.Kind == "url" && IsPlaceholderURL(k.URL):
		return FieldErrors{{Field: "killSwitch.url", Pointer: "/kill_switch/url",
			Message: "the kill switch's address " + k.URL + " is a placeholder, which stops nothing",
			Hint:    "set killSwitch.url to where the owner revokes the tool, or choose another kind of kill switch"}}
	case k.Kind == "shell" && len(k.Command) == 0:
		return FieldErrors{{Field: "killSwitch.command", Pointer: "/kill_switch/command",
			Message: "a shell kill switch needs the command that stops the tool",
			Hint:    "set killSwitch.command to the command, words separated by spaces (e.g. acme-tool revoke), or choose another kind of kill switch"}}
	}
	return nil
}

// IsPlaceholderURL reports whether u points at a host kept for examples
// (example.com, example.org, example.net, or a name under .example): a
// value to replace, never a real place.
func IsPlaceholderURL(u string) bool { return placeholder.IsExampleURL(u) }

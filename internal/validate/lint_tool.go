package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// placeholder matches ${...} template placeholders.
var placeholder = lazyre.New(`\$\{([^}]*)\}`)

// splitPlaceholder splits "env.NAME" into namespace and name; for input
// paths ("input.a.b", "input.a[0]") name is the top-level property.
func splitPlaceholder(inner string) (ns, name string) {
	ns, rest, ok := strings.Cut(strings.TrimSpace(inner), ".")
	if !ok {
		return "", inner
	}
	if i := strings.IndexAny(rest, ".["); i >= 0 {
		rest = rest[:i]
	}
	return ns, rest
}

// eachString calls fn for every string value below ptr.
func eachString(ptr string, n *jsondoc.Node, fn func(ptr, s string)) {
	switch n.Kind {
	case jsondoc.String:
		fn(ptr, n.Str)
	case jsondoc.Object:
		for _, m := range n.Members {
			eachString(jsondoc.Child(ptr, m.Key), m.Value, fn)
		}
	case jsondoc.Array:
		for i, it := range n.Items {
			eachString(jsondoc.Index(ptr, i), it, fn)
		}
	}
}

// envNames returns the declared env var names, and those marked secret.
func (c *lintCtx) envNames() (all, secret map[string]bool, list []string) {
	all, secret = map[string]bool{}, map[string]bool{}
	for _, e := range c.items("/env") {
		name := e.n.Get("name").Text()
		if name == "" {
			continue
		}
		if !all[name] {
			list = append(list, name)
		}
		all[name] = true
		if s := e.n.Get("secret"); s != nil && s.Kind == jsondoc.Bool && s.Bool {
			secret[name] = true
		}
	}
	sort.Strings(list)
	return all, secret, list
}

func checkScopesUsed(c *lintCtx) {
	declared := map[string]bool{}
	var list []string
	for _, s := range c.items("/scopes") {
		if r := s.n.Get("resource").Text(); r != "" && !declared[r] {
			declared[r] = true
			list = append(list, r)
		}
	}
	for _, a := range c.items("/actions") {
		for _, u := range childItems(a, "scopes_used") {
			if u.n.Kind != jsondoc.String || declared[u.n.Str] {
				continue
			}
			hint := fmt.Sprintf("declare a scope with \"resource\": %q in scopes[], with its actions and rationale", u.n.Str)
			if len(list) > 0 {
				hint += ", or use one of " + quoteList(list, 5)
			}
			c.report(u.ptr(), false, fmt.Sprintf("action %q uses scope %q, which scopes[] does not declare", a.n.Get("name").Text(), u.n.Str), hint)
		}
	}
}

func checkSmokeAction(c *lintCtx) {
	if c.doc.Lookup("/smoke/kind").Text() != "action-call" {
		return
	}
	name := c.doc.Lookup("/smoke/action").Text()
	if name == "" {
		return // the schema reports it
	}
	var names []string
	for _, a := range c.items("/actions") {
		n := a.n.Get("name").Text()
		names = append(names, n)
		if n != name {
			continue
		}
		if se := a.n.Get("side_effects").Text(); se != "none" && se != "read" && se != "" {
			c.report("/smoke/action", false, fmt.Sprintf("the smoke test calls action %q, whose side_effects is %q: a smoke test runs on every install and must not change anything", name, se),
				"smoke-test an action whose side_effects is \"none\" or \"read\", or use a shell or http smoke test")
		}
		return
	}
	hint := "declare the action in actions[], or name a declared one"
	if len(names) > 0 {
		hint = "name one of the declared actions: " + quoteList(names, 5)
	}
	c.report("/smoke/action", false, fmt.Sprintf("the smoke test calls action %q, which actions[] does not declare", name), hint)
}

// argvArrays returns the pointers of every argument vector of a tool
// manifest: what ends up in a process list.
func (c *lintCtx) argvArrays() []string {
	ptrs := []string{"/runtime/entrypoint/command", "/smoke/command", "/kill_switch/command"}
	for _, a := range c.items("/actions") {
		ptrs = append(ptrs, a.ptr()+"/invocation/argv_template")
	}
	return ptrs
}

func checkSecretArgv(c *lintCtx) {
	_, secret, _ := c.envNames()
	if len(secret) == 0 {
		return
	}
	for _, ptr := range c.argvArrays() {
		for _, it := range c.items(ptr) {
			for _, m := range placeholder.FindAllStringSubmatch(it.n.Text(), -1) {
				if ns, name := splitPlaceholder(m[1]); (ns == "env" || ns == "") && secret[name] {
					c.report(it.ptr(), false, fmt.Sprintf("secret env var %s is passed on the command line (%s): any user of the machine can read process lists", name, m[0]),
						fmt.Sprintf("remove %s from the arguments: the tool receives %s in its environment and should read it there", m[0], name))
				}
			}
		}
	}
}

func checkPlaceholders(c *lintCtx) {
	declared, _, list := c.envNames()
	actionOf := func(ptr string) *jsondoc.Node {
		toks := jsondoc.SplitPointer(ptr)
		if len(toks) >= 2 && toks[0] == "actions" {
			return c.doc.Lookup("/actions/" + toks[1])
		}
		return nil
	}
	eachString("", c.doc.Root, func(ptr, s string) {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			ns, name := splitPlaceholder(m[1])
			switch ns {
			case "env":
				if !declared[name] {
					hint := fmt.Sprintf("declare %s in env[] with a prompt and secret flag", name)
					if len(list) > 0 {
						hint += ", or use one of " + quoteList(list, 5)
					}
					c.report(ptr, false, fmt.Sprintf("%s names env var %s, which env[] does not declare", m[0], name), hint)
				}
			case "input":
				act := actionOf(ptr)
				if act == nil {
					c.report(ptr, false, fmt.Sprintf("%s is outside any action, so there is no input to take %q from", m[0], name),
						"use ${input.x} only inside an action's invocation")
					continue
				}
				props := act.Get("input").Get("properties")
				if props.Get(name) == nil {
					c.report(ptr, false, fmt.Sprintf("%s names %q, which is not a property of action %q's input schema", m[0], name, act.Get("name").Text()),
						fmt.Sprintf("add %q to the action's input.properties, or fix the placeholder", name))
				}
			}
		}
	})
}

// checkPlaceholderNamespaces warns about placeholders that are neither
// ${env.X} nor ${input.x}. A bare ${NAME} of a declared env var is
// accepted: real manifests use it in smoke success matchers.
func checkPlaceholderNamespaces(c *lintCtx) {
	declared, _, _ := c.envNames()
	eachString("", c.doc.Root, func(ptr, s string) {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			ns, name := splitPlaceholder(m[1])
			if ns != "env" && ns != "input" && !(ns == "" && declared[name]) {
				c.report(ptr, false, fmt.Sprintf("placeholder %s is neither ${env.NAME} nor ${input.name}: it will not be expanded", m[0]),
					"write ${env.NAME} for a declared env var or ${input.name} for an action input")
			}
		}
	})
}

func checkCaseCount(c *lintCtx) {
	ref := c.doc.Lookup("/verify/suite/ref").Text()
	count := c.doc.Lookup("/verify/suite/case_count")
	if ref == "" || count == nil || count.Kind != jsondoc.Number || urlScheme.MatchString(ref) {
		return
	}
	p, ok := refPath(ref)
	if !ok {
		return
	}
	fi, err := fs.Stat(c.fsys, p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFileSize {
		return // only checked when the file is present
	}
	data, err := fs.ReadFile(c.fsys, p)
	if err != nil {
		return
	}
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			n++
		}
	}
	if want, err := strconv.ParseFloat(count.Str, 64); err == nil && want != float64(n) {
		c.reportFix("/verify/suite/case_count", false, fmt.Sprintf("case_count is %s but %s has %d case(s) (non-blank lines)", count.Str, ref, n),
			fmt.Sprintf("set case_count to %d, or add the missing cases to %s", n, ref),
			setFix(fmt.Sprintf("Set case_count to %d", n), "/verify/suite/case_count", json.Number(strconv.Itoa(n))))
	}
}

func checkToolNamesUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/env"), "name", "env var", "declare each env var once")
	c.uniqueStrings(c.items("/actions"), "name", "action name", "give each action its own name")
	c.uniqueStrings(c.items("/scopes"), "resource", "scope resource", "declare each resource once and list all its actions there")
}

// checkSmokeArguments reports an action-call smoke test whose arguments the
// action's input schema refuses: a required property missing, or one the
// schema closes out with additionalProperties: false.
func checkSmokeArguments(c *lintCtx) {
	if c.doc.Lookup("/smoke/kind").Text() != "action-call" {
		return
	}
	name := c.doc.Lookup("/smoke/action").Text()
	var input *jsondoc.Node
	for _, a := range c.items("/actions") {
		if a.n.Get("name").Text() == name {
			input = a.n.Get("input")
		}
	}
	if input == nil || input.Kind != jsondoc.Object {
		return
	}
	args := c.doc.Lookup("/smoke/arguments")
	argsPtr := "/smoke/arguments"
	if args == nil {
		argsPtr = "/smoke"
	}
	var required []*jsondoc.Node
	if req := input.Get("required"); req != nil && req.Kind == jsondoc.Array {
		required = req.Items
	}
	for _, r := range required {
		if r.Kind == jsondoc.String && args.Get(r.Str) == nil {
			c.report(argsPtr, false, fmt.Sprintf("the smoke test calls %q without its required input %q", name, r.Str),
				fmt.Sprintf("add %q to smoke.arguments with a harmless value", r.Str))
		}
	}
	if ap := input.Get("additionalProperties"); args == nil || args.Kind != jsondoc.Object || ap == nil || ap.Kind != jsondoc.Bool || ap.Bool {
		return
	}
	props := input.Get("properties")
	for _, m := range args.Members {
		if props.Get(m.Key) == nil {
			c.report(jsondoc.Child(argsPtr, m.Key), true, fmt.Sprintf("the smoke test passes %q, which action %q's input does not accept (additionalProperties is false)", m.Key, name),
				"remove the argument, or add it to the action's input.properties")
		}
	}
}

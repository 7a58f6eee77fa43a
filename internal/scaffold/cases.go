package scaffold

import (
	"errors"
	"io/fs"
	"strings"
)

// The stored case `wopkit test` runs for each JavaScript node wopkit
// scaffolds: tests/<node>/sample.json, the template's own behaviour (every
// output is the first input upper-cased) on the input "hello". tests/ is
// never packed (the runtime's .openwopignore lines say so).

// caseDoc is one stored case.
type caseDoc struct {
	Name   string         `json:"name"`
	Input  map[string]any `json:"input"`
	Expect caseExpect     `json:"expect"`
}

type caseExpect struct {
	Outputs map[string]any `json:"outputs"`
}

// addCases adds a passing case per node when the runtime is JavaScript
// (the one `wopkit test` runs).
func addCases(p *Plan, rs *RuntimeSpec, nodes []nodeView) error {
	if rs == nil || rs.Language != "javascript" {
		return nil
	}
	for _, n := range nodes {
		c := caseDoc{Name: "the template upper-cases its first input", Input: map[string]any{}, Expect: caseExpect{Outputs: map[string]any{}}}
		for _, in := range n.Inputs {
			c.Input[in] = "hello"
		}
		up := ""
		if len(n.Inputs) > 0 {
			up = strings.ToUpper("hello")
		}
		for _, out := range n.Outputs {
			c.Expect.Outputs[out] = up
		}
		if err := p.addJSON("tests/"+n.Suffix+"/sample.json", c); err != nil {
			return err
		}
	}
	return nil
}

// ignoreTests adds "tests/" to the pack's .openwopignore (made if absent)
// when no line of it names tests/ already: a stored case may hold secrets,
// and the registry ships none.
func ignoreTests(p *Plan, fsys fs.FS) {
	old, err := fs.ReadFile(fsys, ".openwopignore")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	for _, l := range strings.Split(string(old), "\n") {
		if l = strings.TrimSpace(l); l == "tests/" || l == "tests" || l == "/tests/" || l == "/tests" {
			return
		}
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "# wopkit test's stored cases (never packed: they may hold secrets)\ntests/\n"
	f := File{Path: ".openwopignore", Data: []byte(text), Mode: 0o644}
	if err == nil {
		f.Update, f.Base = true, old
	}
	p.Files = append(p.Files, f)
}

package run

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// TestCase is one stored case: tests/<node>/<file>.json, <node> being the
// node's typeId or its last segment.
type TestCase struct {
	Node   Node
	File   string // slash path in the pack
	Name   string
	Input  json.RawMessage
	Config json.RawMessage
	Mocks  json.RawMessage
	Secret json.RawMessage
	Expect Expect
}

// Expect is what a case requires: exactly one member is set.
type Expect struct {
	Outputs      json.RawMessage `json:"outputs"`
	OutputsMatch json.RawMessage `json:"outputsMatch"`
	Error        *struct {
		Code string `json:"code"`
	} `json:"error"`
	Suspended *struct {
		Kind string `json:"kind"`
	} `json:"suspended"`
}

// CaseResult is one case of `wopkit test --json`.
type CaseResult struct {
	Node   string     `json:"node"`
	Name   string     `json:"name"`
	File   string     `json:"file"`
	Passed bool       `json:"passed"`
	Status string     `json:"status"`
	Error  *CallError `json:"error"`
	Diff   *string    `json:"diff"`
	Report *Report    `json:"-"`
}

// TestReport is `wopkit test --json`.
type TestReport struct {
	Passed bool         `json:"passed"`
	Cases  []CaseResult `json:"cases"`
}

// LoadCases reads the stored cases of the nodes named (all when none),
// sorted by node, then file.
func LoadCases(p *Pack, names []string) ([]TestCase, error) {
	var nodes []Node
	if len(names) == 0 {
		nodes = p.Nodes
	}
	for _, name := range names {
		n, err := p.Find(name)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	d, err := untrusted.OpenDir(p.Dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var out []TestCase
	for _, n := range nodes {
		for _, folder := range []string{n.TypeID, n.Short()} {
			ents, err := d.ReadDir(path.Join("tests", folder))
			if err != nil {
				continue
			}
			sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
			for _, e := range ents {
				if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
					continue
				}
				c, err := readCase(d, n, path.Join("tests", folder, e.Name()))
				if err != nil {
					return nil, err
				}
				out = append(out, c)
			}
			if folder == n.Short() {
				break
			}
		}
	}
	return out, nil
}

func readCase(d *untrusted.Dir, n Node, file string) (TestCase, error) {
	var raw struct {
		Name    string          `json:"name"`
		Input   json.RawMessage `json:"input"`
		Config  json.RawMessage `json:"config"`
		Mocks   json.RawMessage `json:"mocks"`
		Secrets json.RawMessage `json:"secrets"`
		Expect  *Expect         `json:"expect"`
	}
	if err := d.ReadJSON(file, maxFile, &raw); err != nil {
		return TestCase{}, err
	}
	c := TestCase{Node: n, File: file, Name: raw.Name, Input: raw.Input, Config: raw.Config, Mocks: raw.Mocks, Secret: raw.Secrets}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(path.Base(file), ".json")
	}
	set := 0
	if raw.Expect != nil {
		e := raw.Expect
		for _, ok := range []bool{e.Outputs != nil, e.OutputsMatch != nil, e.Error != nil, e.Suspended != nil} {
			if ok {
				set++
			}
		}
		c.Expect = *e
	}
	if set != 1 {
		return TestCase{}, werr.New(werr.Invalid, "test_case_invalid", "%s: expect must have exactly one of outputs, outputsMatch, error, suspended", file).
			WithHint(`write e.g. {"input": {…}, "expect": {"outputs": {…}}}`)
	}
	return c, nil
}

// RunCases runs the cases on one Host (one node process for them all).
func RunCases(ctx context.Context, h Caller, p *Pack, cases []TestCase) (*TestReport, error) {
	tr := &TestReport{Passed: true, Cases: []CaseResult{}}
	for _, c := range cases {
		in := Input{ConfigName: c.File + "#/config", InputName: c.File + "#/input", MocksName: c.File + "#/mocks", SecretsName: c.File + "#/secrets"}
		if c.Input != nil {
			in.Input = c.Input
		}
		if c.Config != nil {
			in.Config = c.Config
		}
		if c.Mocks != nil {
			in.Mocks = c.Mocks
		}
		if c.Secret != nil {
			in.Secrets = c.Secret
		}
		cr := CaseResult{Node: c.Node.TypeID, Name: c.Name, File: c.File}
		pr, err := Prepare(p, c.Node, in)
		var r *Report
		if err == nil {
			r, err = Execute(ctx, h, p, c.Node, pr)
		}
		if err != nil {
			if cls, ok := werr.ClassOf(err); ok && cls == werr.Env {
				return nil, err
			}
			r = &Report{Status: "failure", Error: &CallError{Code: werr.CodeOf(err), Message: err.Error()}}
		}
		cr.Report, cr.Status, cr.Error = r, r.Status, r.Error
		cr.Passed, cr.Diff = judge(c.Expect, r)
		if !cr.Passed {
			tr.Passed = false
		}
		tr.Cases = append(tr.Cases, cr)
	}
	return tr, nil
}

// judge compares a report with the case's expectation; the diff says how
// they differ.
func judge(e Expect, r *Report) (bool, *string) {
	diff := func(want, got any) *string {
		s := Diff(pretty(want), pretty(got))
		return &s
	}
	actual := func() any {
		switch r.Status {
		case "success":
			var v any
			untrusted.DecodeJSON(r.Outputs, &v)
			return map[string]any{"outputs": v}
		case "suspended":
			return map[string]any{"suspended": r.Interrupt}
		}
		return map[string]any{"error": r.Error}
	}
	switch {
	case e.Outputs != nil || e.OutputsMatch != nil:
		var want any
		raw, key := e.Outputs, "outputs"
		if raw == nil {
			raw, key = e.OutputsMatch, "outputsMatch"
		}
		untrusted.DecodeJSON(raw, &want)
		if r.Status != "success" {
			return false, diff(map[string]any{key: want}, actual())
		}
		var got any
		untrusted.DecodeJSON(r.Outputs, &got)
		ok := reflect.DeepEqual(want, got)
		if key == "outputsMatch" {
			ok = subset(want, got)
		}
		if ok {
			return true, nil
		}
		return false, diff(map[string]any{"outputs": want}, map[string]any{"outputs": got})
	case e.Error != nil:
		if r.Status == "failure" && r.Error != nil && r.Error.Code == e.Error.Code {
			return true, nil
		}
		return false, diff(map[string]any{"error": map[string]any{"code": e.Error.Code}}, actual())
	case e.Suspended != nil:
		if r.Status == "suspended" && (e.Suspended.Kind == "" || r.Interrupt != nil && r.Interrupt.Kind == e.Suspended.Kind) {
			return true, nil
		}
		return false, diff(map[string]any{"suspended": map[string]any{"kind": e.Suspended.Kind}}, actual())
	}
	return false, nil
}

// subset reports whether want is got with members left out (objects:
// every member of want matches; arrays: same length, item by item).
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok || !subset(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !subset(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func pretty(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Diff is a line diff of want against got: "- " lines only in want, "+ "
// lines only in got, "  " lines in both.
func Diff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(a)*len(b) > 4_000_000 { // too large for the table: whole blocks
		return "- " + strings.Join(a, "\n- ") + "\n+ " + strings.Join(b, "\n+ ")
	}
	// Longest common subsequence, table from the end.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var sb strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			sb.WriteString("  " + a[i] + "\n")
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			sb.WriteString("- " + a[i] + "\n")
			i++
		default:
			sb.WriteString("+ " + b[j] + "\n")
			j++
		}
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

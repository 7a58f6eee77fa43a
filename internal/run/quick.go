package run

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openwop/wopkit/internal/untrusted"
)

// HasCases reports whether dir is a node pack wopkit runs (JavaScript or
// wasm) with stored cases (what the wizard and the editor offer to run).
func HasCases(dir string) bool {
	p, err := LoadPack(dir)
	if err != nil || p.CheckRuntime() != nil {
		return false
	}
	for _, n := range p.Nodes {
		for _, f := range []string{n.Short(), n.TypeID} {
			if m, _ := filepath.Glob(filepath.Join(dir, "tests", f, "*.json")); len(m) > 0 {
				return true
			}
		}
	}
	return false
}

// TestPack runs the stored cases of the nodes named (all when none) of the
// pack in dir with the default limits: the wizard's and the editor's run.
func TestPack(ctx context.Context, dir string, names []string) (*TestReport, error) {
	p, err := LoadPack(dir)
	if err != nil {
		return nil, err
	}
	if err := p.CheckRuntime(); err != nil {
		return nil, err
	}
	cases, err := LoadCases(p, names)
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return &TestReport{Passed: true, Cases: []CaseResult{}}, nil
	}
	h, err := NewCaller(HostOptions{Dir: dir, Entry: p.Entry, Notice: os.Stderr}, p)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return RunCases(ctx, h, p, cases)
}

// Lines says a test report in words, one line per case (each node's
// outputs, or its failure), then the count: for the wizard's summary and
// the editor's side panel. Callers escape them for the terminal.
func (tr *TestReport) Lines() []string {
	var out []string
	failed := 0
	for _, c := range tr.Cases {
		switch {
		case c.Passed && c.Report != nil && c.Report.Status == "success":
			out = append(out, fmt.Sprintf("pass %s %s: outputs %s", c.Node, c.Name, clipText(compact(c.Report.Outputs), 160)))
		case c.Passed:
			out = append(out, fmt.Sprintf("pass %s %s: %s", c.Node, c.Name, c.Status))
		default:
			failed++
			why := "its result differs from the expected one"
			if c.Error != nil && c.Status == "failure" {
				why = c.Error.Code + ": " + c.Error.Message
			}
			out = append(out, fmt.Sprintf("FAIL %s %s: %s", c.Node, c.Name, clipText(why, 200)))
		}
	}
	switch {
	case len(tr.Cases) == 0:
		out = append(out, "no stored cases (tests/<node>/*.json)")
	case failed == 0:
		out = append(out, fmt.Sprintf("%d passed", len(tr.Cases)))
	default:
		out = append(out, fmt.Sprintf("%d failed, %d passed (wopkit test shows the diffs)", failed, len(tr.Cases)-failed))
	}
	return out
}

// compact is a node's outputs on one line (the pack's code wrote them, so
// they are decoded through the untrusted layer; as given when refused).
func compact(raw json.RawMessage) string {
	var v any
	if untrusted.DecodeJSON(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/packref"
)

// checkEvalSuiteRef validates each agent's eval suite as a document of its
// own (its problems go to its own report) and cross-checks it with the agent.
func checkEvalSuiteRef(c *lintCtx) {
	validated := map[string]bool{}
	for _, a := range c.agents() {
		ref := a.n.Get("evalSuiteRef")
		if ref == nil || ref.Kind != jsondoc.String || urlScheme.MatchString(ref.Str) {
			continue
		}
		p, err := packref.Path(ref.Str)
		if err != nil || p == "" {
			continue // OW005 or OW016 reports it
		}
		f := c.readPackFile(p)
		if f.state != fileOK {
			continue // OW005 reports it
		}
		ptr := a.ptr() + "/evalSuiteRef"
		if !validated[p] {
			validated[p] = true
			fr := c.v.file(c.displayRef(p), f.data, kinds.EvalSuite, c.spec)
			c.files = append(c.files, fr)
			if n := len(fr.Errors); n > 0 {
				c.report(ptr, false, fmt.Sprintf("eval suite %q is not a valid eval suite: %d error(s), listed under %s", ref.Str, n, fr.Path),
					"fix the eval suite file; `wopkit validate "+fr.Path+"` checks it alone")
			}
		}
		doc, err := f.json()
		if err != nil || doc.Root.Kind != jsondoc.Object {
			continue
		}
		c.crossCheckSuite(a, ptr, ref.Str, p, doc)
	}
}

// crossCheckSuite reports a suite whose targetAgentId or allowedModels do
// not fit the agent a, with the fix that edits the suite file (at path p
// in the pack).
func (c *lintCtx) crossCheckSuite(a at, ptr, ref, p string, suite *jsondoc.Doc) {
	id := a.n.Get("agentId").Text()
	if t := suite.Root.Get("targetAgentId"); t != nil && t.Kind == jsondoc.String && id != "" && t.Str != id {
		line, _ := suite.Position(t.Start)
		fix := setFix(fmt.Sprintf("Set targetAgentId in %s to %q", p, id), "/targetAgentId", id)
		fix.File = p
		c.reportFix(ptr, false, fmt.Sprintf("eval suite %q targets agent %q (its line %d), not this agent %q", ref, t.Str, line, id),
			fmt.Sprintf("set targetAgentId in %s to %q, or point evalSuiteRef at this agent's suite", ref, id), fix)
	}
	mc := a.n.Get("modelClass").Text()
	allowed := suite.Root.Get("allowedModels")
	if mc == "" || allowed == nil || allowed.Kind != jsondoc.Array {
		return
	}
	for _, m := range allowed.Items {
		if m.Text() == mc {
			return
		}
	}
	line, _ := suite.Position(allowed.Start)
	fix := &Fix{Title: fmt.Sprintf("Add %q to allowedModels in %s", mc, p), Edits: []Edit{{Pointer: "/allowedModels", Value: mc, Append: true}}, File: p}
	c.reportFix(ptr, false, fmt.Sprintf("eval suite %q allows models %s (its line %d), which do not include this agent's modelClass %q", ref, allowedList(allowed), line, mc),
		fmt.Sprintf("add %q to allowedModels in %s, or change the agent's modelClass", mc, ref), fix)
}

func allowedList(n *jsondoc.Node) string {
	var names []string
	for _, m := range n.Items {
		names = append(names, m.Text())
	}
	if len(names) == 0 {
		return "[]"
	}
	return quoteList(names, 6)
}

func checkTaskIDsUnique(c *lintCtx) {
	c.uniqueStrings(c.items("/tasks"), "taskId", "taskId",
		"give each task its own taskId: results are keyed by it")
}

func checkExpectedShape(c *lintCtx) {
	for _, t := range c.items("/tasks") {
		exp := t.n.Get("expected")
		kind := exp.Get("kind").Text()
		id := t.n.Get("taskId").Text()
		ptr := t.ptr() + "/expected/kind"
		switch {
		case kind == "golden" && exp.Get("match") == nil:
			c.report(ptr, false, fmt.Sprintf("task %q is a golden task without expected.match", id),
				`add "match": {"strategy": "exact", "value": ...}, or make it a rubric task`)
		case kind == "rubric" && exp.Get("rubric") == nil:
			c.report(ptr, false, fmt.Sprintf("task %q is a rubric task without expected.rubric", id),
				`add "rubric": [{"criterion": "...", "weight": 1.0}], or make it a golden task`)
		}
	}
}

func checkRubricWeights(c *lintCtx) {
tasks:
	for _, t := range c.items("/tasks") {
		ptr := t.ptr() + "/expected/rubric"
		items := c.items(ptr)
		if len(items) == 0 {
			continue
		}
		sum, negative := 0.0, false
		ws := make([]float64, len(items))
		for i, it := range items {
			w := it.n.Get("weight")
			if w == nil || w.Kind != jsondoc.Number {
				continue tasks // the schema reports it
			}
			f, err := strconv.ParseFloat(w.Str, 64)
			if err != nil {
				continue tasks
			}
			ws[i], sum, negative = f, sum+f, negative || f < 0
		}
		if math.Abs(sum-1) > 1e-9 {
			// The fix divides each weight by their sum (none for a
			// negative weight or a sum that is not positive).
			var fix *Fix
			if !negative && sum > 0 {
				fix = &Fix{Title: "Scale the weights to add up to 1.0"}
				for i, f := range ws {
					fix.Edits = append(fix.Edits, Edit{Pointer: ptr + "/" + strconv.Itoa(i) + "/weight", Value: json.Number(strconv.FormatFloat(f/sum, 'g', 12, 64))})
				}
			}
			c.reportFix(ptr, false, fmt.Sprintf("the rubric weights of task %q sum to %s, not 1.0", t.n.Get("taskId").Text(), strconv.FormatFloat(sum, 'g', 12, 64)),
				"scale the weights so that they add up to 1.0", fix)
		}
	}
}

func checkToolResponses(c *lintCtx) {
	for _, t := range c.items("/tasks") {
		fx := t.n.Get("fixtures")
		if fx == nil {
			continue
		}
		for _, r := range childItems(at{t.ptr() + "/fixtures", -1, fx}, "toolResponses") {
			tool := r.n.Get("tool")
			if tool == nil || tool.Kind != jsondoc.String || tool.Str == "" || toolRefPattern.MatchString(tool.Str) {
				continue
			}
			c.report(r.ptr()+"/tool", false, fmt.Sprintf("fixture tool %q is not of the form <scope>:<tool-id>", tool.Str), toolRefHint)
		}
	}
}

package scaffold

import "testing"

// BenchmarkPlanPack measures one full plan of a mixed pack with an eval
// suite, including strict validation of every generated file: the cost of
// the wizard's review screen after each change.
func BenchmarkPlanPack(b *testing.B) {
	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.hello"
	ag := AgentAnswers{}.Defaults()
	ev := EvalAnswers{}.Defaults()
	ag.Eval = &ev
	a.Agents = []AgentAnswers{ag}
	if _, err := PlanPack(a, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PlanPack(a, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanTool measures one plan of a tool manifest with validation.
func BenchmarkPlanTool(b *testing.B) {
	a := ToolAnswers{}.Defaults()
	if _, err := PlanTool(a, "", nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PlanTool(a, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

package create

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// TestSummaryShowsChainExpansion: the summary after a workflow-chain pack
// is written (the wizard's last screen) shows each chain expanded with its
// default parameters; another pack's summary does not.
func TestSummaryShowsChainExpansion(t *testing.T) {
	t.Parallel()
	a := scaffold.ChainPackAnswers{}.Defaults()
	a.Name = "vendor.acme.chains"
	plan, err := scaffold.PlanChainPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{Plan: plan, Dir: t.TempDir(), PackLater: true})
	if err != nil {
		t.Fatal(err)
	}
	sum := strings.Join(res.Summary(), "\n")
	for _, want := range []string{"the expansion a host splices when an editor drops the chain", "expanded as preview:", "_preview_"} {
		if !strings.Contains(sum, want) {
			t.Errorf("the summary lacks %q:\n%s", want, sum)
		}
	}
	res, err = Run(context.Background(), Options{Plan: packPlan(t, "vendor.acme.nodes"), Dir: t.TempDir(), PackLater: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum := strings.Join(res.Summary(), "\n"); strings.Contains(sum, "expanded as preview") {
		t.Errorf("a node pack's summary shows an expansion:\n%s", sum)
	}
}

// TestSummaryNamesTheEvalCommand: the summary after a pack whose agent has
// an eval suite (the wizard's last screen) says how to run the suite.
func TestSummaryNamesTheEvalCommand(t *testing.T) {
	t.Parallel()
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = "vendor.acme.hello"
	ag := scaffold.AgentAnswers{}.Defaults()
	e := scaffold.EvalAnswers{}.Defaults()
	ag.Eval = &e
	a.Agents = []scaffold.AgentAnswers{ag}
	plan, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), Options{Plan: plan, Dir: dir, PackLater: true})
	if err != nil {
		t.Fatal(err)
	}
	sum := strings.Join(res.Summary(), "\n")
	if !strings.Contains(sum, "run the eval suite with: wopkit eval "+filepath.ToSlash(dir)+" vendor.acme.hello."+ag.ID+" --model echo") {
		t.Errorf("the summary does not name the eval command:\n%s", sum)
	}
}

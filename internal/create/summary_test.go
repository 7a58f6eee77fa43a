package create

import (
	"context"
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

package scaffold

import (
	"strings"
	"testing"
)

// writeChainPack writes the default chain pack into a temporary directory
// and opens it.
func writeChainPack(t *testing.T) *PackSource {
	t.Helper()
	a := ChainPackAnswers{}.Defaults()
	a.Name = "vendor.acme.chains"
	dir := t.TempDir()
	if err := planChain(t, a).Write(dir, false); err != nil {
		t.Fatal(err)
	}
	src, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestPlanChain: a chain added to a chain pack is appended to chains[]
// with the rest of pack.json unchanged, and the pack stays strictly valid;
// a repeated id, a node pack and answers the WC rules refuse are refused
// naming the answer relative to the chain.
func TestPlanChain(t *testing.T) {
	t.Parallel()
	src := writeChainPack(t)
	c := ChainAnswers{}.Defaults()
	c.ID, c.Label = "digest", "Digest"
	p, err := PlanChain(src, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := string(p.File("pack.json").Data)
	if !strings.HasPrefix(out, string(src.Manifest[:strings.Index(string(src.Manifest), "\n    }\n  ]")])) || !strings.Contains(out, `"chainId": "vendor.acme.chains.digest"`) {
		t.Errorf("pack.json after adding the chain:\n%s", out)
	}
	if err := p.Write(src.Dir, false); err != nil {
		t.Fatal(err)
	}
	src2, err := OpenPack(src.Dir)
	if err != nil || strings.Join(src2.ChainIDs(), ",") != "vendor.acme.chains.summarize-page,vendor.acme.chains.digest" {
		t.Fatalf("chains after the write: %v %v", err, src2.ChainIDs())
	}
	for _, fr := range orDefault(nil).PackFiles("pack.json", src2.FS, src2.Manifest) {
		if len(fr.Errors)+len(fr.Warnings) > 0 {
			t.Errorf("the pack with two chains: %v %v", fr.Errors, fr.Warnings)
		}
	}

	if errs := c.Check(src2, nil); len(errs.For("id")) == 0 || !strings.Contains(errs.Error(), "already exists") {
		t.Errorf("repeated chain: %v", errs)
	}
	bad := ChainAnswers{}.Defaults()
	bad.ID = "bad"
	bad.Steps[1].TypeID = "Summarize"
	bad.Parameters[1].Name = "size"
	errs := bad.Check(src2, nil)
	for _, field := range []string{"steps.1.typeId", "parameters.1", "steps.1.params"} {
		if len(errs.For(field)) == 0 {
			t.Errorf("no problem for %s: %v", field, errs)
		}
	}

	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.nodes"
	np, err := PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := np.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	nsrc, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlanChain(nsrc, c, nil); err == nil || !strings.Contains(err.Error(), "workflow-chain pack") {
		t.Errorf("chain into a node pack: %v", err)
	}
}

package create

import (
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
)

// BenchmarkPreflightSignedPack is the review's preflight of a default pack
// to be signed with an existing key: the folder, the key, the key id and
// packing the plan (in memory, over the folder's files).
func BenchmarkPreflightSignedPack(b *testing.B) {
	b.Chdir(b.TempDir())
	k, _ := sign.GenerateKey(sign.Ed25519)
	if _, _, err := sign.WriteKeyPair("acme", k, nil, false); err != nil {
		b.Fatal(err)
	}
	const name = "community.acme.bench"
	ans := scaffold.PackAnswers{}.Defaults()
	ans.Name = name
	plan, err := scaffold.PlanPack(ans, nil)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{Plan: plan, Dir: "bench",
		Release: &Release{Name: name, Version: "0.1.0", Sign: sign.MethodV2, Key: Key{Path: "acme.key", ID: "acme-1"}}}
	b.ReportAllocs()
	for b.Loop() {
		if ps := Preflight(opts); len(ps) != 0 {
			b.Fatalf("Preflight: %+v", ps)
		}
	}
}

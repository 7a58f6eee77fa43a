package publish

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
)

// preflightCodes runs Preflight on a pack.json (and archive) against reg
// and returns the gates' codes.
func preflightCodes(t *testing.T, reg string, pj []byte, a *tarball.Archive, tgz []byte) []string {
	t.Helper()
	gates, err := Preflight(PreflightOptions{Registry: reg, PackJSON: pj, Archive: a, Tgz: tgz, Where: "x"})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, g := range gates {
		if g.Message == "" || g.Code == "" {
			t.Errorf("gate without words: %+v", g)
		}
		codes = append(codes, g.Code)
	}
	slices.Sort(codes)
	return codes
}

// The gates publish alone ran, now run on a pack before it is a release:
// each case breaks one, against a copy of the fixture registry (v1 tree,
// core.openwop.flow@1.1.0 published, signed by openwop-team-1).
func TestPreflightGates(t *testing.T) {
	t.Parallel()
	fx := fixtures.Registry(t)
	published := fixtures.Tarball(t, "core.openwop.flow", "1.1.0")
	tgz, err := os.ReadFile(published)
	if err != nil {
		t.Fatal(err)
	}
	a := &tarball.Archive{}
	for _, name := range []string{"pack.json", "keys/pack.json.sig"} {
		a.Files = append(a.Files, tarball.File{Header: tarball.Header{Name: name}, Data: fixtures.File(t, published, name)})
	}
	pj := a.Files[0].Data
	reg := t.TempDir()
	fixtures.CopyInto(t, fx, reg)

	if got := preflightCodes(t, reg, pj, a, tgz); len(got) != 0 {
		t.Errorf("the published release itself: %v", got)
	}
	v := func(from, to string) []byte { return []byte(strings.Replace(string(pj), from, to, 1)) }
	cases := []struct {
		name string
		pj   []byte
		a    *tarball.Archive
		want string
	}{
		{"immutability: the version with other bytes", v(`"description":"`, `"description":"Changed. `), nil, "version_conflict"},
		{"not greater than the latest", v(`"version":"1.1.0"`, `"version":"1.0.9"`), nil, "version_not_greater"},
		{"namespace: the key may not sign it", v(`"name":"core.openwop.flow"`, `"name":"vendor.other.flow"`), nil, "pack_namespace_unauthorized"},
		{"version manifest schema (v1 refuses peerDependenciesMeta)", v(`"version":"1.1.0"`, `"version":"1.2.0","peerDependenciesMeta":{}`), nil, "version_manifest_invalid"},
		{"embedded signature", v(`"version":"1.1.0"`, `"version":"1.2.0"`), &tarball.Archive{Files: a.Files[:1]}, "signature_not_embedded"},
	}
	for _, tc := range cases {
		got := preflightCodes(t, reg, tc.pj, tc.a, nil)
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s: %v, want %s", tc.name, got, tc.want)
		}
	}
	unsigned := []byte(strings.NewReplacer(`"signing":{"method":"manual","publicKeyRef":"openwop-team-1","signatureRef":"keys/pack.json.sig"},`, "", `"name":"core.openwop.flow"`, `"name":"zzz.nobody.flow"`, `"version":"1.1.0"`, `"version":"1.2.0"`).Replace(string(pj)))
	if got := preflightCodes(t, reg, unsigned, nil, nil); !slices.Contains(got, "pack_namespace_unauthorized") {
		t.Errorf("unsigned, a namespace no key holds: %v", got)
	}
	// A rotated key signs nothing new; an advisory blocks its range.
	wk := filepath.Join(reg, ".well-known", "openwop-registry.json")
	data, _ := os.ReadFile(wk)
	os.WriteFile(wk, []byte(strings.Replace(string(data), `"status": "active"`, `"status": "rotated"`, -1)), 0o644)
	os.MkdirAll(filepath.Join(reg, "security"), 0o755)
	os.WriteFile(filepath.Join(reg, "security", "advisories.json"), []byte(`{"advisories":[{"id":"OPENWOP-2026-0001","affected":[{"packName":"core.openwop.flow","versions":">=1.2.0 <1.3.0"}]}]}`), 0o644)
	got := preflightCodes(t, reg, v(`"version":"1.1.0"`, `"version":"1.2.0"`), a, nil)
	if !slices.Contains(got, "key_not_active") || !slices.Contains(got, "version_advisory") {
		t.Errorf("rotated key, advisory: %v", got)
	}
}

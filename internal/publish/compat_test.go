package publish

import (
	"bytes"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// publish compares a release with the version it follows: a breaking
// change (the engines range narrowed) under a minor bump is refused with
// version_bump_too_small naming it, published with AllowBreaking, and
// accepted under a major bump; the plan (dry run) carries the comparison.
func TestPublishRefusesTooSmallBump(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	key := addTestKey(t, dir+"/registry", "active")
	const name = "community.wopkit-test.bump"
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.0.0", nil), Registry: dir})
	narrow := func(m *jsjson.Obj) { m.Set("engines", jsjson.NewObj().Set("openwop", ">=2.0.0 <3.0.0")) }

	minor := release(t, key, sign.MethodV2, name, "1.1.0", narrow)
	refuse(t, Options{Tarball: minor, Registry: dir}, "version_bump_too_small")
	_, err := Stage(t.Context(), Options{Tarball: minor, Registry: dir})
	if msg := err.Error(); !strings.Contains(msg, "1 breaking change(s)") || !strings.Contains(msg, "pack.json /engines/openwop") || !strings.Contains(msg, "--allow-breaking") {
		t.Errorf("message: %s", msg)
	}
	if werr.ExitCode(err) != 1 {
		t.Errorf("exit %d", werr.ExitCode(err))
	}
	p := stage(t, Options{Tarball: minor, Registry: dir, AllowBreaking: true})
	if p.Compat == nil || p.Compat.Required != semdiff.BumpMajor || p.Compat.VersionOK || p.Compat.From != name+"@1.0.0" {
		t.Fatalf("compat: %+v", p.Compat)
	}
	var out bytes.Buffer
	p.WriteText(&out, true)
	if !strings.Contains(out.String(), "compared with "+name+"@1.0.0: 1.0.0 → 1.1.0 is a minor bump, but the changes need a major bump") ||
		!strings.Contains(out.String(), "breaking pack.json /engines/openwop") {
		t.Errorf("dry run:\n%s", out.String())
	}
	major := stage(t, Options{Tarball: release(t, key, sign.MethodV2, name, "2.0.0", narrow), Registry: dir})
	if major.Compat == nil || !major.Compat.VersionOK {
		t.Errorf("2.0.0: %+v", major.Compat)
	}
	patch := stage(t, Options{Tarball: release(t, key, sign.MethodV2, name, "1.0.1", func(m *jsjson.Obj) { m.Set("description", "Reworded.") }), Registry: dir})
	if patch.Compat == nil || !patch.Compat.VersionOK || patch.Compat.Required != semdiff.BumpPatch {
		t.Errorf("1.0.1: %+v", patch.Compat)
	}
}

// publish refuses a release holding a .json file JSON.parse refuses, even
// one no manifest references (it would otherwise copy it into the schema
// mirror).
func TestPublishRefusesUnparsedJSON(t *testing.T) {
	t.Parallel()
	pj := []byte(`{"name":"community.wopkit-test.j","version":"1.0.0"}`)
	a := &tarball.Archive{Files: []tarball.File{
		{Header: tarball.Header{Name: "pack.json"}, Data: pj},
		{Header: tarball.Header{Name: "schemas/loose.json"}, Data: []byte(`{"type":`)},
	}}
	err := validateManifest(a, pj, "j-1.0.0.tgz", SpecV2, nil)
	if werr.CodeOf(err) != "pack_invalid" || !strings.Contains(err.Error(), "j-1.0.0.tgz!/schemas/loose.json") || !strings.Contains(err.Error(), "[pack_json_invalid]") {
		t.Errorf("got %v", err)
	}
}

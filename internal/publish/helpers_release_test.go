package publish

import (
	"context"
	"crypto"
	"os"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/validate"
)

// testKeyID is the publisher key the tests register in their registry copy.
const testKeyID = "wopkit-test-1"

// addTestKey generates an Ed25519 key, publishes it at keys/<id>.pub and
// lists it in the root's .well-known signingKeys (granted
// community.wopkit-test.*) with the given status.
func addTestKey(t testing.TB, root, status string) crypto.Signer {
	t.Helper()
	key, err := sign.GenerateKey(sign.Ed25519)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := sign.MarshalPublicKeyPEM(key.Public())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "keys", testKeyID+".pub"), pub, 0o644); err != nil {
		t.Fatal(err)
	}
	setKeyStatus(t, root, status)
	return key
}

// setKeyStatus writes the test key's keychain entry with status.
func setKeyStatus(t testing.TB, root, status string) {
	t.Helper()
	p := filepath.Join(root, ".well-known", "openwop-registry.json")
	v, err := jsjson.Parse(readFileT(t, p), p)
	if err != nil {
		t.Fatal(err)
	}
	wk := v.(*jsjson.Obj)
	var keys []any
	for _, k := range jsjson.Array(jsjson.Field(wk, "signingKeys")) {
		if id, _ := jsjson.Str(jsjson.Field(k, "keyId")); id != testKeyID {
			keys = append(keys, k)
		}
	}
	keys = append(keys, jsjson.NewObj().Set("keyId", testKeyID).Set("algorithm", "ed25519").
		Set("publicKeyUrl", "/keys/"+testKeyID+".pub").
		Set("permittedNamespaces", []any{"community.wopkit-test.*"}).
		Set("operator", "wopkit tests").Set("status", status))
	wk.Set("signingKeys", keys)
	if err := os.WriteFile(p, jsjson.Stringify(wk), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFileT(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// release scaffolds a pack with wopkit's own scaffolder, edits its
// manifest, then packs and signs it with wopkit (method manual or v2), and
// returns the tarball (with its .sig and version manifest beside it).
func release(t testing.TB, key crypto.Signer, method, name, version string, edit func(*jsjson.Obj)) string {
	t.Helper()
	dir := t.TempDir()
	a := scaffold.PackAnswers{}.Defaults()
	a.Name, a.Version = name, version
	if method == sign.MethodManual {
		a.Spec = scaffold.SpecV1 // manual signs a v1 pack (a v2 pack's is refused)
	}
	plan, err := scaffold.PlanPack(a, nil)
	if err != nil { // a name or version the scaffolder refuses: scaffold another, rename below
		a.Name, a.Version = "community.wopkit-test.renamed", "1.0.0"
		if plan, err = scaffold.PlanPack(a, nil); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(dir, "src")
	if err := plan.Write(src, false); err != nil {
		t.Fatal(err)
	}
	pj := filepath.Join(src, "pack.json")
	v, err := jsjson.Parse(readFileT(t, pj), pj)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(*jsjson.Obj)
	m.Set("name", name).Set("version", version)
	m.Delete("signing")
	if method == sign.MethodV2 {
		m.Set("kind", "node")
		m.Set("engines", jsjson.NewObj().Set("openwop", ">=1.0.0 <3.0.0"))
	} else {
		// The scaffolder writes a v2 pack; manual signs only a v1 one.
		m.Set("engines", jsjson.NewObj().Set("openwop", ">=1.0.0 <2.0.0"))
	}
	if edit != nil {
		edit(m)
	}
	if err := os.WriteFile(pj, jsjson.Stringify(m), 0o644); err != nil {
		t.Fatal(err)
	}
	setSchemaIDs(t, src, name, version)
	signer, err := sign.NewEd25519Signer(method, key, testKeyID)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name+"-"+version+".tgz")
	if _, err := pack.Pack(context.Background(), pack.Options{Dir: src, Output: out, Signer: signer, NoValidate: true}); err != nil {
		t.Fatal(err)
	}
	return out
}

// setSchemaIDs gives every schemas/*.json of the pack in src the $id the
// registry's check-pack-schema-ids expects for name@version (the scaffold
// writes one for v2 packs only, and for the name it was given).
func setSchemaIDs(t testing.TB, src, name, version string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(src, "schemas", "*.json"))
	for _, f := range files {
		v, err := jsjson.Parse(readFileT(t, f), f)
		if err != nil {
			t.Fatal(err)
		}
		o, ok := v.(*jsjson.Obj)
		if !ok {
			continue
		}
		o.Set("$id", validate.PackSchemaID(name, version, "schemas/"+filepath.Base(f)))
		if err := os.WriteFile(f, jsjson.Stringify(o), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

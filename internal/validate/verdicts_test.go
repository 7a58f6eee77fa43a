package validate

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// fixturesDir returns ../shared/fixtures, or skips the test when it is absent.
func fixturesDir(t testing.TB) string {
	t.Helper()
	d := filepath.Join("..", "..", "..", "shared", "fixtures")
	if _, err := os.Stat(d); err != nil {
		t.Skip("../shared/fixtures is absent: skipping the checks against the real registry")
	}
	return d
}

// TestVerdictsMatchAjv checks wopkit's schema verdict against ajv's (the
// validator the registry uses) on every real published manifest and on the
// hand-written cases; testdata/ajv/verdicts.sh regenerates the expectations.
func TestVerdictsMatchAjv(t *testing.T) {
	b, err := os.ReadFile("testdata/ajv/verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	var verdicts map[string]struct {
		Kind  Kind `json:"kind"`
		Valid bool `json:"valid"`
	}
	if err := json.Unmarshal(b, &verdicts); err != nil {
		t.Fatal(err)
	}
	v := newV(t)
	haveFixtures := true
	if _, err := os.Stat(filepath.Join("..", "..", "..", "shared", "fixtures")); err != nil {
		haveFixtures = false
		t.Log("../shared/fixtures is absent: only the hand-written cases are compared with ajv")
	}
	checked := 0
	for id, want := range verdicts {
		var data []byte
		switch {
		case strings.HasPrefix(id, "verdicts/"):
			data, err = os.ReadFile(filepath.Join("testdata", id))
		case !haveFixtures:
			continue
		case strings.HasPrefix(id, "registry/"):
			parts := strings.Split(id, "/")
			data, err = packJSONFromTarball(filepath.Join(fixturesDir(t), "registry", "v1", "packs", parts[1], "-", parts[2]+".tgz"))
		default:
			data, err = os.ReadFile(filepath.Join(fixturesDir(t), id))
		}
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		doc, err := jsondoc.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		ps := v.SchemaProblems(want.Kind, doc, "")
		if got := len(ps) == 0; got != want.Valid {
			t.Errorf("%s: wopkit says valid=%v, ajv says %v\n%s", id, got, want.Valid, render(ps))
		}
		checked++
	}
	if checked < 15 {
		t.Fatalf("only %d verdicts compared", checked)
	}
}

// packJSONFromTarball reads pack.json (or ./pack.json) from a fixture
// tarball with the standard library, independently of wopkit's reader.
func packJSONFromTarball(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			return nil, err
		}
		if strings.TrimPrefix(h.Name, "./") == "pack.json" {
			return io.ReadAll(tr)
		}
	}
}

package publish

import (
	"crypto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/werr"
)

const testPack = "community.wopkit-test.hello"

// killClock is the clock of the publications the tests compare byte for
// byte (SOURCE_DATE_EPOCH for the binary of the kill tests).
var killClock = time.Unix(1790000000, 0)

// testTree is a checkout whose registry holds testPack@1.0.0, signed with
// the test key, which it returns too.
func testTree(t *testing.T) (string, *keyRef) {
	t.Helper()
	dir := minimalRegistry(t)
	k := &keyRef{key: addTestKey(t, filepath.Join(dir, "registry"), "active")}
	publishOK(t, Options{Tarball: k.release(t, testPack, "1.0.0"), Registry: dir})
	return dir, k
}

// keyRef signs releases with the test key.
type keyRef struct{ key crypto.Signer }

// release packs and signs name@version (v2) with the key.
func (k *keyRef) release(t *testing.T, name, version string) string {
	t.Helper()
	return release(t, k.key, sign.MethodV2, name, version, nil)
}

// assertInertError checks that an error about a hostile string shows it
// escaped: no control or bidirectional character raw but the newlines
// that separate its own lines, and never the raw string.
func assertInertError(t *testing.T, err error, raw string) {
	t.Helper()
	msg := err.Error()
	for _, r := range msg {
		if r != '\n' && termsafe.Unsafe(r) {
			t.Errorf("the error holds %U raw:\n%q", r, msg)
		}
	}
	if strings.ContainsFunc(raw, termsafe.Unsafe) && strings.Contains(msg, raw) {
		t.Errorf("the error holds %q raw:\n%s", raw, msg)
	}
}

// Issue item 6: names the schemas refuse were staged into the tree and
// printed raw. Each is now refused before anything is read from the
// registry (pack_invalid, as `wopkit validate --for-registry` reports it),
// the error shows it escaped, and the tree is unchanged.
func TestHostileNamesRefused(t *testing.T) {
	t.Parallel()
	dir, k := testTree(t)
	for _, name := range []string{
		"community.wopkit-test.hel\nlo",           // a newline: a forged second line
		"community.wopkit-test.hel\u202elo",       // right-to-left override
		"community.wopkit-test.h\u0435llo",        // Cyrillic е, a look-alike
		"community.Wopkit-test.hello",             // upper case in the scope
		"community.wopkit-test.hel:lo",            // ':' (a drive or a URL scheme)
		"community.wopkit-test.hello ",            // trailing space
		"community.wopkit-test.hel\x1b[2K\rlo",    // erase the line, return
		"community.wopkit-test.hello\u2028forged", // line separator
	} {
		t.Run(termsafe.String(name), func(t *testing.T) {
			tgz := k.release(t, name, "2.0.0")
			refuse(t, Options{Tarball: tgz, Registry: dir}, "pack_invalid")
			_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir})
			assertInertError(t, err, name)
		})
	}
}

// Issue item 13: with --allow-older, 1.0.0+rebuild, 01.0.0 and 1.00.0 were
// published beside 1.0.0. A version SemVer refuses (leading zeros) is
// refused as pack_version_invalid; one equal in precedence to a published
// version (build metadata ignored) as version_conflict, --allow-older or
// not.
func TestVersionsEqualInPrecedenceRefused(t *testing.T) {
	t.Parallel()
	dir, k := testTree(t)
	for _, c := range []struct{ version, code string }{
		{"1.0.0+rebuild", "version_conflict"},
		{"1.0.0+1", "version_conflict"},
		{"01.0.0", "pack_version_invalid"},
		{"1.00.0", "pack_version_invalid"},
		{"1.0.00", "pack_version_invalid"},
		{"1.0.0-01", "pack_version_invalid"},
		{"1.0.0+", "pack_version_invalid"},
	} {
		t.Run(c.version, func(t *testing.T) {
			refuse(t, Options{Tarball: k.release(t, testPack, c.version), Registry: dir, AllowOlder: true}, c.code)
		})
	}
	// A maintenance release of another precedence still goes in.
	p := stage(t, Options{Tarball: k.release(t, testPack, "1.0.0-rc.1+b7"), Registry: dir, AllowOlder: true})
	if p.NoOp {
		t.Fatal("1.0.0-rc.1+b7 not staged")
	}

	// A version a tree already holds with leading zeros (planted, or from
	// before this check) is read by its numbers: 1.0.0 equals 1.00.0.
	d2 := minimalRegistry(t)
	k2 := &keyRef{key: addTestKey(t, filepath.Join(d2, "registry"), "active")}
	publishOK(t, Options{Tarball: k2.release(t, testPack, "0.9.0"), Registry: d2})
	vdir := filepath.Join(d2, "registry", "v2", "packs", testPack, "-")
	writeFile(t, filepath.Join(vdir, "1.00.0.json"), string(readFileT(t, filepath.Join(vdir, "0.9.0.json"))))
	refuse(t, Options{Tarball: k2.release(t, testPack, "1.0.0"), Registry: d2}, "version_conflict")
}

// Issue item 4, the re-run: a version whose files an interrupted run of an
// older wopkit left without its index entries was "nothing to do"; the
// re-run now writes what is missing, and the tree equals a clean
// publication's.
func TestRerunRepairsAHalfPublishedVersion(t *testing.T) {
	t.Parallel()
	dir, k := testTree(t)
	tgz := k.release(t, testPack, "1.1.0")
	whole := t.TempDir()
	fixtures.CopyInto(t, dir, whole)
	full := publishOK(t, Options{Tarball: tgz, Registry: whole, Now: killClock})
	for _, c := range full.Changes {
		if t0 := c.Path; !strings.HasSuffix(t0, "index.json") && t0 != "v2/sbom.json" {
			writeFile(t, filepath.Join(dir, "registry", filepath.FromSlash(t0)), string(readFileT(t, filepath.Join(whole, "registry", filepath.FromSlash(t0)))))
		}
	}
	p := stage(t, Options{Tarball: tgz, Registry: dir, Now: killClock})
	if p.NoOp || len(p.Changes) != 3 {
		t.Fatalf("the re-run planned %d change(s) (no-op %v), want the two indexes and the aggregate SBOM", len(p.Changes), p.NoOp)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[len(p.Notes)-1], "already in the tree with these bytes") {
		t.Errorf("notes: %q", p.Notes)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	sameTree(t, treeHashes(t, filepath.Join(whole, "registry")), treeHashes(t, filepath.Join(dir, "registry")))
	if p := stage(t, Options{Tarball: tgz, Registry: dir, Now: killClock}); !p.NoOp {
		t.Errorf("a third run planned %d change(s)", len(p.Changes))
	}
}

// Issue item 7: every registry document is read as JSON.parse reads it: a
// member named twice in one object, in any letter case, is refused
// (json_duplicate_member) instead of wopkit reading one value and the
// registry's scripts another.
func TestCaseDuplicateMembersRefused(t *testing.T) {
	t.Parallel()
	dir, k := testTree(t)
	tgz := k.release(t, testPack, "1.1.0")
	for _, rel := range []string{"v2/index.json", "v2/packs/" + testPack + "/-/1.0.0.json", "security/advisories.json"} {
		t.Run(rel, func(t *testing.T) {
			p := filepath.Join(dir, "registry", filepath.FromSlash(rel))
			old, err := os.ReadFile(p)
			if err != nil {
				old = []byte(`{"advisories": []}`)
			}
			doc := strings.Replace(string(old), "{", `{"Packs": [], "PACKS": [], "Advisories": [], "ADVISORIES": [], `, 1)
			writeFile(t, p, doc)
			defer func() {
				if err == nil {
					writeFile(t, p, string(old))
				} else {
					os.Remove(p)
				}
			}()
			refuse(t, Options{Tarball: tgz, Registry: dir}, "json_duplicate_member")
		})
	}
}

// The transaction directory is wopkit's, and only this user's journal in
// the state folder describes it: one the tree holds without such a journal
// (a file, or a directory with or without a journal.json of its own) is
// refused, and nothing is done.
func TestLeftoverTransactions(t *testing.T) {
	t.Parallel()
	dir, _ := testTree(t)
	root := filepath.Join(dir, "registry")
	for name, setup := range map[string]func(){
		"staged files":       func() { writeFile(t, filepath.Join(root, txnDir, "0.new"), "staged") },
		"a file":             func() { writeFile(t, filepath.Join(root, txnDir), "x") },
		"a journal with ..":  func() { writeJournalT(t, root, `{"path":"../outside","new":"0.new"}`) },
		"an absolute path":   func() { writeJournalT(t, root, `{"path":"/etc/passwd","new":"0.new"}`) },
		"a staged file path": func() { writeJournalT(t, root, `{"path":"v2/x","new":"../../x"}`) },
	} {
		t.Run(name, func(t *testing.T) {
			setup()
			defer os.RemoveAll(filepath.Join(root, txnDir))
			before := treeHashes(t, root)
			if _, err := OpenTree(dir, SpecV2); werr.CodeOf(err) != CodeNotOurs {
				t.Fatalf("err %v, want %s", err, CodeNotOurs)
			}
			sameTree(t, before, treeHashes(t, root))
		})
	}
}

func writeJournalT(t *testing.T, root, file string) {
	t.Helper()
	writeFile(t, filepath.Join(root, txnDir, "0.new"), "x")
	writeFile(t, filepath.Join(root, txnDir, "journal.json"), `{"format":"wopkit-registry-transaction/1","state":"forward","what":"x","dirs":[],"files":[`+file+`]}`)
}

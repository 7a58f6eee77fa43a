//go:build unix

package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/proctest"
)

// killRelease is a signed release of one pack written into a folder, and
// the same release after the pack changed (same names, other bytes).
type killRelease struct {
	bin, pack, key, state string
	old, new              map[string]string
}

func (k *killRelease) run(t *testing.T, out string, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(k.bin, "pack", k.pack, "--sign", "v2", "--key", k.key, "--key-id", "acme-1", "-o", filepath.Join(out, "hello.tgz"))
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+k.state, "NO_COLOR=1", "SOURCE_DATE_EPOCH=1780000000")
	cmd.Env = append(cmd.Env, env...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return b.String(), err
}

// folder hashes every entry of dir by name.
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		s := sha256.Sum256(readT(t, filepath.Join(dir, e.Name())))
		out[e.Name()] = hex.EncodeToString(s[:8])
	}
	return out
}

func same(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func show(m map[string]string) string {
	var s []string
	for k, v := range m {
		s = append(s, k+"="+v)
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

// Issue 24 item 6: kill -9 during `pack --sign` left a half release (the
// new .tgz beside the old .json and .sig) and temporaries. The wopkit
// binary (wopkit_crashtest build) re-packing a changed pack over its
// earlier release is killed at each step of the write in turn
// (WOPKIT_TEST_CRASH_AFTER=n). After each kill the folder holds the
// old release or the new one, or the journal of a run past its commit
// point, which the next run completes before it writes; the next run (also
// killed once, in its recovery) then leaves the new release and no
// temporary file.
func TestPackSignKillAtEveryStep(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	k := &killRelease{bin: proctest.BuildCrashtest(t, filepath.Join("..", "..")), pack: filepath.Join(base, "p"), state: filepath.Join(base, "state")}
	for _, args := range [][]string{
		{"new", "pack", "--yes", "--dir", k.pack, "--set", "name=vendor.acme.hello"},
		{"keygen", "--out", filepath.Join(base, "acme")},
	} {
		cmd := exec.Command(k.bin, args...)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+k.state, "XDG_CONFIG_HOME="+filepath.Join(base, "config"))
		cmd.Dir = base
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	k.key = filepath.Join(base, "acme.key")
	out := filepath.Join(base, "out")
	os.MkdirAll(out, 0o755)
	if o, err := k.run(t, out); err != nil {
		t.Fatalf("pack: %v\n%s", err, o)
	}
	k.old = folder(t, out)
	oldBytes := map[string][]byte{}
	for name := range k.old {
		oldBytes[name] = readT(t, filepath.Join(out, name))
	}
	// The pack changes: the next release has the same names, other bytes.
	mf := filepath.Join(k.pack, "pack.json")
	var m map[string]any
	if err := json.Unmarshal(readT(t, mf), &m); err != nil {
		t.Fatal(err)
	}
	m["description"] = "A changed description, so that every file of the release changes."
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(mf, append(b, '\n'), 0o644)
	if o, err := k.run(t, out); err != nil {
		t.Fatalf("pack: %v\n%s", err, o)
	}
	k.new = folder(t, out)
	if len(k.old) != 3 || len(k.new) != 3 {
		t.Fatalf("a release is three files: %s / %s", show(k.old), show(k.new))
	}
	for name, h := range k.old {
		if k.new[name] == h {
			t.Fatalf("%s is the same in both releases: the test cannot tell them apart", name)
		}
	}
	journals := func() int {
		ents, _ := os.ReadDir(filepath.Join(k.state, "wopkit", "releases"))
		return len(ents)
	}
	points, seen := 0, map[string]int{}
	for n := 1; ; n++ {
		os.RemoveAll(out)
		os.RemoveAll(k.state)
		os.MkdirAll(out, 0o755)
		for name, data := range oldBytes {
			os.WriteFile(filepath.Join(out, name), data, 0o644)
		}
		what := fmt.Sprintf("killed at step %d", n)
		o, err := k.run(t, out, fmt.Sprintf("WOPKIT_TEST_CRASH_AFTER=%d", n))
		if err == nil {
			if got := folder(t, out); !same(got, k.new) {
				t.Fatalf("a run past every step left %s", show(got))
			}
			break
		}
		if !proctest.KilledBySignal(err) {
			t.Fatalf("%s: %v\n%s", what, err, o)
		}
		points++
		got := folder(t, out)
		release := map[string]string{}
		temps := 0
		for name, h := range got {
			if strings.HasPrefix(name, ".") {
				temps++
			} else {
				release[name] = h
			}
		}
		switch {
		case same(release, k.old):
			seen["old"]++
		case same(release, k.new):
			seen["new"]++
		case journals() == 1:
			seen["mixed, with the journal that completes it"]++
		default:
			t.Fatalf("%s: the folder holds a mix and no journal: %s", what, show(got))
		}
		// The next run is killed too, at its first step (in the recovery
		// when there is one), then one runs to its end.
		if o, err := k.run(t, out, "WOPKIT_TEST_CRASH_AFTER=1"); err != nil && !proctest.KilledBySignal(err) {
			t.Fatalf("%s, then the next run: %v\n%s", what, err, o)
		}
		if o, err := k.run(t, out); err != nil {
			t.Fatalf("%s, the run after: %v\n%s", what, err, o)
		}
		if got := folder(t, out); !same(got, k.new) {
			t.Fatalf("%s: after the next runs the folder holds %s, want the new release and nothing else (%s)", what, show(got), show(k.new))
		}
		if journals() != 0 {
			t.Fatalf("%s: a journal is left", what)
		}
	}
	if points < 4 {
		t.Fatalf("only %d kill steps: the write was not exercised", points)
	}
	t.Logf("%d kill steps; right after the kill the folder was %v", points, seen)
}

func readT(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Issue 24 item 6: the temporaries a killed write of a release left (the
// .tgz being streamed, the .sig, the .json) were left for good. The next
// pack into the folder removes those of the names it writes, and nothing
// else.
func TestNextPackRemovesItsTemporaries(t *testing.T) {
	t.Parallel()
	dir := fixtures.CopyDir(t, "testdata/basic")
	outDir := t.TempDir()
	stale := []string{".x.tgz.tmp-0123456789abcdef", ".x.json.tmp-42"}
	keep := []string{".other.tgz.tmp-0123", "notes.tmp-1"}
	for _, name := range append(append([]string{}, stale...), keep...) {
		if err := os.WriteFile(filepath.Join(outDir, name), []byte("left by a kill"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Pack(t.Context(), Options{Dir: dir, Output: filepath.Join(outDir, "x.tgz"), Validate: noValidate}); err != nil {
		t.Fatal(err)
	}
	got := folder(t, outDir)
	for _, name := range stale {
		if _, ok := got[name]; ok {
			t.Errorf("%s is still there", name)
		}
	}
	for _, name := range append(keep, "x.tgz", "x.json") {
		if _, ok := got[name]; !ok {
			t.Errorf("%s is gone", name)
		}
	}
}

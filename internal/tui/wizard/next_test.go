package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/toward"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/sign"
)

// Issue 44, item 7: the summary of a pack signed with a new key ends with
// the commands toward the pull request, each as it would run: the new
// public key added to the registry's keychain for the pack's namespace,
// then the release published into the checkout (WOPKIT_REGISTRY's, or a
// clone it says how to make).
func TestSummaryEndsTowardThePullRequest(t *testing.T) {
	t.Setenv(sign.PassphraseEnv, "")
	os.Unsetenv(sign.PassphraseEnv)
	dir := t.TempDir()
	d, w := newKeySignPage(t, dir)
	d.Keys("enter", "enter", "enter", "enter", "enter", "enter", "enter") // the two passphrases empty, then write
	if !w.finished || w.err != "" {
		t.Fatalf("not signed (page %s): %q\n%s", w.at.pg.id, w.err, d.View())
	}
	sum := w.out.summary
	i := len(sum) - 4
	if i < 0 || sum[i] != "toward the pull request:" {
		t.Fatalf("the summary does not end toward the pull request:\n%s", strings.Join(sum, "\n"))
	}
	want := []string{
		"git clone " + toward.RegistryURL + " " + toward.RegistryClone,
		"wopkit keychain add --registry " + toward.RegistryClone + " --key-id acme-1 --public-key " + filepath.Join(dir, "acme.pub") + " --namespace 'community.acme.*'",
		"wopkit publish " + filepath.Join(dir, "out.tgz") + " --registry " + toward.RegistryClone,
	}
	for n, c := range want {
		if got := strings.TrimSpace(sum[i+1+n]); got != c {
			t.Errorf("step %d: %q, want %q", n+1, got, c)
		}
	}
}

// With only the files written: a key, the pack signed with it, its public
// key added, the release published; nothing for a tool manifest.
func TestTowardThePullRequestFromTheFilesAlone(t *testing.T) {
	t.Parallel()
	a := newAnswers()
	a.What, a.Pack.Name, a.SignMethod = whatAgent, "community.acme.later", "skip"
	cmds := towardPR(a, session{Options: Options{Registry: "reg"}}, createResult("later"))
	want := []string{"wopkit keygen --out acme", "wopkit pack later --sign v2 --key acme.key --key-id acme-1 --output community.acme.later-0.1.0.tgz",
		"wopkit keychain add --registry reg --key-id acme-1 --public-key acme.pub --namespace 'community.acme.*'",
		"wopkit publish community.acme.later-0.1.0.tgz --registry reg"}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}
	a.What = whatTool
	if cmds := towardPR(a, session{}, createResult("x")); cmds != nil {
		t.Errorf("a tool manifest: %q", cmds)
	}
}

// createResult is what create.Run returns for files written in dir, not packed.
func createResult(dir string) create.Result { return create.Result{Dir: dir} }

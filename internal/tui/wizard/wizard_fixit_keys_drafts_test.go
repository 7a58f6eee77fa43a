package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tui/wizard/drafts"
)

// One test per "what was seen" item of issue 25, each failing on the
// wizard before it.

// Item 1: the agent's System prompt is replaced by what is typed or
// pasted, never kept with the typing after it.
func TestSystemPromptReplaced(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"typed", "pasted"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAnswers()
			d, w := wizardOn(t, a, Options{What: whatAgent, Dir: dir, DraftDir: dir})
			pageOf(t, d, w, "agent", 0)
			focusKeyOf(t, d, w, "agents.0.systemPrompt")
			const want = "You write short briefs."
			if how == "typed" {
				d.Keys("type:" + want)
			} else {
				d.Send(tea.PasteMsg{Content: want})
			}
			d.Keys("enter")
			if got := a.Pack.Agents[0].SystemPrompt; got != want {
				t.Errorf("the system prompt is %q, not what was %s", got, how)
			}
			if !strings.Contains(d.View(), "Tool allowlist") {
				t.Errorf("enter did not go on:\n%s", d.View())
			}
		})
	}
}

// Item 2: the ssh-agent key chosen on the sign page is still the choice
// after the review's "fix it" leads to another page and back (it became
// "a new key pair: example.key", and the next enter made one).
func TestAgentKeySurvivesFixIt(t *testing.T) {
	_, ref := serveTestAgent(t)
	t.Chdir(t.TempDir())
	a := newAnswers()
	a.Pack.Name = "community.acme.weather"
	a.Pack.Version = "1.0" // a problem for the review to lead to
	d, w := wizardOn(t, a, Options{DraftDir: t.TempDir()})
	toPage(d, w, "sign")
	d.Keys("enter", "down", "down", "enter") // v2, then the agent's key
	if a.KeyChoice != ref {
		t.Fatalf("key choice %q, want %q:\n%s", a.KeyChoice, ref, d.View())
	}
	enterUntil(t, d, w, "review")
	if len(w.rev.Problems) == 0 {
		t.Fatalf("no problem to fix:\n%s", d.View())
	}
	d.Keys("enter") // fix it: the version
	if w.at.pg.id != pageIdentity {
		t.Fatalf("fix it went to %s", w.at.pg.id)
	}
	d.Keys("backspace", "backspace", "backspace", "type:1.0.0")
	enterUntil(t, d, w, "review")
	if a.KeyChoice != ref || a.KeyPath != ref {
		t.Fatalf("after fix it the key is %q (%q), not the agent's %q", a.KeyChoice, a.KeyPath, ref)
	}
	toPage(d, w, "sign")
	if v := d.View(); strings.Contains(v, "example.key") || strings.Contains(v, "a new key pair") {
		t.Errorf("the sign page offers a new key pair again:\n%s", v)
	}
}

// Item 3: a tool's kill switch can be finished in the wizard: shell asks
// its command, url its address (a placeholder refused), and what is typed
// is the manifest's kill switch. Item 6: a scope's sensitivity is asked
// only for private data, and then written.
func TestKillSwitchAsked(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kind, downs, typed, want string
	}{
		{"shell", "4", "acme-tool revoke", `"command": [` + "\n" + `      "acme-tool",` + "\n" + `      "revoke"`},
		{"url", "3", "https://acme.dev/tools/revoke", `"url": "https://acme.dev/tools/revoke"`},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAnswers()
			a.Tool.Scopes = []scaffold.ScopeAnswers{scaffold.NewScope(0)}
			a.Tool.Scopes[0].Resource = "gmail.messages"
			d, w := wizardOn(t, a, Options{What: whatTool, Dir: dir, DraftDir: dir})
			pageOf(t, d, w, "scope", 0)
			focusKeyOf(t, d, w, "scopes.0.sensitivity")
			for _, k := range []string{"up", "up", "down", "down", "down", "down"} {
				if a.Tool.Scopes[0].Sensitivity == "high" {
					break
				}
				d.Keys(k)
			}
			d.Keys("enter")
			toPage(d, w, "safety")
			focusKeyOf(t, d, w, "killSwitch.kind")
			for range tt.downs[0] - '0' {
				d.Keys("down")
			}
			d.Keys("enter")
			if a.Tool.KillSwitch.Kind != tt.kind || w.at.pg.id != "safety" {
				t.Fatalf("kill switch %q on %s, want %s asked next:\n%s", a.Tool.KillSwitch.Kind, w.at.pg.id, tt.kind, d.View())
			}
			if tt.kind == "url" {
				d.Keys("type:https://example.com/revoke", "enter")
				if w.at.pg.id != "safety" || !strings.Contains(d.View(), "placeholder") {
					t.Fatalf("a placeholder address is taken:\n%s", d.View())
				}
				clearField(d, w.form.GetFocusedField())
			}
			d.Keys("type:"+tt.typed, "enter")
			if w.form != nil || w.rev.Plan == nil {
				t.Fatalf("not on a review that writes: %v\n%s", w.rev.Problems, d.View())
			}
			d.Keys("enter")
			if !w.finished {
				t.Fatalf("not written: %q", w.err)
			}
			b, err := os.ReadFile(filepath.Join(dir, a.Tool.Tool.ID+".tool.json"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"kind": "` + tt.kind + `"`, tt.want, `"sensitivity": "high"`} {
				if !strings.Contains(string(b), want) {
					t.Errorf("the manifest lacks %s:\n%s", want, b)
				}
			}
		})
	}
}

// Item 5: on a yes/no, ← chooses the left option (Yes) and → the right one
// (No), whatever was chosen before: ← on [Yes] used to flip it to No.
func TestArrowsChooseSide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	d, w := wizardOn(t, a, Options{What: whatAgent, Dir: dir, DraftDir: dir})
	pageOf(t, d, w, "agent", 0)
	focusKeyOf(t, d, w, "agents.0.handoff")
	g := &a.Pack.Agents[0]
	for _, step := range []struct {
		key  string
		want bool
	}{{"left", true}, {"left", true}, {"right", false}, {"right", false}, {"left", true}} {
		d.Keys(step.key)
		if got := w.form.GetFocusedField().GetValue(); got != step.want {
			t.Fatalf("%s: the yes/no is %v, want %v:\n%s", step.key, got, step.want, d.View())
		}
	}
	d.Keys("enter")
	if !g.Handoff {
		t.Error("the handoff schemas chosen with ← were left out")
	}
}

// Item 10: a second ctrl+c on "Keep a draft?" keeps the draft and says
// where (it quit with the answers thrown away, nothing said); ctrl+c with
// nothing answered yet quits without asking.
func TestCtrlCTwiceKeepsDraft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	out := &outcome{}
	d, _ := wizardIn(t, a, session{Options: Options{Dir: filepath.Join(dir, "out"), DraftDir: dir}, out: out})
	d.Keys("ctrl+c")
	if !d.Quit {
		t.Fatalf("ctrl+c with nothing answered asks:\n%s", d.View())
	}
	a = newAnswers()
	d, w := wizardIn(t, a, session{Options: Options{Dir: filepath.Join(dir, "out"), DraftDir: dir}, out: out})
	d.Keys("enter", "enter", "type:acme")
	d.Keys("ctrl+c")
	if !strings.Contains(d.View(), "Keep a draft") || !strings.Contains(d.View(), "ctrl+c keep it and quit") {
		t.Fatalf("the first ctrl+c does not offer a draft:\n%s", d.View())
	}
	d.Keys("ctrl+c")
	if !d.Quit {
		t.Fatal("the second ctrl+c does not quit")
	}
	b, ok := loadDraft(dir)
	if !ok || !strings.Contains(b.Pack.Name, "acme") {
		t.Fatalf("no draft with the answers kept (%v)", ok)
	}
	if len(out.notes) == 0 || !strings.Contains(out.notes[len(out.notes)-1], drafts.File(dir)) {
		t.Errorf("where the draft is kept is not said: %q", out.notes)
	}
	_ = w
}

// Item 9: a problem the review lists is said as the field is left and the
// focus goes on, so the next answer typed lands in the next field (it was
// appended to the licence); the warning goes as soon as its cause does.
func TestWarningDoesNotHoldTheField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAnswers()
	a.Pack.License = "Apache-2" // not an SPDX id: the list offers "another"
	d, w := wizardOn(t, a, Options{What: whatNodes, Dir: filepath.Join(dir, "out"), DraftDir: dir})
	focusKeyOf(t, d, w, "license.other")
	d.Keys("enter")
	if !strings.Contains(flat(d.View()), "not an SPDX license identifier") {
		t.Fatalf("leaving the licence does not say its problem:\n%s", d.View())
	}
	d.Keys("type:https://acme.dev/weather", "enter")
	if a.Pack.License != "Apache-2" || a.Pack.Homepage != "https://acme.dev/weather" {
		t.Fatalf("the next answer did not land in the next field: licence %q, homepage %q", a.Pack.License, a.Pack.Homepage)
	}
	focusKeyOf(t, d, w, "keywords")
	for i := 0; i < 5 && w.form.GetFocusedField().GetKey() != "license.other"; i++ {
		d.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	}
	clearField(d, w.form.GetFocusedField())
	d.Keys("type:Apache-2.0", "enter")
	if strings.Contains(flat(d.View()), "SPDX license identifier") || w.warn != "" {
		t.Errorf("the warning outlives its fix:\n%s", d.View())
	}
}

// Item 14: a chain step's node version is asked (the typeId was pinned
// @1.0.0 without asking), and a typeId typed with its own pin is accepted
// and written as typed.
func TestChainStepPins(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ key, typed, want string }{
		{"typeId", "core.openwop.http.fetch@2.1.0", `"typeId": "core.openwop.http.fetch@2.1.0"`},
		{"version", "1.2.3", `@1.2.3"`},
	} {
		dir := t.TempDir()
		a := newAnswers()
		d, w := wizardOn(t, a, Options{What: scaffold.KindWorkflowChain, Dir: filepath.Join(dir, "out"), DraftDir: dir})
		pageOf(t, d, w, "step", 0)
		focusKeyOf(t, d, w, "chains.0.steps.0."+tt.key)
		clearField(d, w.form.GetFocusedField())
		d.Keys("type:"+tt.typed, "enter")
		if w.form != nil && w.form.GetFocusedField().GetKey() == "chains.0.steps.0."+tt.key {
			t.Fatalf("%s %q is refused:\n%s", tt.key, tt.typed, d.View())
		}
		enterUntil(t, d, w, "review")
		if w.rev.Plan == nil || !strings.Contains(w.rev.Manifest, tt.want) {
			t.Errorf("%s %q: pack.json lacks %s (%v):\n%s", tt.key, tt.typed, tt.want, w.rev.Problems, w.rev.Manifest)
		}
	}
}

// Item 7: a key of the folder that cannot make the chosen signature (an
// ECDSA acme.key left by a Sigstore run) is not the default for v2
// Ed25519: a new pair is (the review refused the key offered); for a
// Sigstore bundle the same key is the default.
func TestUnfitFolderKeyNotDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	key, err := sign.GenerateKey(sign.ECDSAP256)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := sign.WriteKeyPair("acme", key, nil, false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ method, choice string }{{sign.MethodV2, "new"}, {sign.MethodSigstore, "existing"}} {
		a := newAnswers()
		a.Pack.Name, a.SignMethod = "community.acme.weather", tt.method
		a.keyDefaults()
		if a.KeyChoice != tt.choice || tt.choice == "new" && a.KeyPath == "acme.key" {
			t.Errorf("%s: the default key is %s %q, want %s", tt.method, a.KeyChoice, a.KeyPath, tt.choice)
		}
	}
}

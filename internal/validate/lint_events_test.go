package validate

import (
	"encoding/json"
	"github.com/openwop/wopkit/internal/kinds"
	"regexp"
	"strings"
	"testing"
)

// TestEventNamesData checks the embedded copy of the codemap's v2 column:
// 117 rows (counts.rows of spec/v2/event-codemap.json), distinct, each
// matching the codemap's own grammar; and the registered orgs.
func TestEventNamesData(t *testing.T) {
	t.Parallel()
	var raw struct {
		EventTypes struct {
			Repo, Path, Commit, Grammar string
			Names                       []string
		} `json:"eventTypes"`
		RegisteredOrgs struct {
			Repo, Path, Commit string
			Keys               []string
		} `json:"registeredOrgs"`
	}
	if err := json.Unmarshal(eventNamesJSON, &raw); err != nil {
		t.Fatal(err)
	}
	et, ro := raw.EventTypes, raw.RegisteredOrgs
	sha := regexp.MustCompile(`^[0-9a-f]{40}$`)
	if et.Repo != "openwop/openwop" || et.Path != "spec/v2/event-codemap.json" || !sha.MatchString(et.Commit) {
		t.Errorf("eventTypes source = %s %s @%s", et.Repo, et.Path, et.Commit)
	}
	if ro.Repo != "openwop/openwop" || ro.Path != "spec/v2/declaration.json" || !sha.MatchString(ro.Commit) {
		t.Errorf("registeredOrgs source = %s %s @%s", ro.Repo, ro.Path, ro.Commit)
	}
	grammar, err := regexp.Compile(et.Grammar)
	if err != nil {
		t.Fatalf("grammar %q: %v", et.Grammar, err)
	}
	seen := map[string]bool{}
	for _, n := range et.Names {
		if seen[n] {
			t.Errorf("%q repeated", n)
		}
		seen[n] = true
		if !grammar.MatchString(n) {
			t.Errorf("%q does not match the codemap grammar %s", n, et.Grammar)
		}
		if !protocolEventType(n) || eventNameRefusal(n) != "" {
			t.Errorf("%q is not admitted as a protocol type", n)
		}
	}
	if len(seen) != 117 {
		t.Errorf("%d distinct event types, want 117 (the codemap's rows)", len(seen))
	}
	for _, o := range []string{"example", "openwop-app", "myndhyve"} {
		if !registeredOrg(o) {
			t.Errorf("org %q not registered", o)
		}
	}
	if len(ro.Keys) != 3 {
		t.Errorf("registered orgs = %v, want the 3 of declaration.json extensions", ro.Keys)
	}
}

func TestEventNameRefusal(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"{{params.triggerEventName}}":          "",
		"prefix.{{params.x}}":                  "",
		"run.started":                          "",
		"trigger.subscription-state-changed":   "",
		"myndhyve.lead.created":                "",
		"openwop-app.conversation.recalled":    "",
		"example.thing-happened":               "",
		"host.crm.contact.created":             "4 segments — events.md §Types caps the vendor branch at 3",
		"host.forms.submitted":                 "org `host` is not registered in spec/v2/declaration.json extensions (RFC 0180)",
		"node.progres":                         "org `node` is not registered",
		"openwop.run.started":                  "does not match the events.md §Types vendor grammar",
		"openwop.run":                          "does not match the events.md §Types vendor grammar",
		"Run.Started":                          "does not match",
		"run":                                  "does not match",
		"openwop-app.conversation.recall_used": "does not match",
		"":                                     "does not match",
		"{{unclosed":                           "does not match",
	} {
		got := eventNameRefusal(name)
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("eventNameRefusal(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestOW022EventNames(t *testing.T) {
	wc := kinds.WorkflowChainPack
	chain := func(eventName string) string {
		return chainWith(`"label": "One",`, `"label": "One", "trigger": {"kind": "event", "eventName": `+eventName+`},`)
	}
	hint := "{{params.triggerEventName}}"
	runLint(t, "OW022", []lintCase{
		{name: "templated", kind: wc, doc: chain(`"{{params.triggerEventName}}"`), reg: true},
		{name: "protocol type", kind: wc, doc: chain(`"approval.granted"`), reg: true},
		{name: "registered vendor org", kind: wc, doc: chain(`"openwop-app.forms.submission-created"`), reg: true},
		{name: "not a string", kind: wc, doc: chain(`{"eventName": "run.started"}`), reg: true},
		{name: "unregistered org, not for the registry", kind: wc, doc: chain(`"host.crm.contact.created"`)},
		{name: "unregistered org", kind: wc, doc: chain(`"acme.contact.created"`), reg: true,
			want: []hit{{ptr: "/chains/0/trigger/eventName", at: `"acme.contact.created"`, hint: hint}}},
		{name: "four segments", kind: wc, doc: chain(`"host.crm.contact.created"`), reg: true,
			want: []hit{{ptr: "/chains/0/trigger/eventName", at: `"host.crm.contact.created"`, hint: hint}}},
		{name: "openwop. prefix", kind: wc, doc: chain(`"openwop.run.started"`), reg: true,
			want: []hit{{ptr: "/chains/0/trigger/eventName", at: `"openwop.run.started"`, hint: "openwop-app"}}},
		{name: "typo of a protocol type", kind: wc, doc: chain(`"node.progres"`), reg: true,
			want: []hit{{ptr: "/chains/0/trigger/eventName", at: `"node.progres"`, hint: hint}}},
		{name: "nested in a non-string eventName", kind: wc, doc: chain(`{"eventName": "node.progres"}`), reg: true,
			want: []hit{{ptr: "/chains/0/trigger/eventName/eventName", at: `"node.progres"`}}},
		{name: "any depth, any pack kind", kind: kinds.NodePack, reg: true,
			doc: packWith(`"role": "pure"}`, `"role": "pure", "x-triggers": [{"on": {"eventName": "crm.lead.won"}}]}`),
			want: []hit{
				{ptr: "/nodes/0/x-triggers/0/on/eventName", at: `"crm.lead.won"`},
				{ptr: "/nodes/1/x-triggers/0/on/eventName", at: `"crm.lead.won"`, nth: 1},
			}},
	})
	ps := registryProblems(t, lintCase{kind: wc, doc: chain(`"node.progres"`), reg: true}, "OW022")
	if len(ps) != 1 {
		t.Fatalf("%d OW022 problems, want 1", len(ps))
	}
	p := ps[0]
	for _, w := range []string{`eventName "node.progres"`, "org `node` is not registered in spec/v2/declaration.json extensions (RFC 0180)", "the registry refuses it (check-pack-event-names)"} {
		if !strings.Contains(p.Message, w) {
			t.Errorf("message %q lacks %q", p.Message, w)
		}
	}
	if p.Severity != Error || !strings.Contains(p.Hint, "for a core pack bind `{{params.triggerEventName}}`") {
		t.Errorf("%s: severity %s, hint %q", p.Message, p.Severity, p.Hint)
	}
}

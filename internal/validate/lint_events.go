package validate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/lazyre"
)

// The registry's check-pack-event-names gate: a pack's trigger binds an
// event name a conformant host may emit. A binding no host can satisfy does
// not fail loudly: the chain never fires, or fires and files nothing.

//go:embed data/event-names.json
var eventNamesJSON []byte

// eventData is the spec's reference data the gate reads: the protocol event
// types (the v2 column of spec/v2/event-codemap.json) and the registered
// vendor orgs (the keys of spec/v2/declaration.json extensions).
type eventData struct {
	EventTypes struct {
		Grammar string   `json:"grammar"`
		Names   []string `json:"names"`
	} `json:"eventTypes"`
	RegisteredOrgs struct {
		Keys []string `json:"keys"`
	} `json:"registeredOrgs"`
	types map[string]bool
	orgs  map[string]bool
}

var eventNames = sync.OnceValue(func() *eventData {
	d := &eventData{}
	if err := json.Unmarshal(eventNamesJSON, d); err != nil {
		panic("validate: embedded event-names.json: " + err.Error()) // a build defect
	}
	d.types, d.orgs = map[string]bool{}, map[string]bool{}
	for _, n := range d.EventTypes.Names {
		d.types[n] = true
	}
	for _, o := range d.RegisteredOrgs.Keys {
		d.orgs[o] = true
	}
	sort.Strings(d.RegisteredOrgs.Keys)
	return d
})

// protocolEventType reports whether name is an event type of the protocol
// (the v2 column of spec/v2/event-codemap.json).
func protocolEventType(name string) bool { return eventNames().types[name] }

// registeredOrg reports whether org is a vendor org registered in
// spec/v2/declaration.json extensions (RFC 0180).
func registeredOrg(org string) bool { return eventNames().orgs[org] }

// vendorEventName is the vendor branch of events.md §Types: two or three
// kebab segments. The gate's regular expression also refuses an `openwop.`
// prefix with a lookahead, which RE2 lacks: eventNameRefusal checks it apart.
var vendorEventName = lazyre.New(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)?$`)

// templatedEventName is a binding the installing host resolves.
var templatedEventName = lazyre.New(`\{\{.*\}\}`)

// eventNameRefusal says why the gate refuses name, in its words, or "" when
// it admits it (templated, a protocol type, or a vendor type under a
// registered org).
func eventNameRefusal(name string) string {
	if templatedEventName.MatchString(name) || protocolEventType(name) {
		return ""
	}
	if strings.HasPrefix(name, "openwop.") || !vendorEventName.MatchString(name) {
		if segs := strings.Count(name, ".") + 1; segs > 3 {
			return fmt.Sprintf("%d segments — events.md §Types caps the vendor branch at 3", segs)
		}
		return "does not match the events.md §Types vendor grammar"
	}
	org, _, _ := strings.Cut(name, ".")
	if !registeredOrg(org) {
		return "org `" + org + "` is not registered in spec/v2/declaration.json extensions (RFC 0180)"
	}
	return ""
}

// OW022: every eventName (any depth, as the gate collects them) is
// templated, a protocol event type, or a vendor type of a registered org.
func checkEventNames(c *lintCtx) {
	if !c.opts.ForRegistry {
		return
	}
	orgs := strings.Join(eventNames().RegisteredOrgs.Keys, ", ")
	var walk func(ptr string, n *jsondoc.Node)
	walk = func(ptr string, n *jsondoc.Node) {
		switch n.Kind {
		case jsondoc.Object:
			for _, m := range n.Members {
				p := jsondoc.Child(ptr, m.Key)
				if m.Key == "eventName" && m.Value.Kind == jsondoc.String {
					if why := eventNameRefusal(m.Value.Str); why != "" {
						c.report(p, false,
							fmt.Sprintf("eventName %q names no event a conformant host may emit (%s): a trigger bound to it never fires, or fires and files nothing; %s", m.Value.Str, why, c.refusal("check-pack-event-names")),
							"for a core pack bind `{{params.triggerEventName}}` (the event belongs to the host; declare the parameter); otherwise name a protocol event type (spec/v2/event-codemap.json) or a vendor type <org>.<name> under a registered org ("+orgs+")")
					}
					continue
				}
				walk(p, m.Value)
			}
		case jsondoc.Array:
			for i, it := range n.Items {
				walk(jsondoc.Index(ptr, i), it)
			}
		}
	}
	walk("", c.doc.Root)
}

package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"
	"github.com/openwop/wopkit/internal/tui/wizard/review"

	"encoding/json"
	"slices"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// What the pages of the declarative kinds (prompt, card, ...) share: the
// list of entries of an entry (a prompt's variables, a card's inputs),
// checks through the scaffold's field pointers, and a number whose
// negative value leaves it out.

// declOrder is the place of the pages of the prompt, card, form-content
// and artifact-type kinds: after the chain pages, before the sign page.
// Pages of one order keep the order their file registers them in, and
// two of these kinds are never in one run.
const declOrder = 78

// entryList is a list page over the entries of entry at.i of a list: of
// is that entry, n, label, add and remove its list; page is the id of the
// page that asks one of them.
func entryList[P any](noun, plural, page string, min int, of func(a *answers, i int) *P, n func(p *P) int,
	label func(p *P, k int) string, add func(p *P), remove func(p *P, k int)) *listSpec {
	return &listSpec{noun: noun, plural: plural, min: min,
		count:  func(a *answers, at pos) int { return n(of(a, at.i)) },
		label:  func(a *answers, at pos, k int) string { return label(of(a, at.i), k) },
		add:    func(a *answers, at pos) { add(of(a, at.i)) },
		remove: func(a *answers, at pos, k int) { remove(of(a, at.i), k) },
		entry: func(at pos, k int) func(pos) bool {
			return func(p pos) bool { return p.pg.id == page && p.i == at.i && p.j == k }
		}}
}

// qualified is the input of a declarative entry's id, which the pack name
// prefixes (scaffold.Qualify): checked as it lands, at ptr.
func qualified(w *wizard, kind kinds.Kind, key, title string, tv ask.TextValue, ptr string) *huh.Input {
	k := w.k
	return k.Reg(k.Text(key, title, tv, "", ""), ask.Titled(title, ptr, k.Check(kind, ptr, func(s string) any {
		return scaffold.Qualify(w.a.name(), tv.Value(s).(string))
	})))
}

// wizardKinds are the scaffold's declarative pack kinds the wizard asks,
// by name: each kind's pages file registers its kind (askKind) beside its
// pages. The first page offers them, the wizard's answers hold one of each
// (answers.Kinds), and they are planned and adopted from the command line
// through the scaffold's descriptor: no other file names a kind.
var wizardKinds = map[string]scaffold.Kind{}

// askKind registers that the wizard asks the declarative pack kind name
// (from the init of the kind's pages file).
//
// draftKey, when not "", is the member where a draft kept before the kinds
// had one place held the kind's answers (upgradeDraft moves them).
func askKind(name, draftKey string) {
	k, ok := scaffold.PackKind(name)
	if !ok || k.Pack == nil {
		panic("tui: the scaffold has no pack kind " + name) // a build defect, not input
	}
	wizardKinds[name] = k
	if draftKey != "" {
		draftKinds[draftKey] = name
	}
}

// declared holds the answers of each declarative kind, by name; read
// from a draft, each is made as its kind's answers.
type declared map[string]any

func (d *declared) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if *d == nil {
		*d = declared{}
	}
	for name, r := range raw {
		k, ok := wizardKinds[name]
		if !ok {
			continue // a kind this wizard does not ask
		}
		v := k.New()
		if err := json.Unmarshal(r, v); err != nil {
			return err
		}
		(*d)[name] = v
	}
	return nil
}

// declaredOf is the answers of the declarative kind name, made when missing.
func declaredOf[A any](a *answers, name string) *A {
	if p, ok := a.Kinds[name].(*A); ok {
		return p
	}
	if a.Kinds == nil {
		a.Kinds = declared{}
	}
	k, _ := scaffold.PackKind(name)
	p, _ := k.New().(*A)
	if p == nil {
		p = new(A)
	}
	a.Kinds[name] = p
	return p
}

// declaredPlan is a copy of the answers of the declarative kind name with
// the pack's identity, as the scaffold plans them: the wizard keeps the
// identity once, in Pack, which the identity page asks.
func declaredPlan(a *answers, name string) any {
	k := wizardKinds[name]
	cp := k.New()
	if cur, ok := a.Kinds[name]; ok {
		copyAnswers(cp, cur)
	}
	*k.Pack(cp) = packIdentity(a.Pack.PackIdentity)
	return cp
}

// packIdentity is a copy of id that shares nothing with it.
func packIdentity(id scaffold.PackIdentity) scaffold.PackIdentity {
	id.Keywords = slices.Clone(id.Keywords)
	return id
}

// copyAnswers makes dst (a kind's answers, a pointer) a deep copy of src,
// of the same kind: planning must not write through to the answers.
func copyAnswers(dst, src any) {
	if b, err := json.Marshal(src); err == nil {
		_ = json.Unmarshal(b, dst) // answers the wizard wrote itself: they read back
	}
}

// planDeclared is the review of the answers of the declarative kind the
// wizard asks (ok false when a.What is no such kind).
func planDeclared(v *validate.Validator, a *answers) (out review.Planned, ok bool) {
	k, ok := wizardKinds[a.What]
	if !ok {
		return out, false
	}
	return planOne(k.Plan(declaredPlan(a, a.What), v)), true
}

// adopt starts the wizard from answers of a declarative kind given on the
// command line (--set kind=K, --values): they become that kind's answers,
// their identity the pack's, which the identity page asks. It reports
// whether given is the answers of a kind the wizard asks.
func adopt(a *answers, given any) bool {
	name, ok := scaffold.KindOfAnswers(given)
	if _, asked := wizardKinds[name]; !ok || !asked {
		return false
	}
	k := wizardKinds[name]
	cp := k.New()
	copyAnswers(cp, given)
	a.Kinds[name] = cp
	a.What = name
	a.Pack.PackIdentity = packIdentity(*k.Pack(cp))
	return true
}

// Asks reports whether the wizard asks for a pack of kind (`new pack --set
// kind=K` on a terminal opens it on that kind); the node pack is asked too.
func Asks(kind string) bool {
	_, ok := wizardKinds[kind]
	return kind == scaffold.KindNode || ok
}

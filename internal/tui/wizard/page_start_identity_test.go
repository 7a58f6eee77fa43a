package wizard

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/scaffold"
)

// identityValues is a value of each field of the pack's identity, unlike
// any default, and how it shows in pack.json. A field added to
// scaffold.PackIdentity fails TestIdentityReachesEveryKind until it has a
// value here, and then until every kind writes it.
var identityValues = map[string]struct {
	value any
	shows string // in pack.json
}{
	"Name":        {"community.idtest.every-kind", `"community.idtest.every-kind"`},
	"Version":     {"3.4.5", `"3.4.5"`},
	"Description": {"Identity test description.", `"Identity test description."`},
	"Author":      {"Ida Tester", `"Ida Tester"`},
	"License":     {"MIT", `"MIT"`},
	"Homepage":    {"https://home.example/idtest", `"https://home.example/idtest"`},
	"Repository":  {"https://repo.example/idtest", `"https://repo.example/idtest"`},
	"Keywords":    {[]string{"idtest-keyword"}, `"idtest-keyword"`},
	"Engines":     {">=2.1.0 <3.0.0", `">=2.1.0 <3.0.0"`},
	"Spec":        {scaffold.SpecV2, `"kind"`}, // v2 writes the pack's kind
}

// setIdentity sets every field of id to its test value (by reflection, so
// that no field is left out).
func setIdentity(t *testing.T, id *scaffold.PackIdentity) {
	t.Helper()
	v := reflect.ValueOf(id).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		want, ok := identityValues[f.Name]
		if !ok {
			t.Fatalf("scaffold.PackIdentity.%s has no test value: add one to identityValues", f.Name)
		}
		v.Field(i).Set(reflect.ValueOf(want.value))
	}
}

// TestIdentityReachesEveryKind: the identity page's answers (kept once, in
// Pack) are the identity of whatever the wizard plans: every field of it,
// in the pack.json of every kind.
func TestIdentityReachesEveryKind(t *testing.T) {
	whats := []string{whatNodes, whatMixed, whatAgent}
	for name := range wizardKinds {
		whats = append(whats, name)
	}
	slices.Sort(whats)
	for _, what := range whats {
		t.Run(what, func(t *testing.T) {
			a := newAnswers()
			a.What = what
			setIdentity(t, &a.Pack.PackIdentity)
			p := makePlan(testValidator, a)
			if p.Err != nil || len(p.Problems) > 0 {
				t.Fatalf("plan: %v %+v", p.Err, p.Problems)
			}
			f := p.Plan.File("pack.json")
			if f == nil {
				t.Fatal("no pack.json planned")
			}
			for field, want := range identityValues {
				if !strings.Contains(string(f.Data), want.shows) {
					t.Errorf("%s: pack.json lacks %s (%s):\n%s", what, field, want.shows, f.Data)
				}
			}
		})
	}
}

// TestAdoptedIdentityIsThePacks: answers of a kind given on the command
// line give the wizard their whole identity, kept in Pack, and are not
// shared with the wizard's copy.
func TestAdoptedIdentityIsThePacks(t *testing.T) {
	for name, k := range wizardKinds {
		t.Run(name, func(t *testing.T) {
			given := k.New()
			setIdentity(t, k.Pack(given))
			a := newAnswers()
			if !adopt(a, given) {
				t.Fatal("not adopted")
			}
			if a.What != name {
				t.Errorf("what %q", a.What)
			}
			want := *k.Pack(given)
			if !reflect.DeepEqual(a.Pack.PackIdentity, want) {
				t.Errorf("pack identity %+v, want %+v", a.Pack.PackIdentity, want)
			}
			a.Pack.Keywords[0] = "changed"
			if k.Pack(given).Keywords[0] == "changed" {
				t.Error("the adopted answers share their keywords with the given ones")
			}
			b1, _ := json.Marshal(a.Kinds[name])
			plan := declaredPlan(a, name)
			if k.Pack(plan).Keywords[0] != "changed" {
				t.Error("the plan is not planned with the pack's identity")
			}
			b2, _ := json.Marshal(a.Kinds[name])
			if string(b1) != string(b2) {
				t.Error("planning changed the kind's answers")
			}
		})
	}
}

package scaffold

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/kinds"
)

// TestKindsCoverPackKinds: every pack kind the validator knows has exactly
// one Kind (or is listed as not scaffolded, with its reason), and every
// pack Kind's schema is a pack kind whose const "kind" is its name.
func TestKindsCoverPackKinds(t *testing.T) {
	t.Parallel()
	for _, vk := range kinds.All() {
		if !kinds.IsPack(vk) {
			continue
		}
		var with []string
		for _, k := range Kinds() {
			if k.IsPack() && k.Schema == vk {
				with = append(with, k.Name)
			}
		}
		_, skipped := NotScaffolded[vk]
		switch {
		case skipped && len(with) > 0:
			t.Errorf("%s is listed as not scaffolded, but kinds %v write it", vk, with)
		case !skipped && len(with) != 1:
			t.Errorf("pack kind %s has %d descriptors (%v), want exactly one", vk, len(with), with)
		}
	}
	for _, k := range Kinds() {
		if !k.IsPack() {
			continue
		}
		if !kinds.IsPack(k.Schema) {
			t.Errorf("%s: %s is no pack kind", k.Name, k.Schema)
		}
		if got := orDefault(nil).FieldFor(kinds.V2, k.Schema, "/kind").Enum; k.Name != KindNode && !slices.Equal(got, []string{k.Name}) {
			t.Errorf("%s: the %s schema's kind is %v", k.Name, k.Schema, got)
		}
		if k.Plan == nil || k.New == nil || k.Readme == "" {
			t.Errorf("%s: a pack kind needs answers, a plan and a README", k.Name)
		}
	}
	if got := strings.Join(Verbs(), ","); got != "pack,agent,node,eval,tool,chain" {
		t.Errorf("verbs: %s", got)
	}
}

// sample is a --set value of the type the template has at key.
func sample(tmpl map[string]any, key string) (string, any) {
	var cur any = tmpl
	for _, tok := range strings.Split(key, ".") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			cur = c[0]
		}
	}
	switch cur.(type) {
	case bool:
		return "true", true
	case json.Number:
		return "2", json.Number("2")
	case []any:
		return "a1, b2", []any{"a1", "b2"}
	case map[string]any:
		return `{"x": "y"}`, map[string]any{"x": "y"}
	case nil: // derived while unset (an env var's secret flag)
		return "true", true
	}
	return "v1", "v1"
}

// TestKindSetKeysRoundTrip: every --set key of every kind is accepted by
// Set, lands where it says in the answers, and is listed by `new --help`.
func TestKindSetKeysRoundTrip(t *testing.T) {
	t.Parallel()
	help := strings.Join(strings.Fields(SetKeysHelp(96)), "")
	for _, line := range strings.Split(SetKeysHelp(96), "\n") {
		if strings.HasSuffix(line, " ") || len(line) > 96 {
			t.Errorf("help line %q: trailing space or wider than 96", line)
		}
	}
	for _, k := range Kinds() {
		keys := k.Keys()
		if len(keys) == 0 {
			t.Errorf("%s: no keys", k.Name)
		}
		if !strings.Contains(help, strings.Join(strings.Fields(k.SetHelp()), "")) {
			t.Errorf("%s: its keys are not in the help", k.Name)
		}
		if got, want := expandHelp(k.SetHelp()), slices.Sorted(slices.Values(keys)); !slices.Equal(got, want) {
			t.Errorf("%s: the help lists\n%v\nthe answers take\n%v", k.Name, got, want)
		}
		tmpl := fullTemplate(k.New())
		for _, key := range keys {
			if key == "kind" {
				continue // it chose the answers
			}
			set := strings.ReplaceAll(key, ".N", ".0")
			val, want := sample(tmpl, key)
			a := k.New()
			if err := Set(a, set, val); err != nil {
				t.Errorf("%s: --set %s=%s: %v", k.Name, set, val, err)
				continue
			}
			m, _ := toMap(a)
			var got any = m
			for _, tok := range strings.Split(set, ".") {
				switch g := got.(type) {
				case map[string]any:
					got = g[tok]
				case []any:
					var i int
					fmt.Sscan(tok, &i)
					got = g[i]
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: --set %s=%s gave %v", k.Name, set, val, got)
			}
		}
		for from, to := range k.Aliases {
			if !slices.ContainsFunc(keys, func(s string) bool { return strings.HasPrefix(s, strings.ReplaceAll(to, ".0.", ".N.")) }) {
				t.Errorf("%s: alias %s names %s, which no key starts with", k.Name, from, to)
			}
		}
	}
}

// expandHelp lists the keys a kind's help line names (its groups
// "a.b|c" expanded to a.b and a.c), sorted, the aliases left out.
func expandHelp(h string) []string {
	h, _, _ = strings.Cut(h, ";")
	var out []string
	for _, g := range strings.Split(h, ", ") {
		parts := strings.Split(g, "|")
		parent := ""
		if i := strings.LastIndexByte(parts[0], '.'); i >= 0 {
			parent = parts[0][:i+1]
		}
		out = append(out, parts[0])
		for _, p := range parts[1:] {
			out = append(out, parent+p)
		}
	}
	slices.Sort(out)
	return out
}

// TestPointerMapRoundTrip: each kind's pointer map takes every answer it
// covers to a pointer and back, and a pointer below an answer's place to
// that answer.
func TestPointerMapRoundTrip(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds() {
		if k.Pointers == nil {
			continue
		}
		if len(k.Pointers.Fields()) == 0 {
			t.Errorf("%s: the pointer map is empty", k.Name)
		}
		for _, f := range k.Pointers.Fields() {
			field := strings.ReplaceAll(strings.ReplaceAll(f+".", ".N.", ".1."), ".N.", ".1.")
			field = strings.TrimSuffix(field, ".")
			ptr := k.Pointers.Pointer(field)
			if ptr == "" || k.Pointers.Field(ptr) != field {
				t.Errorf("%s: %s is at %q, which is %q", k.Name, field, ptr, k.Pointers.Field(ptr))
			}
		}
	}
	m := connectionPointers
	for field, ptr := range map[string]string{
		"provider.server": "/provider/reach/mcp/server/url", "provider.auth.flow": "/provider/auth/authFlow",
		"provider.auth.read.2.scopes": "/provider/auth/scopes/read/2/scopes", "engines": "/engines/openwop", "spec": "",
	} {
		if got := m.Pointer(field); got != ptr {
			t.Errorf("%s is at %q, want %q", field, got, ptr)
		}
	}
	if got := m.Field("/provider/auth/scopes/write/0/scopes/3"); got != "provider.auth.write.0.scopes" {
		t.Errorf("a scope string is %q", got)
	}
}

// TestPackKindsAreTableRows: every pack kind `wopkit new` writes is a row of
// the kind table, with the row's validator kind.
func TestPackKindsAreTableRows(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds() {
		row, ok := k.Row()
		if ok != k.IsPack() || ok && row.Doc != k.Schema {
			t.Errorf("%s: row %+v (found %v) does not match the kind's schema %s", k.Name, row, ok, k.Schema)
		}
	}
}

package scaffold

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/internal/words"
)

// Set applies one `--set KEY=VALUE` to answers (a pointer to PackAnswers,
// ChainPackAnswers, ChainAnswers, PromptPackAnswers,
// ConnectionPackAnswers, CardPackAnswers, FormPackAnswers,
// ArtifactPackAnswers, AgentAnswers, NodeAnswers, EvalAnswers or
// ToolAnswers). KEY is a dotted path of the answers' JSON
// names ("runtime.language", "nodes.0.id", "eval.modes"); list values are
// comma-separated; a nested optional block ("eval") is switched on by
// setting any key below it, or with "eval=true". An open object (a chain
// step's config) takes any key as a string, or a whole JSON object. An
// unknown key is a usage error naming the known keys.
func Set(answers any, key, value string) error {
	cur, err := toMap(answers)
	if err != nil {
		return err
	}
	full := fullTemplate(answers)
	toks := strings.Split(key, ".")
	if err := setPath(cur, full, toks, value); err != nil {
		e := werr.Wrap(werr.Usage, "usage", err, "cannot set %s", key)
		if werr.CodeOf(err) == codeUnknownKey {
			// the nearest few, not every key (issue 35, item 8: a typo
			// listed sixty); --list-keys lists them all
			known := Keys(answers)
			list := "the nearest known keys: " + strings.Join(nearestKeys(key, known, 5), ", ") +
				fmt.Sprintf(" (N: a list index; `wopkit new --list-keys` lists all %d)", len(known))
			if near := nearKey(key, known); near != "" {
				e = e.WithHint("did you mean %s? %s", near, list)
			} else {
				e = e.WithHint("%s", list)
			}
		}
		return e
	}
	return fromMap(cur, answers, key)
}

// codeUnknownKey is the code of a --set key the answers do not have; Set
// adds the list of known keys as its hint.
const codeUnknownKey = "set_unknown_key"

// Values applies a JSON object of answers (`--values FILE`) on top of the
// current ones; members it does not name keep their value.
func Values(answers any, data []byte) error {
	var patch map[string]any
	if err := json.Unmarshal(data, &patch); err != nil {
		return werr.Wrap(werr.Usage, "usage", err, "the --values file is not a JSON object").
			WithHint("write the answers as one JSON object, e.g. {\"name\": \"vendor.acme.hello\"}")
	}
	cur, err := toMap(answers)
	if err != nil {
		return err
	}
	merge(cur, patch)
	return fromMap(cur, answers, "--values")
}

func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// Keys lists the dotted keys answers accept, sorted (list items as "N").
func Keys(answers any) []string {
	var out []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			if len(t) == 0 && prefix != "" { // an open object (config): any key, or a JSON object
				out = append(out, prefix)
			}
			for k, x := range t {
				walk(join(prefix, k), x)
			}
		case []any:
			if len(t) > 0 {
				if _, ok := t[0].(map[string]any); ok {
					walk(prefix+".N", t[0])
					return
				}
			}
			out = append(out, prefix)
		default:
			out = append(out, prefix)
		}
	}
	walk("", fullTemplate(answers))
	sort.Strings(out)
	return out
}

// fullTemplate is the answers' defaults with every optional block present,
// so that every key can be named.
func fullTemplate(answers any) map[string]any {
	var v any
	if k, ok := kindOfAnswers(answers); ok {
		v = k.template()
	}
	m, _ := toMap(v)
	return m
}

func fullAgent() AgentAnswers {
	ag := AgentAnswers{}.Defaults()
	ev := fullEval()
	ag.Eval = &ev
	return ag
}

// fullEval is the eval defaults with empty lists instead of nil ones, so
// that their keys are known to be lists.
func fullEval() EvalAnswers {
	ev := EvalAnswers{}.Defaults()
	ev.AllowedModels = []string{}
	for i := range ev.Tasks {
		ev.Tasks[i].Criteria = []string{}
	}
	return ev
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "scaffold_answers", err, "cannot read the answers")
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return nil, werr.Wrap(werr.Env, "scaffold_answers", err, "cannot read the answers")
	}
	return m, nil
}

func fromMap(m map[string]any, answers any, what string) error {
	b, err := json.Marshal(m)
	if err != nil {
		return werr.Wrap(werr.Usage, "usage", err, "cannot apply %s", what)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(answers); err != nil {
		return werr.Wrap(werr.Usage, "usage", err, "cannot apply %s", what).
			WithHint("check the names and types against `wopkit new --list-keys`; known keys: %s", strings.Join(Keys(answers), ", "))
	}
	return nil
}

// setPath sets toks in cur to value, typed like the same place in full.
func setPath(cur, full map[string]any, toks []string, value string) error {
	k := toks[0]
	tmpl, ok := full[k]
	if !ok && len(full) == 0 && len(toks) == 1 {
		tmpl, ok = "", true // an open object (a step's config) takes any key, as a string
	}
	if !ok {
		return errUnknown(k)
	}
	if len(toks) == 1 {
		v, err := typed(tmpl, value)
		if err != nil {
			return err
		}
		cur[k] = v
		return nil
	}
	switch t := tmpl.(type) {
	case map[string]any:
		sub, ok := cur[k].(map[string]any)
		if !ok {
			sub = clone(t)
			cur[k] = sub
		}
		return setPath(sub, t, toks[1:], value)
	case []any:
		i, err := strconv.Atoi(toks[1])
		if err != nil || len(t) == 0 {
			return errUnknown(k + "." + toks[1])
		}
		itemTmpl, ok := t[0].(map[string]any)
		if !ok {
			return errUnknown(k + "." + toks[1])
		}
		list, _ := cur[k].([]any)
		if i < 0 || i > len(list) {
			return werr.New(werr.Usage, "usage", "%s has %d item(s): set index %d first", k, len(list), len(list))
		}
		if i == len(list) {
			item := clone(itemTmpl)
			if _, ok := item["eval"]; ok {
				item["eval"] = nil // optional blocks start off
			}
			list = append(list, item)
			cur[k] = list
		}
		item, _ := list[i].(map[string]any)
		if len(toks) == 2 {
			return errUnknown(k + "." + toks[1])
		}
		return setPath(item, itemTmpl, toks[2:], value)
	}
	return errUnknown(strings.Join(toks, "."))
}

func errUnknown(k string) error {
	return werr.New(werr.Usage, codeUnknownKey, "unknown key %q", k)
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&out)
	return out
}

// typed converts a --set string to the type of the template value.
func typed(tmpl any, s string) (any, error) {
	switch t := tmpl.(type) {
	case nil: // an answer derived while unset (an env var's secret flag): true and false are flags
		if s == "true" || s == "false" {
			return s == "true", nil
		}
	case bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, werr.New(werr.Usage, "usage", "%q is not true or false", s)
		}
		return b, nil
	case json.Number:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, werr.New(werr.Usage, "usage", "%q is not a number", s)
		}
		return f, nil
	case []any:
		out := []any{}
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
		return out, nil
	case map[string]any:
		switch s {
		case "true":
			return clone(t), nil
		case "false", "null", "":
			return nil, nil
		}
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, werr.New(werr.Usage, "usage", "give a JSON object, true or false")
		}
		return v, nil
	}
	return s, nil
}

// keyPattern is key in lower case with each list index read as N, as the
// known keys spell them.
func keyPattern(key string) string {
	toks := strings.Split(key, ".")
	for i, t := range toks {
		if t != "" && strings.Trim(t, "0123456789") == "" {
			toks[i] = "N"
		}
	}
	return strings.ToLower(strings.Join(toks, "."))
}

// nearKey is the known key closest to key (a list index in key read as
// N), when it is a near miss: at most a quarter of its letters, and at
// least two, differ. "" when none is that near.
func nearKey(key string, known []string) string {
	k := keyPattern(key)
	best, bestD := "", max(2, len(k)/4)+1
	for _, c := range known {
		if d := words.Distance(k, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// nearestKeys are the n known keys closest to key by edit distance (a
// list index read as N), the closest first.
func nearestKeys(key string, known []string, n int) []string {
	k := keyPattern(key)
	out := slices.Clone(known)
	d := make(map[string]int, len(out))
	for _, c := range out {
		d[c] = words.Distance(k, strings.ToLower(c))
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(d[a], d[b]) })
	return out[:min(n, len(out))]
}

package scaffold

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// Kind describes one thing `wopkit new` writes: a pack of one kind (node,
// workflow-chain, prompt, connection, card, form-content, artifact-type),
// or a document that is not a pack (a tool manifest, a standalone agent or
// eval suite, a node or chain added into a pack). It is one value that
// owns everything about its answers: their defaults, the `--set` keys and
// their aliases (and the help that lists them), the mapping between
// answers and JSON pointers, the validator's kind, the README template
// and the plan. `wopkit new`, Set and the wizard all iterate Kinds(); each
// kind registers itself from its own file (registerKind), so that adding a
// kind is its file, its template and, for the wizard, its pages file.
type Kind struct {
	// Name is the pack.json "kind" of a pack kind, else the document's
	// name (tool, agent, eval, node, chain).
	Name string
	// Verb is the argument of `wopkit new` that writes it: "pack" for
	// every pack kind (`new pack --set kind=NAME`).
	Verb string
	// Order is the place in menus and help (smaller first).
	Order int
	// About is one line for a menu ("A prompt pack (…)").
	About string
	// Schema is the validator's kind of the document written.
	Schema kinds.Kind
	// Readme is the README template (under templates/), "" for none.
	Readme string
	// New returns the default answers, a pointer (for Set and Values).
	New func() any
	// Full returns answers with every optional block present, so that
	// every --set key can be named (nil: New).
	Full func() any
	// Aliases let --set name the first entry of a list without an index
	// ("chain." for "chains.0.").
	Aliases map[string]string
	// Pack returns the answers that name and describe the pack (name,
	// version, spec, …) within a pack kind's answers, node or declarative
	// alike: `new pack` fills them from --dir and --spec before the answers
	// given, and names the folder after them. Nil for the kinds that are
	// not packs.
	Pack func(answers any) *PackIdentity
	// Plan computes the files of answers (a pointer New returned); nil for
	// the kinds added into an existing pack, planned with their PackSource.
	Plan func(answers any, v *validate.Validator) (*Plan, error)
	// Pointers maps the answers to pack.json pointers and back, derived
	// once from the answers' structure (see pointerMap); nil for the kinds
	// whose problems are mapped by their own documents.
	Pointers *PointerMap
}

// Row is the kind table's row of a pack kind: a Kind is that row plus its
// authoring hooks (false for the kinds that are not packs).
func (k Kind) Row() (kinds.Pack, bool) {
	if !k.IsPack() {
		return kinds.Pack{}, false
	}
	return kinds.PackNamed(k.Name)
}

// IsPack reports whether the kind is a pack kind (`new pack`).
func (k Kind) IsPack() bool { return k.Verb == "pack" }

// template is the answers Set types --set values after.
func (k Kind) template() any {
	if k.Full != nil {
		return k.Full()
	}
	return k.New()
}

// Keys lists the kind's --set keys in the answers' order (list items as
// "N"; see Keys for them sorted).
func (k Kind) Keys() []string { return orderedKeys(k.template()) }

// SetHelp is the kind's --set keys as `new --help` lists them: the keys
// of one object joined with "|" after their common path, then the aliases.
func (k Kind) SetHelp() string {
	var groups []string
	last := ""
	for _, key := range k.Keys() {
		parent, leaf := "", key
		if i := strings.LastIndexByte(key, '.'); i >= 0 {
			parent, leaf = key[:i+1], key[i+1:]
		}
		if len(groups) > 0 && parent == last && parent != "" {
			groups[len(groups)-1] += "|" + leaf
			continue
		}
		groups = append(groups, key)
		last = parent
	}
	out := strings.Join(groups, ", ")
	for _, from := range slices.Sorted(maps.Keys(k.Aliases)) {
		out += "; " + from + "<key> for " + k.Aliases[from] + "<key>"
	}
	return out
}

// NotScaffolded are the pack kinds the validator knows that `wopkit new`
// does not write, with the reason (every other pack kind has a Kind).
var NotScaffolded = map[kinds.Kind]string{kinds.FrontendPlugin: "a frontend plugin is a UI bundle built with its own web tooling: wopkit validates, packs and signs one, but does not scaffold it", kinds.OtherPack: "a pack kind no schema covers"}

// registered are the kinds `wopkit new` writes, in Order.
var registered []Kind

// registerKind adds a kind (from its file's init).
func registerKind(k Kind) {
	registered = append(registered, k)
	slices.SortStableFunc(registered, func(a, b Kind) int { return a.Order - b.Order })
}

// Kinds returns every kind `wopkit new` writes, in order.
func Kinds() []Kind { return slices.Clone(registered) }

// PackKind returns the pack kind of a pack.json "kind" value.
func PackKind(name string) (Kind, bool) {
	for _, k := range registered {
		if k.IsPack() && k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Verbs lists the arguments of `wopkit new`, in order.
func Verbs() []string {
	var out []string
	for _, k := range registered {
		if !slices.Contains(out, k.Verb) {
			out = append(out, k.Verb)
		}
	}
	return out
}

// KindOfAnswers is the name of the kind whose answers answers is (a
// pointer to them), and whether it is one.
func KindOfAnswers(answers any) (string, bool) {
	k, ok := kindOfAnswers(answers)
	return k.Name, ok
}

// kindOfAnswers returns the kind whose answers answers is (a pointer).
func kindOfAnswers(answers any) (Kind, bool) {
	t := reflect.TypeOf(answers)
	for _, k := range registered {
		if reflect.TypeOf(k.New()) == t {
			return k, true
		}
	}
	return Kind{}, false
}

// newKind is a kind whose answers are A, with New from defaults.
func newKind[A any](k Kind, defaults func() A) Kind {
	k.New = func() any { a := defaults(); return &a }
	return k
}

// planned adapts a plan function of A to Kind.Plan.
func planned[A any](plan func(A, *validate.Validator) (*Plan, error)) func(any, *validate.Validator) (*Plan, error) {
	return func(a any, v *validate.Validator) (*Plan, error) { return plan(*a.(*A), v) }
}

// declKind is a declarative pack kind (no runtime) whose answers are A;
// name is its row in the kind table.
func declKind[A any](name string, order int, about, readme string, defaults func() A,
	id func(*A) *Identity, plan func(A, *validate.Validator) (*Plan, error)) Kind {
	row, _ := kinds.PackNamed(name)
	k := newKind(Kind{Name: name, Verb: "pack", Order: order, About: about, Schema: row.Doc, Readme: readme}, defaults)
	k.Pack = func(a any) *PackIdentity { return &id(a.(*A)).PackIdentity }
	k.Plan = planned(plan)
	return k
}

// orderedKeys lists the dotted keys of v's JSON in document order (lists
// of objects as "N" with their first item's keys; an empty object, which
// takes any key, as itself).
func orderedKeys(v any) []string {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []string
	var value func(prefix string) bool
	value = func(prefix string) bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			n := 0
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return false
				}
				n++
				if !value(join(prefix, kt.(string))) {
					return false
				}
			}
			d.Token() // }
			if n == 0 && prefix != "" {
				out = append(out, prefix)
			}
		case json.Delim('['):
			first, objects := true, false
			for d.More() {
				if first {
					var raw json.RawMessage
					if d.Decode(&raw) != nil {
						return false
					}
					if len(raw) > 0 && raw[0] == '{' {
						objects = true
						out = append(out, orderedKeysOf(raw, prefix+".N")...)
					}
					first = false
					continue
				}
				var skip json.RawMessage
				if d.Decode(&skip) != nil {
					return false
				}
			}
			d.Token() // ]
			if !objects {
				out = append(out, prefix)
			}
		default:
			out = append(out, prefix)
		}
		return true
	}
	value("")
	return out
}

func orderedKeysOf(raw json.RawMessage, prefix string) []string {
	var v any = raw
	keys := orderedKeys(v)
	for i, k := range keys {
		keys[i] = join(prefix, k)
	}
	return keys
}

// SetKeysHelp is the list of --set keys of every kind, as `new --help`
// shows it: a heading per kind ("pack", "pack kind=prompt", "agent"), its
// keys wrapped to width under it.
func SetKeysHelp(width int) string {
	var b strings.Builder
	for _, k := range registered {
		head := k.Verb
		if k.IsPack() && k.Name != KindNode {
			head = "pack kind=" + k.Name
		}
		b.WriteString(wrapHelp("  "+head+": "+k.SetHelp(), width, "      "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// wrapHelp wraps text at spaces to width, continuation lines indented,
// without trailing spaces; a word longer than the line stays whole.
func wrapHelp(text string, width int, indent string) string {
	var b strings.Builder
	line := ""
	var words []string
	for _, w := range strings.Fields(text) { // a list of keys longer than a line breaks after a |
		for room := width - len(indent); len(w) > room; {
			i := strings.LastIndexByte(w[:room], '|')
			if i < 0 {
				break
			}
			words, w = append(words, w[:i+1]), w[i+1:]
		}
		words = append(words, w)
	}
	for _, w := range words {
		switch {
		case line == "":
			line = w
			if b.Len() == 0 && strings.HasPrefix(text, " ") {
				line = text[:len(text)-len(strings.TrimLeft(text, " "))] + w
			}
		case len(line)+1+len(w) > width:
			b.WriteString(line + "\n")
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	return b.String()
}

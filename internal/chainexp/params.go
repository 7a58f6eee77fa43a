package chainexp

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/werr"
	"github.com/openwop/wopkit/third_party/jsonschema"
	"github.com/openwop/wopkit/third_party/jsonschema/kind"
)

// printer words the schema failures; made on first use.
var printer = sync.OnceValue(func() *message.Printer { return message.NewPrinter(language.English) })

// CheckParams is step 4, which the library leaves to its caller: params
// must be valid against the chain's parameters schema (JSON Schema
// 2020-12, formats asserted, as the spec's Ajv check does) before anything
// is expanded. A failure is chain_parameter_invalid with the failing JSON
// pointer in details.path (for a missing required parameter, the pointer
// of the parameter that is missing) and every failure in details.errors.
// A chain without a parameters schema accepts any params.
func CheckParams(ch *Chain, params *jsvalue.Object) error {
	if ch.Parameters == nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{}) // a $ref to anything outside the schema is not fetched (no files, no network)
	const url = "urn:wopkit:chain-parameters"
	if err := c.AddResource(url, jsvalue.Plain(ch.Parameters)); err != nil {
		return schemaUnusable(ch, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return schemaUnusable(ch, err)
	}
	var inst any = map[string]any{}
	if params != nil {
		inst = jsvalue.Plain(params)
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return werr.Wrap(werr.Invalid, CodeParameterInvalid, err, "the parameters of chain %s cannot be checked", ch.ID)
	}
	type failure struct{ path, msg string }
	var fails []failure
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		path := jsondoc.Pointer(e.InstanceLocation...)
		if r, ok := e.ErrorKind.(*kind.Required); ok {
			for _, m := range r.Missing {
				fails = append(fails, failure{path + jsondoc.Pointer(m), "required parameter missing"})
			}
			return
		}
		fails = append(fails, failure{path, e.ErrorKind.LocalizedString(printer())})
	}
	walk(ve)
	slices.SortStableFunc(fails, func(a, b failure) int { return cmp.Compare(a.path, b.path) })
	if len(fails) == 0 {
		fails = append(fails, failure{"", ve.ErrorKind.LocalizedString(printer())})
	}
	list := make([]any, len(fails))
	var lines []string
	for i, f := range fails {
		list[i] = details("path", f.path, "message", f.msg)
		where := f.path
		if where == "" {
			where = "(the parameters)"
		}
		lines = append(lines, where+": "+f.msg)
	}
	return refusal(CodeParameterInvalid, details("chainId", ch.ID, "path", fails[0].path, "errors", list),
		"give parameters the chain's parameters schema accepts (--params FILE, a JSON object)",
		"chain_parameter_invalid: the parameters of chain '%s' do not match its parameters schema: %s", ch.ID, strings.Join(lines, "; "))
}

// noLoader loads nothing: a parameters schema is read from an untrusted
// pack and may only refer inside itself.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, werr.New(werr.Invalid, CodeParameterInvalid, "the parameters schema refers to %s, outside itself", url)
}

func schemaUnusable(ch *Chain, err error) error {
	return &Error{
		Err: werr.Wrap(werr.Invalid, CodeParameterInvalid, err, "chain_parameter_invalid: the parameters schema of chain '%s' cannot be compiled", ch.ID).
			WithHint("run `wopkit validate` on the pack"),
		Details: details("chainId", ch.ID, "path", ""),
	}
}

// WithDefaults returns params with, for each top-level property the
// chain's parameters schema declares with a default and params lacks, that
// default: what a host's parameter form shows the author before they type
// (the library itself applies no defaults). params is not changed.
func WithDefaults(ch *Chain, params *jsvalue.Object) *jsvalue.Object {
	out := &jsvalue.Object{}
	if params != nil {
		out.Members = append(out.Members, params.Members...)
	}
	schema, _ := ch.Parameters.(*jsvalue.Object)
	pv, _ := schema.Get("properties")
	props, _ := pv.(*jsvalue.Object)
	if props == nil {
		return out
	}
	for _, m := range props.Members {
		p, _ := m.Value.(*jsvalue.Object)
		d, ok := p.Get("default")
		if _, has := out.Get(m.Key); ok && !has {
			out.Set(m.Key, d)
		}
	}
	return out
}

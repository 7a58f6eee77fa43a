package chainexp

import (
	"strings"

	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/termsafe"
)

// PreviewID is the expansion id of a preview.
const PreviewID = "preview"

// Preview is the readable expansion of each chain of a chain pack's
// manifest (or only chainID's) with its default parameters, as the wizard's
// summary and the editor show it: every typeId is taken as resolvable (the
// host is not known here; `wopkit chain expand` checks them), the
// expansion id is "preview", and a parameter the defaults leave invalid is
// said before the expansion instead of refusing it.
func Preview(manifest []byte, chainID string) string {
	p, err := ParsePack(manifest, "pack.json")
	if err != nil {
		return "cannot preview the expansion: " + termsafe.String(err.Error()) + "\n"
	}
	ids := p.ChainIDs()
	if chainID != "" {
		ids = []string{chainID}
	}
	if len(ids) == 0 {
		return "the pack has no chains to expand\n"
	}
	var sb strings.Builder
	for i, id := range ids {
		if i > 0 {
			sb.WriteByte('\n')
		}
		ch, err := p.Chain(id)
		if err != nil {
			sb.WriteString(termsafe.String(err.Error()) + "\n")
			continue
		}
		params := WithDefaults(ch, nil)
		if err := CheckParams(ch, params); err != nil {
			sb.WriteString(termsafe.String(id) + ": the default parameters do not fit its schema (" + paramFailures(err) + "); shown with \"\" for each missing one\n")
		}
		f, err := Expand(ch, Options{ExpansionID: PreviewID, Params: params, Resolvable: func(string) bool { return true }})
		if err != nil {
			sb.WriteString(termsafe.String(err.Error()) + "\n")
			continue
		}
		sb.WriteString(Text(id, PreviewID, f.Value()))
	}
	return sb.String()
}

// paramFailures lists a chain_parameter_invalid error's failures in short.
func paramFailures(err error) string {
	e, ok := err.(*Error)
	if !ok {
		return termsafe.String(err.Error())
	}
	ev, _ := e.Details.Get("errors")
	list, _ := ev.([]any)
	var parts []string
	for _, f := range list {
		fo, _ := f.(*jsvalue.Object)
		p, _ := fo.Get("path")
		m, _ := fo.Get("message")
		parts = append(parts, jsvalue.JSString(p)+": "+jsvalue.JSString(m))
	}
	if len(parts) == 0 {
		return termsafe.String(e.Err.Msg)
	}
	return termsafe.String(strings.Join(parts, ", "))
}

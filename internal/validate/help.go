package validate

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
)

// Help is the author-facing help for the value at pointer in a document of
// kind k: the catalogue's words when it has the field, otherwise the first
// sentences of the schema's description that speak to an author (see
// AuthorText). The wizard shows it beside a field, the editor and
// `wopkit lsp` on hover, so all three say the same.
func (v *Validator) Help(k kinds.Kind, pointer string) string {
	return v.HelpFor(v.opts.Spec, k, pointer)
}

// HelpFor is Help for a document of kind k under spec version spec.
func (v *Validator) HelpFor(spec kinds.Spec, k kinds.Kind, pointer string) string {
	if s := catalogueHelp(k, pointer); s != "" {
		// {format} is the field's pattern in the words its check's
		// refusal uses: the help cannot describe another form.
		if strings.Contains(s, "{format}") {
			s = strings.ReplaceAll(s, "{format}", strings.TrimSuffix(v.FieldFor(spec, k, pointer).PatternHelp, "."))
		}
		return s
	}
	return AuthorText(v.FieldFor(spec, k, pointer).Description)
}

//go:embed data/help.json
var helpJSON []byte

var (
	helpOnce sync.Once
	helpData map[string]map[string]string // kind -> pointer pattern ("*" for an index or open key) -> text
)

// catalogueHelp is the catalogue's help for the field; "" when it has none.
func catalogueHelp(k kinds.Kind, pointer string) string {
	helpOnce.Do(func() {
		if err := json.Unmarshal(helpJSON, &helpData); err != nil {
			panic("validate: embedded help.json: " + err.Error()) // a build defect
		}
	})
	m := helpData[string(k)]
	if m == nil {
		return ""
	}
	if s, ok := m[pointer]; ok {
		return s
	}
	return m[helpPattern(pointer)]
}

// helpPattern replaces the list indexes of pointer by "*".
func helpPattern(pointer string) string {
	toks := jsondoc.SplitPointer(pointer)
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		if t != "" && strings.Trim(t, "0123456789") == "" {
			b.WriteByte('*')
			continue
		}
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// specWords mark a sentence written for the spec's or the schema's authors
// rather than for a pack author: requirement keywords, references to RFCs,
// sections, schema machinery, and the reasons behind a bound. Code marks
// (backquotes) are dropped and the words kept.
var specWords = lazyre.New(`\b(MUST|SHOULD|SHALL|REQUIRED|RECOMMENDED|MAY|NOT|NEVER)\b|RFC|§|` +
	`\$ref|\$id|\bv\d+\.\d+|\bspec\b|[Bb]ounded at|rather than|\bbecause\b|[Aa]dding a kind|single edit|` +
	`[Bb]ackward[- ]compat|\bregistry'?s? (validator|scripts?)\b|\bajv\b|\bcodemap\b|\bTODO\b|\bgrammar\b|` +
	`\bper the\b|\binvariant\b`)

// AuthorText keeps the first sentences of a schema description that speak
// to an author: sentences with spec words (see specWords) are left out,
// and at most about 200 characters are kept, ending on a sentence.
func AuthorText(d string) string {
	d = strings.Join(strings.Fields(strings.ReplaceAll(d, "`", "")), " ")
	var keep []string
	n := 0
	for _, s := range splitSentences(d) {
		if specWords.MatchString(s) {
			continue
		}
		if n+len(s) > 200 && n > 0 {
			break
		}
		keep = append(keep, s)
		n += len(s)
		if n > 80 {
			break
		}
	}
	out := strings.TrimSpace(strings.Join(keep, " "))
	if r := []rune(out); len(r) > 200 {
		// One long sentence: cut at the last word that fits.
		cut := string(r[:199])
		if i := strings.LastIndexByte(cut, ' '); i > 100 {
			cut = cut[:i]
		}
		out = strings.TrimRight(cut, " ,;:") + "…"
	}
	return out
}

// splitSentences splits at ". ", "! ", "? " and "; " followed by a capital
// letter, keeping the punctuation; "e.g. x" and "i.e. x" do not end one.
func splitSentences(d string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(d); i++ {
		c := d[i]
		if (c == '.' || c == '!' || c == '?') && d[i+1] == ' ' {
			prev := d[start : i+1]
			if strings.HasSuffix(prev, "e.g.") || strings.HasSuffix(prev, "i.e.") || strings.HasSuffix(prev, "etc.") && !isUpper(d[i+2]) {
				continue
			}
			out = append(out, strings.TrimSpace(d[start:i+1]))
			start = i + 2
		}
	}
	if s := strings.TrimSpace(d[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

package scaffold

import (
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/validate"
)

// TestDeclarativeAnswersNoPanic sets every key of the chain, prompt,
// connection, card, form and artifact-type answers to awkward values and plans the pack: each ends in a plan or in
// errors, never a panic, and a refused value names a field or says why.
func TestDeclarativeAnswersNoPanic(t *testing.T) {
	values := []string{"", "x", "0", "-1", "1e400", "true", "{}", "[]", "null", `{"a":"{{params.zz}}"}`, "a,b,a", "{{params.url}}", strings.Repeat("é", 300)}
	fresh := map[string]func() any{
		"chain-pack":    func() any { a := ChainPackAnswers{}.Defaults(); a.Name = "vendor.acme.c"; return &a },
		"prompt-pack":   func() any { a := PromptPackAnswers{}.Defaults(); a.Name = "vendor.acme.p"; return &a },
		"card-pack":     func() any { a := CardPackAnswers{}.Defaults(); a.Name = "vendor.acme.d"; return &a },
		"form-pack":     func() any { a := FormPackAnswers{}.Defaults(); a.Name = "vendor.acme.f"; return &a },
		"artifact-pack": func() any { a := ArtifactPackAnswers{}.Defaults(); a.Name = "vendor.acme.a"; return &a },
		"connection-pack": func() any {
			a := ConnectionPackAnswers{}.Defaults()
			a.Name = "vendor.acme.c"
			return &a
		},
	}
	src := writeChainPack(t)
	fresh["chain"] = func() any { c := ChainAnswers{}.Defaults(); c.ID = "other"; return &c }
	checked := 0
	for name, mk := range fresh {
		for _, key := range Keys(mk()) {
			key = strings.ReplaceAll(key, ".N", ".0")
			for _, val := range values {
				a := mk()
				if err := Set(a, key, val); err != nil {
					continue // a usage error: fine
				}
				checked++
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s: %s=%q panics: %v", name, key, val, r)
						}
					}()
					var errs FieldErrors
					switch x := a.(type) {
					case interface {
						Check(*validate.Validator) FieldErrors
					}: // a pack kind's answers
						errs = x.Check(nil)
					case *ChainAnswers:
						errs = x.Check(src, nil)
					}
					for _, e := range errs {
						if e.Message == "" {
							t.Errorf("%s: %s=%q: a problem without words: %+v", name, key, val, e)
						}
					}
				}()
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d answers were planned: the keys or values do not apply", checked)
	}
}

// every declarative kind's answers are checked by the first case above
var _ = []interface {
	Check(*validate.Validator) FieldErrors
}{&ChainPackAnswers{}, &PromptPackAnswers{}, &ConnectionPackAnswers{}, &CardPackAnswers{}, &FormPackAnswers{}, &ArtifactPackAnswers{}}

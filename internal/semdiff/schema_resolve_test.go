package semdiff

import "testing"

// Issue 42.2: a member named $ref inside data (const, enum, default,
// examples, an unknown keyword's value) is compared as JSON, never
// followed: {"$ref": "#/$defs/A"} → {"$ref": "#/$defs/B"} is another value
// even where A and B are the same schema.
func TestRefInDataIsData(t *testing.T) {
	t.Parallel()
	defs := obj{"A": obj{"type": "string"}, "B": obj{"type": "string"}}
	for _, kw := range []string{"const", "enum", "x-vendor", "examples", "default"} {
		mk := func(target string) map[string]any {
			v := any(obj{"$ref": "#/$defs/" + target})
			if kw == "enum" || kw == "examples" {
				v = arr{v}
			}
			return obj{"schemas/c.json": obj{"$defs": defs, "properties": obj{"p": obj{kw: v}}}}
		}
		o, n := mk("A"), mk("B")
		r := roleResult(t, "configSchemaRef", o, n)
		switch kw {
		case "const", "enum":
			witness := obj{"p": obj{"$ref": "#/$defs/A"}}
			os, _ := validatorFor(o)
			ns, _ := validatorFor(n)
			if os.Validate(witness) != nil || ns.Validate(witness) == nil {
				t.Fatalf("%s: the validator does not confirm the witness", kw)
			}
			if len(r.Breaking()) == 0 {
				t.Errorf("%s: NEW refuses %s, but diff says %s: %+v", kw, canon(witness), r.Verdict, r.Changes)
			}
		default:
			if len(r.Changes) == 0 {
				t.Errorf("%s: a changed value is no change: %s", kw, r.Verdict)
			}
		}
	}
}

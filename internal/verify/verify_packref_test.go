package verify

import (
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// A v1 signatureRef goes through packref, the one definition of a pack
// file reference: "./keys/x.sig" is keys/x.sig; an unclean or outside one
// is refused with a stable code instead of being replaced (issue 10).
func TestSignatureRefIsAPackRef(t *testing.T) {
	for ref, want := range map[string]string{
		"keys/pack.json.sig":         "keys/pack.json.sig",
		"./keys/pack.json.sig":       "keys/pack.json.sig",
		"keys/../keys/pack.json.sig": "",
		"../pack.json.sig":           "",
		"/keys/pack.json.sig":        "",
	} {
		pm, err := parsePackJSON([]byte(`{"name":"vendor.acme.x","version":"1.0.0","signing":{"method":"manual","publicKeyRef":"acme","signatureRef":"`+ref+`"}}`), "x.tgz")
		if err != nil {
			t.Fatal(err)
		}
		s, err := scheme(pm, nil, nil, Policy{}, "x.tgz")
		switch {
		case want == "" && werr.CodeOf(err) != "pack_ref_invalid":
			t.Errorf("%s: %v, want pack_ref_invalid", ref, err)
		case want != "" && (err != nil || s.sigRef != want):
			t.Errorf("%s: %q, %v; want %q", ref, s.sigRef, err, want)
		}
	}
}

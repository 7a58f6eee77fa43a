package untrusted

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/werr"
)

type keyEntry struct {
	KeyID               string   `json:"keyId"`
	PublicKeyURL        string   `json:"publicKeyUrl"`
	PermittedNamespaces []string `json:"permittedNamespaces"`
	Status              string   `json:"status"`
}

type keychain struct {
	SigningKeys []keyEntry `json:"signingKeys"`
}

// The documents encoding/json reads differently from JSON.parse: each is
// either refused or read as a script reading exact names reads it.
func TestDecodeJSONReadsAsJSONParse(t *testing.T) {
	// A hidden "PublicKeyUrl" alone: encoding/json fills PublicKeyURL,
	// JSON.parse + .publicKeyUrl sees undefined.
	var k keychain
	if err := DecodeJSON([]byte(`{"signingKeys":[{"keyId":"a","PublicKeyUrl":"/evil.pub","status":"active"}]}`), &k); err != nil {
		t.Fatal(err)
	}
	if got := k.SigningKeys[0].PublicKeyURL; got != "" {
		t.Fatalf("PublicKeyUrl filled publicKeyUrl: %q", got)
	}
	// The same document read by encoding/json alone shows the differential
	// this layer closes (so the test above can fail).
	var naive keychain
	json.Unmarshal([]byte(`{"signingKeys":[{"keyId":"a","PublicKeyUrl":"/evil.pub"}]}`), &naive)
	if naive.SigningKeys[0].PublicKeyURL != "/evil.pub" {
		t.Skip("encoding/json no longer folds case; the differential is gone")
	}
	// Untyped targets keep every member.
	var m map[string]any
	if err := DecodeJSON([]byte(`{"A":1,"b":{"C":2}}`), &m); err != nil || m["A"] != 1.0 {
		t.Fatalf("map target: %v %v", m, err)
	}
}

func TestDecodeJSONRefuses(t *testing.T) {
	cases := []struct {
		name, doc, code string
	}{
		{"revived key", `{"signingKeys":[{"keyId":"a","status":"revoked","Status":"active","PermittedNamespaces":["*"]}]}`, CodeJSONDuplicate},
		{"hidden yank", `{"yanked":true,"YANKED":false}`, CodeJSONDuplicate},
		{"exact duplicate", `{"status":"revoked","status":"active"}`, CodeJSONDuplicate},
		{"kelvin sign", "{\"keyId\":\"a\",\"\u212aeyId\":\"b\"}", CodeJSONDuplicate},
		{"long s", "{\"status\":\"a\",\"\u017ftatus\":\"b\"}", CodeJSONDuplicate},
		{"escaped duplicate", `{"status":"a","\u0073tatus":"b"}`, CodeJSONDuplicate},
		{"nested duplicate in raw", `{"other":{"x":1,"X":2}}`, CodeJSONDuplicate},
		{"trailing garbage", `{"a":1} x`, CodeJSONInvalid},
		{"two documents", `{"a":1}{"a":2}`, CodeJSONInvalid},
		{"trailing comma", `{"a":1,}`, CodeJSONInvalid},
		{"bom", "\ufeff{}", CodeJSONInvalid},
		{"control char", "{\"a\":\"x\ny\"}", CodeJSONInvalid},
		{"bad escape", `{"a":"\x"}`, CodeJSONInvalid},
		{"leading zero", `{"a":01}`, CodeJSONInvalid},
		{"deep", strings.Repeat("[", 200) + strings.Repeat("]", 200), CodeJSONTooLarge},
		{"empty", ``, CodeJSONInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v map[string]any
			err := DecodeJSON([]byte(c.doc), &v)
			if got := werr.CodeOf(err); got != c.code {
				t.Fatalf("code %q (%v), want %q", got, err, c.code)
			}
			if err := CheckJSON([]byte(c.doc), DefaultJSONLimits); werr.CodeOf(err) != c.code {
				t.Fatalf("CheckJSON: %v", err)
			}
		})
	}
}

func TestDecodeJSONLimits(t *testing.T) {
	many := "[" + strings.Repeat("1,", 99) + "1]"
	var v any
	if err := DecodeJSONLimits([]byte(many), &v, JSONLimits{MaxValues: 50}); werr.CodeOf(err) != CodeJSONTooLarge {
		t.Fatalf("values: %v", err)
	}
	if err := DecodeJSONLimits([]byte(many), &v, JSONLimits{MaxBytes: 10}); werr.CodeOf(err) != CodeJSONTooLarge {
		t.Fatalf("bytes: %v", err)
	}
	if err := DecodeJSONLimits([]byte(many), &v, JSONLimits{MaxValues: 101}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
}

func TestDecodeJSONPosition(t *testing.T) {
	var v any
	err := DecodeJSON([]byte("{\n  \"a\": 1,\n  \"A\": 2\n}"), &v)
	var je *JSONError
	if !asJSON(err, &je) || je.Line != 3 || je.Column != 3 {
		t.Fatalf("position: %#v (%v)", je, err)
	}
	named := NameJSON("keys.json", err)
	if !strings.HasPrefix(named.Error(), "keys.json:3:3: ") {
		t.Fatalf("named: %v", named)
	}
}

type embedded struct {
	Name string `json:"name"`
}
type outer struct {
	embedded
	Version string `json:"version"`
	Skip    string `json:"-"`
}

func TestDecodeJSONEmbeddedAndSkipped(t *testing.T) {
	var o outer
	if err := DecodeJSON([]byte(`{"name":"n","version":"1","Skip":"x","NAME2":1}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.Name != "n" || o.Version != "1" || o.Skip != "" {
		t.Fatalf("%+v", o)
	}
	if err := DecodeJSON([]byte(`{"Name":"n"}`), &o); err != nil || o.Name != "n" {
		// "Name" is not "name": dropped, so the previous value stays.
		t.Fatalf("%+v %v", o, err)
	}
	var fresh outer
	DecodeJSON([]byte(`{"Name":"n"}`), &fresh)
	if fresh.Name != "" {
		t.Fatalf("Name filled name: %+v", fresh)
	}
}

func asJSON(err error, je **JSONError) bool {
	for err != nil {
		if e, ok := err.(*JSONError); ok {
			*je = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"signingKeys":[{"keyId":"a","status":"active"}]}`))
	f.Add([]byte(`{"a":[1,2,{"b":null}],"c":"\u00e9"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var k keychain
		err := DecodeJSON(data, &k)
		var any1 any
		err2 := DecodeJSON(data, &any1)
		if (err == nil) != (err2 == nil) && werr.CodeOf(err) != CodeJSONInvalid {
			t.Fatalf("typed %v, untyped %v", err, err2)
		}
		if err2 == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
	})
}

// appendFold folds as strings.Map(foldRune, name) did (the definition the
// duplicate check had before it folded into its arena), on every case
// orbit wopkit's tests name, on bytes that are not UTF-8, and on random
// names.
func TestAppendFoldMatchesStringsMap(t *testing.T) {
	names := []string{"", "status", "Status", "STATUS", "ſtatus", "\u212aeyId", "keyId", "ΣσςΣ", "İi", "ǅǄǆ",
		"\xff\xfe", "a\xc3", "\xef\xbf\xbd", "ﬀ", "Ⅻ", "ⓐⒶ", "𐐀𐐨"}
	rng := rand.New(rand.NewPCG(27, 27))
	alphabet := []rune{'a', 'Z', 'k', 'K', '\u212a', 'ſ', 's', 'S', 'Σ', 'ς', 'é', 'É', 'ǅ', '𐐀', 0xFFFD}
	for range 2000 {
		var b []byte
		for range rng.IntN(8) {
			if rng.IntN(6) == 0 {
				b = append(b, byte(0x80+rng.IntN(0x80)))
			} else {
				b = utf8.AppendRune(b, alphabet[rng.IntN(len(alphabet))])
			}
		}
		names = append(names, string(b))
	}
	for _, n := range names {
		want := strings.Map(foldRune, n)
		if got := string(appendFold([]byte("prefix"), []byte(n))); got != "prefix"+want {
			t.Errorf("appendFold(%q) = %q, want %q", n, got[len("prefix"):], want)
		}
		if plainName([]byte(n)) && want != n {
			t.Errorf("plainName(%q) but it folds to %q", n, want)
		}
	}
}

// A member named twice is refused with the same message in a small object
// (looked up linearly) and in a large one (through a map), after a
// document whose names the pooled scanner has seen, in a nested object
// and at the top.
func TestDecodeJSONDuplicateMessages(t *testing.T) {
	many := func(extra string) string {
		var b strings.Builder
		b.WriteString(`{`)
		for i := range 20 {
			fmt.Fprintf(&b, `"memberNumber%d":%d,`, i, i)
		}
		return b.String() + extra + `}`
	}
	cases := []struct{ doc, msg string }{
		{`{"keyId":"a","KeyID":"b"}`, `members "keyId" and "KeyID" differ only in letter case`},
		{`{"keyId":"a","keyId":"b"}`, `member "keyId" is named twice in one object`},
		{`{"x":{"a":1},"a":{"keyId":1,"\u006beyId":2}}`, `member "keyId" is named twice in one object`},
		{many(`"MEMBERNUMBER3":1`), `members "memberNumber3" and "MEMBERNUMBER3" differ only in letter case`},
		{many(`"memberNumber19":1`), `member "memberNumber19" is named twice in one object`},
		{`{"a":` + many(`"ſtatus":1,"status":2`) + `}`, `members "ſtatus" and "status" differ only in letter case`},
	}
	for _, c := range cases {
		var ok map[string]any
		if err := DecodeJSON([]byte(`{"keyId":1,"a":{"keyId":2,"KEYID2":3}}`), &ok); err != nil {
			t.Fatal(err)
		}
		var v keychain
		err := DecodeJSON([]byte(c.doc), &v)
		var je *JSONError
		if !asJSON(err, &je) || je.Code != CodeJSONDuplicate || je.Msg != c.msg {
			t.Errorf("%s: %v, want %s", c.doc, err, c.msg)
		}
	}
}

// Issue 27: member names cost no allocation each (they were a string and
// a folded string per member): decoding an object of 40 camel-case
// members, two of them kept, allocates a bounded few times.
func TestDecodeJSONNamesDoNotAllocate(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"keyId":"k","status":"active"`)
	for i := range 38 {
		fmt.Fprintf(&b, `,"someMemberName%d":{"innerName":"x","OtherName":[1,2]}`, i)
	}
	doc := []byte(b.String() + `}`)
	var e keyEntry
	allocs := testing.AllocsPerRun(50, func() {
		if err := DecodeJSON(doc, &e); err != nil {
			t.Fatal(err)
		}
	})
	if e.KeyID != "k" || e.Status != "active" {
		t.Fatalf("decoded %+v", e)
	}
	// encoding/json's own decoding of the two kept members costs a few.
	if allocs > 10 {
		t.Errorf("%.0f allocations for one document of 40 members (%d of them objects): names must not allocate", allocs, 38)
	}
}

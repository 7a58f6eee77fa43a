package jsjson

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// Stringify(Parse(x)) equals node's JSON.stringify(JSON.parse(x), null, 2)
// on the inputs where a Go encoder would differ: key order of array-index
// keys, repeated keys, number forms, escapes, U+2028, astral characters.
func TestStringifyMatchesNode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: skipping the comparison with JSON.stringify")
	}
	inputs := []string{
		`{"b":1,"a":2,"10":3,"2":4,"01":5,"-1":6,"4294967295":7,"4294967294":8}`,
		`{"x":1,"y":2,"x":3}`,
		`[1.0,1e21,1e-7,123456789012345678901234,0.1,-0,5e-324,1.7976931348623157e308,100,1E2,-1.5e-10]`,
		`{"s":"\u0000\u001f\"\\\/\b\f\n\r\t\u2028\u2029\ud83d\ude00 é <>&'","e":"","n":null,"t":true,"f":false}`,
		`{"empty":{},"arr":[],"nested":[[],[{}],{"a":[1,{"b":[]}]}]}`,
	}
	for _, in := range inputs {
		cmd := exec.Command("node", "-e", "const fs=require('fs');process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0,'utf8')),null,2)+'\\n')")
		cmd.Stdin = strings.NewReader(in)
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		v, err := Parse([]byte(in), "input")
		if err != nil {
			// the untrusted layer refuses repeated keys, which JSON.parse accepts: the
			// registry's files never have them.
			if strings.Contains(in, `"x":3`) {
				continue
			}
			t.Fatal(err)
		}
		if got := string(Stringify(v)); got != string(want) {
			t.Errorf("%s:\nwopkit %s\nnode   %s", in, got, want)
		}
	}
}

// Parse reads registry documents through the untrusted layer first: a
// member named twice in one object, in any letter case, is refused (the
// registry's scripts and wopkit would read different values), and so is a
// document over Limits, before it is parsed.
func TestParseRefusesAmbiguousAndOversized(t *testing.T) {
	for _, c := range []struct{ in, code string }{
		{`{"status":"active","Status":"revoked"}`, "json_duplicate_member"},
		{`{"packs":[{"name":"a","NAME":"b"}]}`, "json_duplicate_member"},
		{`{"a":1,"a":2}`, "json_duplicate_member"},
		{"[" + strings.Repeat("0,", Limits.MaxValues) + "0]", "json_too_large"},
		{strings.Repeat("[", Limits.MaxDepth+1) + strings.Repeat("]", Limits.MaxDepth+1), "json_too_large"},
		{`{"a":1}x`, "json_invalid"},
	} {
		_, err := Parse([]byte(c.in), "doc.json")
		if werr.CodeOf(err) != c.code || !strings.HasPrefix(err.Error(), "doc.json:") {
			t.Errorf("%.40s: %v, want %s naming doc.json", c.in, err, c.code)
		}
	}
	if _, err := Parse([]byte(`{"name":"a","names":["b"]}`), "doc.json"); err != nil {
		t.Error(err)
	}
}

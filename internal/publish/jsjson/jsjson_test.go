package jsjson

import (
	"os/exec"
	"strings"
	"testing"
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
			// jsondoc refuses repeated keys, which JSON.parse accepts: the
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

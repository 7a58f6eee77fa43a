package registry

import "testing"

func TestDecodeTop(t *testing.T) {
	type doc struct {
		Name    string   `json:"name"`
		Version string   `json:"version"`
		Signing *Signing `json:"signing"`
	}
	for _, tc := range []struct {
		in      string
		name    string
		method  string
		wantErr bool
	}{
		{`{"a":[1,{"b":"}]\"x"}],"name":"n","signing":{"method":"manual"},"version":"1"}`, "n", "manual", false},
		{` { "name" : "n\u0041" , "x": null, "y": -1.5e3, "z": true } `, "nA", "", false},
		{`{}`, "", "", false},
		{`{"name":"a","name":"b"}`, "", "", true},
		{`{"name":"a","n\u0061me":"b"}`, "", "", true},
		{`{"name":"a"`, "", "", true},
		{`{"name":"a"} x`, "", "", true},
		{`["name"]`, "", "", true},
		{`{"name":}`, "", "", true},
		{`{"a":"unterminated}`, "", "", true},
		{`{"a":{"b":1}`, "", "", true},
		{`{"name":1}`, "", "", true}, // wrong type for a kept member
		{`{"x":tru,"name":"a"}`, "", "", true},
		{`{"x":[1,],"name":"a"}`, "", "", true},
		{`{"x":{"a" 1},"name":"a"}`, "", "", true},
		{`{"x":01,"name":"a"}`, "", "", true},
		{`{"x":1.,"name":"a"}`, "", "", true},
		{`{"x":[1}],"name":"a"}`, "", "", true},
		{`{"x":[-0.5e+3,true,false,null,{},[]],"name":"a"}`, "a", "", false},
		// Read as JSON.parse reads it: exact member names, and a member
		// named twice in any letter case refused, at any depth.
		{`{"Name":"hidden","version":"1"}`, "", "", false},
		{`{"name":"a","Name":"b"}`, "", "", true},
		{`{"name":"a","NAME":"b"}`, "", "", true},
		{`{"name":"a","signing":{"method":"manual","Method":"sigstore"}}`, "", "", true},
		{`{"name":"a","x":{"k":1,"K":2}}`, "", "", true},
		{`{"name":"a","signing":{"Method":"sigstore"}}`, "a", "", false},
		{`null`, "", "", true},
		{` "name" `, "", "", true},
		{``, "", "", true},
	} {
		var d doc
		err := DecodeTop([]byte(tc.in), &d)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && (d.Name != tc.name || (d.Signing != nil && d.Signing.Method != tc.method)) {
			t.Errorf("%s: got %+v", tc.in, d)
		}
	}
}

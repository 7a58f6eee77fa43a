package jsjson

import "testing"

// Stringify never fails on what Parse accepts, and is a fixed point:
// parsing its output and stringifying again gives the same bytes.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,2,{"10":null,"2":true}]}`, `"\u2028\ud83d\ude00"`, `[1e400,-0,0.1,1e21]`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, "fuzz")
		if err != nil {
			return
		}
		once := Stringify(v)
		w, err := Parse(once, "once")
		if err != nil {
			t.Fatalf("Stringify wrote what Parse refuses: %v\n%s", err, once)
		}
		if twice := Stringify(w); string(twice) != string(once) {
			t.Fatalf("not a fixed point:\n%s\n%s", once, twice)
		}
	})
}

package jsonedit

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// pointers lists every value's pointer in doc, with its node.
func pointers(n *jsondoc.Node, ptr string, out *[]string, nodes *[]*jsondoc.Node) {
	*out = append(*out, ptr)
	*nodes = append(*nodes, n)
	for _, m := range n.Members {
		pointers(m.Value, jsondoc.Child(ptr, m.Key), out, nodes)
	}
	for i, it := range n.Items {
		pointers(it, jsondoc.Index(ptr, i), out, nodes)
	}
}

// FuzzEdit makes random edits on the real source pack.json files (and on
// small documents of other layouts) and checks that every byte outside the
// edited range is unchanged, that the result parses and holds the new value,
// and that an insertion followed by its removal restores the file exactly.
func FuzzEdit(f *testing.F) {
	srcs := [][]byte{
		[]byte("{\n\t\"a\": [\n\t\t1,\n\t\t{\"b\": 2}\n\t],\n\t\"c\": {}\n}\n"),
		[]byte(`{"a":[1,{"b":2}],"c":{},"d":[]}`),
		[]byte("{\r\n    \"a\": [],\r\n    \"b\": {\r\n        \"c\": \"\\u00e9\"\r\n    }\r\n}"),
	}
	if ps := fixturePacksOptional(); len(ps) > 0 {
		srcs = append(srcs, ps...)
	}
	for i := range srcs {
		f.Add(uint8(i), uint8(0), uint16(3), `{"k":["v",1.5e3,null]}`)
		f.Add(uint8(i), uint8(1), uint16(7), `"\u2014 <&>"`)
		f.Add(uint8(i), uint8(2), uint16(11), `[]`)
		f.Add(uint8(i), uint8(3), uint16(1), `true`)
	}
	f.Fuzz(func(t *testing.T, which uint8, op uint8, at uint16, valText string) {
		src := srcs[int(which)%len(srcs)]
		var value any
		if err := json.Unmarshal([]byte(valText), &value); err != nil {
			value = valText
		}
		doc, err := jsondoc.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		var ptrs []string
		var nodes []*jsondoc.Node
		pointers(doc.Root, "", &ptrs, &nodes)
		i := int(at) % len(ptrs)
		ptr, n := ptrs[i], nodes[i]
		switch op % 4 {
		case 0: // replace a value
			e, err := SetEdit(src, ptr, value)
			if err != nil {
				t.Fatal(err)
			}
			out := mustApply(t, src, e)
			if e.Start != n.Start || e.End != n.End {
				t.Fatalf("replace of %s spliced [%d,%d), value is [%d,%d)", ptr, e.Start, e.End, n.Start, n.End)
			}
			checkOutside(t, src, out, n.Start, n.End)
			checkValue(t, out, ptr, value)
		case 1, 2: // add a member to an object, or an item to an array
			var out []byte
			var added string
			switch n.Kind {
			case jsondoc.Object:
				key := "zz-new-" + strconv.Itoa(len(n.Members))
				out, err = Set(src, jsondoc.Child(ptr, key), value)
				added = jsondoc.Child(ptr, key)
			case jsondoc.Array:
				out, err = Append(src, ptr, value)
				added = jsondoc.Index(ptr, len(n.Items))
			default:
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkOutside(t, src, out, n.Start+1, n.End-1)
			checkValue(t, out, added, value)
			back, err := Remove(out, added)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, src) {
				t.Fatalf("adding then removing %s changed the file:\n%s", added, back)
			}
		case 3: // remove
			if ptr == "" {
				return
			}
			out, err := Remove(src, ptr)
			if err != nil {
				t.Fatal(err)
			}
			toks := jsondoc.SplitPointer(ptr)
			parent := doc.Lookup(jsondoc.Pointer(toks[:len(toks)-1]...))
			checkOutside(t, src, out, parent.Start+1, parent.End-1)
			var a, b any
			_ = json.Unmarshal(src, &a)
			_ = json.Unmarshal(out, &b)
			if reflect.DeepEqual(a, b) {
				t.Fatalf("removing %s changed nothing", ptr)
			}
		}
	})
}

func mustApply(t *testing.T, src []byte, e Edit) []byte {
	t.Helper()
	out := e.Apply(src)
	if _, err := jsondoc.Parse(out); err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, out)
	}
	return out
}

// checkOutside checks that out keeps src[:start] and src[end:] byte for byte.
func checkOutside(t *testing.T, src, out []byte, start, end int) {
	t.Helper()
	tail := len(src) - end
	if len(out) < start+tail || !bytes.Equal(out[:start], src[:start]) || !bytes.Equal(out[len(out)-tail:], src[end:]) {
		t.Fatalf("bytes outside [%d,%d) changed", start, end)
	}
}

func checkValue(t *testing.T, out []byte, ptr string, value any) {
	t.Helper()
	doc, err := jsondoc.Parse(out)
	if err != nil {
		t.Fatalf("result does not parse: %v", err)
	}
	got := doc.Lookup(ptr)
	if got == nil {
		t.Fatalf("%s missing after edit", ptr)
	}
	want, _ := json.Marshal(value)
	var w, g any
	_ = json.Unmarshal(want, &w)
	gb, _ := json.Marshal(got.Value())
	_ = json.Unmarshal(gb, &g)
	if !reflect.DeepEqual(w, g) {
		t.Fatalf("%s is %s, want %s", ptr, gb, want)
	}
}

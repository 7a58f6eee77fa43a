package editor

import (
	"testing"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// Bug 9 (editor): / finds values too, not only keys.
func TestEditorFindsValues(t *testing.T) {
	doc, err := jsondoc.Parse([]byte(`{"name": "vendor.acme.x", "license": "MIT", "nodes": [{"typeId": "vendor.acme.x.hello"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := findNode(doc, "", "mit"); !ok || p != "/license" {
		t.Errorf("a string value: %q %v", p, ok)
	}
	if p, ok := findNode(doc, "/license", "x.hello"); !ok || p != "/nodes/0/typeId" {
		t.Errorf("a nested value: %q %v", p, ok)
	}
}

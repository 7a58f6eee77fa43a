package validate_test

import (
	"fmt"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
)

// A scaffold checks the v2 pack it is about to write, with its files, as
// the CLI will: Options.Spec forces the v2 schema set (detection would find
// it too, from the engines ceiling).
func ExampleValidator_PackFiles_v2() {
	pack := []byte(`{"name": "vendor.acme.hello", "version": "0.1.0", "kind": "node",
  "engines": {"openwop": ">=1.0.0 <3.0.0"},
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs"},
  "peerDependencies": {"host.agentRuntime": "supported"},
  "nodes": [{"typeId": "vendor.acme.hello.greet", "version": "0.1.0", "category": "data", "role": "pure"}]}`)
	files := fstest.MapFS{"pack.json": {Data: pack}, "index.mjs": {Data: []byte("export const nodes = {};\n")}}
	v, _ := validate.New(validate.Options{Spec: kinds.V2})
	for _, fr := range v.PackFiles("pack.json", files, pack) {
		fmt.Println(fr.Kind, fr.Spec)
		for _, p := range fr.Errors {
			fmt.Println(p.Rule, p.Pointer)
		}
	}
	// Output:
	// node-pack v2
	// PK002 /peerDependencies/host.agentRuntime
}

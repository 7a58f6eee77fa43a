// Package run runs a node pack's JavaScript as an OpenWOP host would, for
// `wopkit run`, `wopkit test` and `wopkit test --smoke`: one node process
// per pack under internal/sandbox and node's permission model, wopkit's
// harness (harness.mjs, embedded) importing runtime.entry and calling
// nodes[typeId](ctx), and the result mapped as the reference host maps it
// (docs/RUN.md). Host is the Go API; RunNode and the stored cases build on
// it.
package run

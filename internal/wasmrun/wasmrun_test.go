package wasmrun

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
)

// rustHello is the module of the registry's reference RFC 0008 pack,
// vendor.openwop.rust-hello@1.0.0 (Rust, wasm32-unknown-unknown).
func rustHello(t *testing.T) []byte {
	t.Helper()
	b := fixtures.File(t, fixtures.Tarball(t, "vendor.openwop.rust-hello", "1.0.0"), "dist/rust_hello.wasm")
	if len(b) == 0 {
		t.Fatal("the tarball has no dist/rust_hello.wasm")
	}
	return b
}

// TestRustHello runs the registry's reference pack: its identity exports,
// and its node with and without a name (the greeting, and the log it
// writes through openwop_log).
func TestRustHello(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := Load(ctx, rustHello(t), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	if m.Name != "vendor.openwop.rust-hello" || len(m.TypeIDs) != 1 || m.TypeIDs[0] != "vendor.openwop.rust-hello.greet" {
		t.Fatalf("name %q, typeIds %q", m.Name, m.TypeIDs)
	}
	for in, want := range map[string]string{"Ada": `{"greeting":"Hello, Ada!"}`, "": `{"greeting":"Hello, world!"}`} {
		inputs := map[string]any{}
		if in != "" {
			inputs["name"] = in
		}
		r, err := m.Invoke(ctx, 0, Request{NodeContext: NodeContext{RunID: "r", NodeID: "n"}, Inputs: inputs})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != "completed" || string(r.Output) != want || len(r.Logs) != 1 || !strings.Contains(r.Logs[0].Message, "greeting") {
			t.Errorf("%q: %+v output %s logs %v; want %s", in, r.Outcome, r.Output, r.Logs, want)
		}
	}
}

// module assembles a WebAssembly module with RFC 0008's exports, one page
// of memory (at most max pages), whose openwop_node_invoke has the body
// invoke (its locals declared, the code bytes, without the final end).
func module(maxPages byte, invoke []byte) []byte {
	sec := func(id byte, body ...byte) []byte {
		return append(binary.AppendUvarint([]byte{id}, uint64(len(body))), body...)
	}
	fn := func(code ...byte) []byte {
		body := append([]byte{0}, append(code, 0x0b)...) // no locals
		return append([]byte{byte(len(body))}, body...)
	}
	const i32, i64 = 0x7f, 0x7e
	types := []byte{6,
		0x60, 0, 1, i32, // 0: () -> i32
		0x60, 0, 1, i64, // 1: () -> i64
		0x60, 1, i32, 1, i64, // 2: (i32) -> i64
		0x60, 1, i32, 1, i32, // 3: (i32) -> i32
		0x60, 2, i32, i32, 0, // 4: (i32, i32) -> ()
		0x60, 3, i32, i32, i32, 1, i64, // 5: (i32, i32, i32) -> i64
	}
	funcs := []byte{7, 0, 1, 0, 2, 3, 4, 5}
	name := func(s string, idx byte) []byte { return append(append([]byte{byte(len(s))}, s...), 0, idx) }
	var exports []byte
	exports = append(exports, 8)
	for i, n := range []string{"openwop_abi_version", "openwop_pack_name", "openwop_node_count", "openwop_node_id_at", "openwop_alloc", "openwop_free", "openwop_node_invoke"} {
		exports = append(exports, name(n, byte(i))...)
	}
	exports = append(exports, append([]byte{6}, "memory"...)...)
	exports = append(exports, 2, 0)
	var code []byte
	code = append(code, 7)
	code = append(code, fn(0x41, 1)...)          // abi version: 1
	code = append(code, fn(0x42, 0)...)          // pack name: (0, 0)
	code = append(code, fn(0x41, 1)...)          // one node
	code = append(code, fn(0x42, 0)...)          // its typeId: (0, 0)
	code = append(code, fn(0x41, 0x80, 0x08)...) // alloc: 1024
	code = append(code, fn()...)                 // free
	code = append(code, fn(invoke...)...)        // invoke
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	out = append(out, sec(1, types...)...)
	out = append(out, sec(3, funcs...)...)
	out = append(out, sec(5, 1, 1, 1, maxPages)...) // memory: min 1, max maxPages
	out = append(out, sec(7, exports...)...)
	out = append(out, sec(10, code...)...)
	return out
}

// sleb is v in signed LEB128 (an i64.const immediate).
func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v == 0 && b&0x40 == 0 || v == -1 && b&0x40 != 0 {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}

// The limits hold on modules that misbehave: each call ends with its code.
func TestLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		max    byte
		invoke []byte
		code   string
	}{
		// loop br 0 end; i64.const 0
		{"loops for ever", 100, []byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x42, 0x00}, "sandbox_timeout"},
		// loop (memory.grow 16) != -1 br_if 0 end; unreachable
		{"grows memory until refused", 100, []byte{0x03, 0x40, 0x41, 0x10, 0x40, 0x00, 0x41, 0x7f, 0x47, 0x0d, 0x00, 0x0b, 0x00}, "sandbox_memory_exceeded"},
		// i64.const: a response of 16 bytes at 1 GiB
		{"answers outside its memory", 100, append([]byte{0x42}, sleb(16<<32|1<<30)...), "sandbox_invocation_error"},
		// unreachable
		{"traps", 100, []byte{0x00}, "sandbox_invocation_error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m, err := Load(ctx, module(c.max, c.invoke), Limits{MemoryPages: 64, Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close(ctx)
			_, err = m.Invoke(ctx, 0, Request{})
			var we *Error
			if !errors.As(err, &we) || we.Code != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if c.code == "sandbox_memory_exceeded" && m.mod.Memory().Size() > 64*65536 {
				t.Errorf("the memory grew to %d bytes, past its 64 pages", m.mod.Memory().Size())
			}
		})
	}
}

// A module that imports what RFC 0008 does not give (WASI here) does not
// instantiate: it gets no file, clock, socket or process.
func TestOnlyTheABIImports(t *testing.T) {
	t.Parallel()
	// (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
	typ := []byte{1, 0x60, 1, 0x7f, 0}
	imp := append(append([]byte{1, 22}, "wasi_snapshot_preview1"...), append(append([]byte{9}, "proc_exit"...), 0, 0)...)
	mod := []byte{0, 'a', 's', 'm', 1, 0, 0, 0, 1, byte(len(typ))}
	mod = append(mod, typ...)
	mod = append(mod, 2, byte(len(imp)))
	mod = append(mod, imp...)
	_, err := Load(context.Background(), mod, Limits{})
	var we *Error
	if !errors.As(err, &we) || we.Code != "pack_load_failure" || !strings.Contains(err.Error(), "wasi_snapshot_preview1") {
		t.Fatalf("got %v, want pack_load_failure naming the import", err)
	}
}

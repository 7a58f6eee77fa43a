// Package wasmtest assembles small RFC 0008 modules for tests, byte by
// byte (no toolchain): one node, a fixed response, or a body that traps,
// loops or grows its memory.
package wasmtest

import "encoding/binary"

// Bodies of openwop_node_invoke (code without locals or the final end).
var (
	// Trap is `unreachable`.
	Trap = []byte{0x00}
	// Loop is `loop br 0 end; i32.const 0; i32.const 0`: it never
	// returns.
	Loop = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b, 0x41, 0x00, 0x41, 0x00}
	// Grow is `loop (memory.grow 16) != -1 br_if 0 end; unreachable`: it
	// grows its memory until refused, then traps.
	Grow = []byte{0x03, 0x40, 0x41, 0x10, 0x40, 0x00, 0x41, 0x7f, 0x47, 0x0d, 0x00, 0x0b, 0x00}
)

// respAt is where the response lies in memory; the typeId lies at 0 and
// openwop_alloc always answers 32768.
const respAt = 4096

// Imports is a body that uses the openwop imports: it logs typeID at
// level 2 (info), writes response to the channel named typeID, then calls
// openwop_interrupt with response as the payload and answers what that
// returns (the resume value as the response).
func Imports(typeID, response string) []byte {
	at := func(v int) []byte { return append([]byte{0x41}, sleb(int64(v))...) }
	var b []byte
	for _, part := range [][]byte{at(2), at(0), at(len(typeID)), {0x10, 1}, // call openwop_log
		at(0), at(len(typeID)), at(respAt), at(len(response)), {0x10, 2, 0x1a}, // call openwop_channel_write; drop
		at(respAt), at(len(response)), {0x10, 0}} { // call openwop_interrupt
		b = append(b, part...)
	}
	return b
}

// Module assembles a module whose pack name and one node are typeID,
// whose memory is one page at first with no maximum, and whose
// openwop_node_invoke (multi-value result) runs body, or (body nil)
// answers response. It imports openwop_interrupt, openwop_log and
// openwop_channel_write (functions 0, 1, 2).
func Module(typeID, response string, body []byte) []byte {
	if body == nil {
		body = append(append([]byte{0x41}, sleb(respAt)...), append([]byte{0x41}, sleb(int64(len(response)))...)...)
	}
	uv := func(n int) []byte { return binary.AppendUvarint(nil, uint64(n)) }
	sec := func(id byte, body []byte) []byte {
		return append(append([]byte{id}, uv(len(body))...), body...)
	}
	fn := func(code []byte) []byte {
		b := append([]byte{0}, append(append([]byte(nil), code...), 0x0b)...) // no locals
		return append(uv(len(b)), b...)
	}
	const i32, i64 = 0x7f, 0x7e
	types := []byte{9,
		0x60, 0, 1, i32, // 0: () -> i32
		0x60, 0, 1, i64, // 1: () -> i64
		0x60, 1, i32, 1, i64, // 2: (i32) -> i64
		0x60, 1, i32, 1, i32, // 3: (i32) -> i32
		0x60, 2, i32, i32, 0, // 4: (i32, i32) -> ()
		0x60, 3, i32, i32, i32, 2, i32, i32, // 5: (i32, i32, i32) -> (i32, i32)
		0x60, 2, i32, i32, 2, i32, i32, // 6: (i32, i32) -> (i32, i32)
		0x60, 3, i32, i32, i32, 0, // 7: (i32, i32, i32) -> ()
		0x60, 4, i32, i32, i32, i32, 1, i32, // 8: (i32, i32, i32, i32) -> i32
	}
	imports := []byte{3}
	for _, im := range []struct {
		name string
		typ  byte
	}{{"openwop_interrupt", 6}, {"openwop_log", 7}, {"openwop_channel_write", 8}} {
		imports = append(append(append(imports, 7), "openwop"...), uv(len(im.name))...)
		imports = append(append(imports, im.name...), 0, im.typ)
	}
	funcs := []byte{7, 0, 1, 0, 2, 3, 4, 5}
	exports := []byte{8}
	for i, n := range []string{"openwop_abi_version", "openwop_pack_name", "openwop_node_count", "openwop_node_id_at", "openwop_alloc", "openwop_free", "openwop_node_invoke"} {
		exports = append(append(append(exports, uv(len(n))...), n...), 0, byte(i+3))
	}
	exports = append(append(exports, 6), "memory"...)
	exports = append(exports, 2, 0)
	id := append([]byte{0x42}, sleb(int64(len(typeID))<<32)...)
	code := []byte{7}
	for _, c := range [][]byte{{0x41, 1}, id, {0x41, 1}, id, {0x41, 0x80, 0x80, 0x02}, {}, body} {
		code = append(code, fn(c)...)
	}
	data := []byte{2}
	for _, d := range []struct {
		at   int64
		text string
	}{{0, typeID}, {respAt, response}} {
		data = append(append(data, 0, 0x41), sleb(d.at)...)
		data = append(append(append(data, 0x0b), uv(len(d.text))...), d.text...)
	}
	out := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	out = append(out, sec(1, types)...)
	out = append(out, sec(2, imports)...)
	out = append(out, sec(3, funcs)...)
	out = append(out, sec(5, []byte{1, 0, 1})...) // memory: min 1, no max
	out = append(out, sec(7, exports)...)
	out = append(out, sec(10, code)...)
	out = append(out, sec(11, data)...)
	return out
}

// sleb is v in signed LEB128 (an i32.const or i64.const immediate).
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

package tarball

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// smuggled is an entry's content that reads as a tar header and file: a
// reader that skips the entry's own header lists evil.sh instead.
var smuggled = string(file("evil.sh", "#!/bin/sh\necho pwned\n"))

// withSum is mutated with the checksum field written by sum from the
// unsigned and signed sums.
func withSum(name, body string, mut func(h []byte), sum func(unsigned, signed int64) string) []byte {
	out := mutated(name, body, mut)
	h := out[:blockSize]
	var u, s int64
	for i, c := range h {
		if i >= offChksum && i < offChksum+8 {
			c = ' '
		}
		u += int64(c)
		s += int64(int8(c))
	}
	copy(h[offChksum:offChksum+8], sum(u, s))
	return out
}

// fieldDisagreements are the header fields of the audit in ambiguous.go:
// each is refused, and each but the metadata-only ones is read otherwise by
// at least one reader at hand.
func fieldDisagreements() []disagreement {
	pack := file("pack.json", "{}")
	tail := file("index.mjs", "export const run = () => 1\n")
	field := func(off int, v string) func([]byte) {
		return func(h []byte) { copy(h[off:], v) }
	}
	longPrefix := strings.Repeat("d", 70) + "/" + strings.Repeat("e", 69)
	return []disagreement{
		// tarfile ends the archive there, silently: a Python scanner never
		// sees index.mjs (archive/tar refuses, GNU tar lists it).
		{name: "devmajor not octal", tar: concat(pack, mutated("b.txt", "x", field(offDevmajor, "zz")), tail, end())},
		{name: "devminor not octal", tar: concat(pack, mutated("b.txt", "x", field(offDevminor, "0000008\x00")), tail, end())},
		{name: "uid in base-256 with a first byte other than 0x80 or 0xff", tar: concat(pack, mutated("b.txt", "x", field(offUID, "\x81\x00\x00\x00\x00\x00\x00\x01")), tail, end())},
		// node-tar skips the header and reads its content as headers.
		{name: "mtime in base-256 beyond 2^53", tar: concat(pack, mutated("b.txt", smuggled, field(offMtime, "\x80\x00\x00\x00\x00\x20\x00\x00\x00\x00\x00\x00")), tail, end()), needs: "node-tar"},
		{name: "checksum that is the signed-byte sum", tar: concat(pack, withSum("caf\u00e9.txt", smuggled, func([]byte) {},
			func(_, s int64) string { return fmt.Sprintf("%06o\x00 ", s) }), tail, end()), needs: "node-tar"},
		{name: "checksum of eight digits", tar: concat(pack, withSum("b.txt", smuggled, func([]byte) {},
			func(u, _ int64) string { return fmt.Sprintf("%08o", u) }), tail, end()), needs: "node-tar"},
		{name: "link name on a regular file", tar: concat(pack, mutated("b.txt", smuggled, field(offLinkname, "index.mjs")), tail, end()), needs: "node-tar"},
		// archive/tar takes star's trailer for a 131-byte prefix.
		{name: "star trailer after a long prefix", tar: concat(pack, mutated("b.txt", "x", func(h []byte) {
			copy(h[offPrefix:], longPrefix)
			copy(h[508:], "tar\x00")
		}), tail, end())},
		{name: "blank size", tar: concat(pack, mutated("b.txt", "", field(offSize, "            ")), []byte(smuggled), tail, end())},
		{name: "blank mode", tar: concat(pack, mutated("b.txt", "x", field(offMode, "        ")), tail, end())},
		{name: "uname with bytes after a NUL", tar: concat(pack, mutated("b.txt", "x", field(offUname, "root\x00evil")), tail, end()), readersAgree: true},
	}
}

// The attack as reported: a non-octal devmajor in the third of eight
// entries. tarfile lists two and stops without an error, so a scanner in
// Python never sees index.mjs; wopkit refuses the archive at that header.
func TestDevmajorNotOctalRefused(t *testing.T) {
	t.Parallel()
	var parts [][]byte
	names := []string{"pack.json", "a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt", "index.mjs"}
	for i, n := range names {
		if i == 2 {
			parts = append(parts, mutated(n, "x", func(h []byte) { copy(h[offDevmajor:], "zz") }))
			continue
		}
		parts = append(parts, file(n, "x"))
	}
	tarball := concat(append(parts, end())...)
	var seen []string
	err := Walk(bytes.NewReader(gz(tarball)), DefaultLimits, func(h Header, _ io.Reader) error {
		seen = append(seen, h.Name)
		return nil
	})
	if codeOf(err) != CodeAmbiguousHeader || !strings.Contains(err.Error(), "devmajor") {
		t.Fatalf("got %v, want %s naming devmajor", err, CodeAmbiguousHeader)
	}
	if strings.Join(seen, ",") != "pack.json,a.txt" {
		t.Errorf("callback saw %q", seen)
	}
	if _, err := exec.LookPath("python3"); err != nil {
		return
	}
	p := filepath.Join(t.TempDir(), "x.tar")
	os.WriteFile(p, tarball, 0o644)
	out, err := exec.Command("python3", "-c", "import sys, tarfile; print(','.join(tarfile.open(sys.argv[1]).getnames()))", p).Output()
	if err != nil || strings.TrimSpace(string(out)) != "pack.json,a.txt" {
		t.Errorf("tarfile reads %q (%v): the attack no longer shows", out, err)
	}
}

// nodeTarReader returns a lister of tar files through npm's node-tar (the
// one npm itself unpacks with), or nil when node or npm is not installed.
// One node process lists every path given (name:size of each entry,
// "error" last when node-tar throws), in the order given.
func nodeTarReader(t *testing.T) func(t *testing.T, paths []string) []string {
	node, err := exec.LookPath("node")
	mod := nodeTarModule()
	if err != nil || mod == "" {
		return nil
	}
	script := `const tar = require(process.argv[1]); const all = [];
for (const p of process.argv.slice(2)) {
  const out = [];
  try { tar.t({file: p, sync: true, onReadEntry: e => out.push(e.path + ":" + e.size)}) } catch (e) { out.push("error") }
  all.push(out.join(","));
}
console.log(JSON.stringify(all))`
	return func(t *testing.T, paths []string) []string {
		out, err := exec.Command(node, append([]string{"-e", script, mod}, paths...)...).Output()
		var lists []string
		if err != nil || json.Unmarshal(out, &lists) != nil || len(lists) != len(paths) {
			t.Fatalf("node-tar: %v %s", err, out)
		}
		return lists
	}
}

// Extension headers are refused by type before their records are read, so
// no PAX record (odd lengths, duplicate keys), GNU long name or link, or
// sparse map is ever interpreted.
func TestExtensionHeadersRefused(t *testing.T) {
	t.Parallel()
	for _, typ := range []byte{'x', 'g', 'X', 'L', 'K', 'S', 'D', 'M', 'N', 'V', 'A', '8'} {
		body := "30 path=" + strings.Repeat("a", 21) + "\n" + "11 size=9\n" // a PAX-looking record
		var seen []string
		err := Walk(bytes.NewReader(gz(file("pack.json", "{}"), testHeaderBody("x", typ, body), file("a.txt", "a"), end())), DefaultLimits,
			func(h Header, _ io.Reader) error { seen = append(seen, h.Name); return nil })
		if codeOf(err) != CodeUnsafeEntry || len(seen) != 1 {
			t.Errorf("type %q: got %v after %q, want %s after pack.json", typ, err, seen, CodeUnsafeEntry)
		}
	}
}

// testHeaderBody is testHeader with a padded body.
func testHeaderBody(name string, typ byte, body string) []byte {
	out := testHeader(name, typ, int64(len(body)))
	out = append(out, body...)
	return append(out, make([]byte, (blockSize-len(body)%blockSize)%blockSize)...)
}

// nodeTarModule is the directory of the node-tar that npm bundles, or "".
func nodeTarModule() string {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return ""
	}
	out, err := exec.Command(npm, "root", "-g").Output()
	if err != nil {
		return ""
	}
	mod := filepath.Join(strings.TrimSpace(string(out)), "npm", "node_modules", "tar")
	if _, err := os.Stat(mod); err != nil {
		return ""
	}
	return mod
}

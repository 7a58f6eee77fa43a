package tarball

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Names Windows reads as another file or as a device are refused by the
// reader, the writer and Extract: extracted there, "pack.json." would
// replace the manifest, "pack.json:x" write into it, "aux.json" open a
// device.
func TestWindowsNamesRefused(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"pack.json.", "pack.json ", "pack.json...", "schemas./a.json", "docs /a.md",
		"pack.json:evil", "notes:stream", "a<b", "a>b", `a"b`, "a|b", "a?b", "a*b",
		"CON", "con", "aux.json", "nul.txt", "NUL.tar.gz", "COM1", "com9.md", "COM0", "LPT1", "lpt3.json",
		"com\u00b9.txt", "conin$", "CONOUT$.txt", "prompts/nul .txt", "aux/x.json", "schemas/Con.json",
		"PACK~1.JSO", "docs/READ~12.MD", "progra~1",
	} {
		t.Run(name, func(t *testing.T) {
			var seen []string
			err := Walk(bytes.NewReader(gz(file("pack.json", "{}"), file(name, "{}"), end())), DefaultLimits, func(h Header, _ io.Reader) error {
				seen = append(seen, h.Name)
				return nil
			})
			if codeOf(err) != CodeWindowsName || len(seen) != 1 {
				t.Errorf("reader: got %v after %q, want %s after pack.json", err, seen, CodeWindowsName)
			}
			if err != nil && !strings.Contains(err.Error(), "Windows") {
				t.Errorf("reader: %q does not say why", err)
			}
			if err := WriteTar(io.Discard, []Entry{memEntry("pack.json", []byte("{}")), memEntry(name, []byte("{}"))}); codeOf(err) != CodeWindowsName {
				t.Errorf("writer: got %v, want %s", err, CodeWindowsName)
			}
			a := &Archive{Files: []File{{Header: Header{Name: name, Size: 2}, Data: []byte("{}")}}}
			if err := Extract(a, t.TempDir()); codeOf(err) != CodeWindowsName {
				t.Errorf("Extract: got %v, want %s", err, CodeWindowsName)
			}
		})
	}
}

// "a:stream" is a path relative to drive A: on Windows: refused as absolute.
func TestDriveRelativeNameRefused(t *testing.T) {
	t.Parallel()
	err := Walk(bytes.NewReader(gz(file("pack.json", "{}"), file("a:stream", "x"), end())), DefaultLimits, func(Header, io.Reader) error { return nil })
	if codeOf(err) != CodePathTraversal {
		t.Errorf("got %v, want %s", err, CodePathTraversal)
	}
}

// Near misses stay accepted.
func TestWindowsNamesNearMisses(t *testing.T) {
	t.Parallel()
	parts := [][]byte{file("pack.json", "{}")}
	for _, name := range []string{
		"console.json", "auxiliary.md", "com10.txt", "lpt.txt", "nul_.txt", "con-fig.json", "a.b.c", ".hidden",
		"pack.json.bak", "file~name.txt", "backup~1x.txt", "my-long-name~1.json", "a~1.json", "~1.md", "docs/x..y.md",
	} {
		parts = append(parts, file(name, "x"))
	}
	if err := Walk(bytes.NewReader(gz(append(parts, end())...)), DefaultLimits, func(Header, io.Reader) error { return nil }); err != nil {
		t.Errorf("near misses refused: %v", err)
	}
}

// reservedDevice's ASCII path (upper-cased on the stack) says what
// strings.ToUpper's said, on every device name in every letter case, with
// trailing spaces and extensions, and on names around them.
func TestReservedDeviceASCIIMatchesToUpper(t *testing.T) {
	t.Parallel()
	want := func(seg string) bool {
		base, _, _ := strings.Cut(seg, ".")
		return deviceName(strings.ToUpper(strings.TrimRight(base, " ")))
	}
	var segs []string
	for _, d := range []string{"con", "prn", "aux", "nul", "conin$", "conout$", "com", "lpt", "co", "conoutx", "pack"} {
		for _, suffix := range []string{"", "0", "9", "\u00b9", "10", "a"} {
			w := d + suffix
			for mask := range 1 << len(w) {
				b := []byte(w)
				for i := range b {
					if mask&(1<<i) != 0 && b[i] >= 'a' && b[i] <= 'z' {
						b[i] -= 'a' - 'A'
					}
				}
				segs = append(segs, string(b), string(b)+".json", string(b)+"  .md", string(b)+" ", "x"+string(b))
			}
		}
	}
	segs = append(segs, "ſon", "ıux", "\u212aon", "")
	for _, s := range segs {
		if got := reservedDevice(s); got != want(s) {
			t.Errorf("reservedDevice(%q) = %v, strings.ToUpper says %v", s, got, want(s))
		}
	}
}

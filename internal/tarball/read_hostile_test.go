package tarball

import (
	"archive/tar"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/werr"
)

// rawHeader builds a 512-byte header block with a valid checksum (as GNU tar
// writes it), so each attack reaches the check it is meant to trigger.
func testHeader(name string, typeflag byte, size int64) []byte {
	var b [blockSize]byte
	copy(b[offName:], name)
	copy(b[offMode:], "0000644\x00")
	copy(b[offUID:], "0000000\x00")
	copy(b[offGID:], "0000000\x00")
	copy(b[offSize:], fmt.Sprintf("%011o\x00", size))
	copy(b[offMtime:], "00000000000\x00")
	b[offTypeflag] = typeflag
	if typeflag == '1' || typeflag == '2' {
		copy(b[157:], "/etc/passwd")
	}
	copy(b[offMagic:], magicUSTAR)
	copy(b[offVersion:], "00")
	copy(b[offChksum:], "        ")
	var sum int64
	for _, c := range b {
		sum += int64(c)
	}
	copy(b[offChksum:], fmt.Sprintf("%06o\x00 ", sum))
	return b[:]
}

// file is a header plus padded body.
func file(name string, body string) []byte {
	out := testHeader(name, '0', int64(len(body)))
	out = append(out, body...)
	if pad := (blockSize - len(body)%blockSize) % blockSize; pad > 0 {
		out = append(out, make([]byte, pad)...)
	}
	return out
}

func entry(name string, typeflag byte) []byte { return testHeader(name, typeflag, 0) }

func end() []byte { return make([]byte, 2*blockSize) }

func gz(parts ...[]byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for _, p := range parts {
		zw.Write(p)
	}
	zw.Close()
	return buf.Bytes()
}

// stdTar builds a tar stream with archive/tar in the given format.
func stdTar(t *testing.T, format tar.Format, name string, pax map[string]string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg, Format: format, PAXRecords: pax}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte("{}"))
	tw.Close()
	return buf.Bytes()
}

func TestHostile(t *testing.T) {
	t.Parallel()
	pack := file("pack.json", "{}")
	validTGZ := gz(pack, end())
	corruptSum := file("pack.json", "{}")
	corruptSum[offChksum] = '7'
	tests := []struct {
		name string
		tgz  []byte
		code string
		msg  string // substring of the message
	}{
		{"parent traversal", gz(pack, file("../evil", "x"), end()), CodePathTraversal, `"../evil"`},
		{"inner traversal", gz(pack, file("a/../../evil", "x"), end()), CodePathTraversal, "climbs out"},
		{"dot-dot directory", gz(entry("../", '5'), pack, end()), CodePathTraversal, `".."`},
		{"absolute", gz(file("/etc/passwd", "x"), pack, end()), CodePathTraversal, "absolute"},
		{"drive letter", gz(file("C:/x", "x"), pack, end()), CodePathTraversal, "absolute"},
		{"backslash", gz(file(`a\..\evil`, "x"), pack, end()), CodePathTraversal, "backslash"},
		{"empty segment", gz(file("a//b", "x"), pack, end()), CodePathTraversal, "empty"},
		{"empty name", gz(file("", "x"), pack, end()), CodePathTraversal, "empty name"},
		{"control character", gz(pack, file("a\x1b[2Jb", "x"), end()), CodePathTraversal, "control character"},
		{"directory with content", gz(pack, testHeader("d/", '5', 512), make([]byte, 512), end()), CodeCorrupt, "claims 512 bytes"},
		{"symlink", gz(pack, entry("evil", '2'), end()), CodeUnsafeEntry, "symbolic link"},
		{"hardlink", gz(pack, entry("evil", '1'), end()), CodeUnsafeEntry, "hard link"},
		{"char device", gz(pack, entry("null", '3'), end()), CodeUnsafeEntry, "character device"},
		{"block device", gz(pack, entry("sda", '4'), end()), CodeUnsafeEntry, "block device"},
		{"fifo", gz(pack, entry("pipe", '6'), end()), CodeUnsafeEntry, "FIFO"},
		{"contiguous", gz(pack, entry("c", '7'), end()), CodeUnsafeEntry, "contiguous"},
		{"unknown type", gz(pack, entry("v", 'V'), end()), CodeUnsafeEntry, "unsupported type"},
		{"pax header", gz(stdTar(t, tar.FormatPAX, "pack.json", map[string]string{"comment": "hidden ../evil"})), CodeUnsafeEntry, "PAX"},
		{"gnu long name", gz(stdTar(t, tar.FormatGNU, strings.Repeat("a", 150), nil)), CodeUnsafeEntry, "GNU long-name"},
		{"duplicate pack.json", gz(pack, file("pack.json", `{"evil":1}`), end()), CodeDuplicateEntry, `"pack.json"`},
		{"dot-slash duplicate", gz(file("./pack.json", "{}"), pack, end()), CodeDuplicateEntry, `"pack.json"`},
		{"file then dir", gz(pack, file("a", "x"), entry("a/", '5'), end()), CodeDuplicateEntry, `"a"`},
		{"file under file", gz(pack, file("a", "x"), file("a/b", "y"), end()), CodeDuplicateEntry, `under "a"`},
		{"dir then file", gz(pack, file("a/b", "y"), file("a", "x"), end()), CodeDuplicateEntry, `"a"`},
		{"not gzip", []byte("PK\x03\x04 this is a zip"), CodeCorrupt, "not a gzip"},
		{"empty input", nil, CodeCorrupt, "gzip"},
		{"truncated gzip", validTGZ[:len(validTGZ)-12], CodeCorrupt, "truncated"},
		{"no end marker", gz(pack), CodeCorrupt, "truncated"},
		{"truncated body", gz(testHeader("pack.json", '0', 100), []byte("{}")), CodeCorrupt, "truncated"},
		{"bad checksum", gz(corruptSum, end()), CodeCorrupt, "checksum"},
		{"tar garbage after end", gz(pack, end(), []byte("trailing")), CodeCorrupt, "end-of-archive"},
		{"gzip garbage after member", append(gz(pack, end()), "garbage!!"...), CodeCorrupt, ""},
		{"manifest too large", gz(file("pack.json", strings.Repeat(" ", 256<<10+1)), end()), CodeTooLarge, "pack.json is 262145 bytes"},
		{"entry too large", gz(pack, testHeader("big.bin", '0', 5<<20+1), end()), CodeTooLarge, "5242881 bytes"},
		{"header lies: 2 GiB", gz(pack, testHeader("big.bin", '0', 2<<30), end()), CodeTooLarge, "per-entry limit"},
		{"missing pack.json", gz(file("README.md", "hi"), end()), CodeManifestMissing, "no pack.json"},
		{"pack.json only in a subdir", gz(file("sub/pack.json", "{}"), end()), CodeManifestMissing, "no pack.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAll(bytes.NewReader(tt.tgz), RegistryLimits)
			if werr.CodeOf(err) != tt.code {
				t.Fatalf("error = %v, want code %s", err, tt.code)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
			var e *werr.Error
			if !asErr(err, &e) || e.Hint == "" || e.Class != werr.Invalid {
				t.Errorf("error %#v is not an Invalid *werr.Error with a hint", err)
			}
		})
	}
	if _, err := ReadAll(bytes.NewReader(validTGZ), RegistryLimits); err != nil {
		t.Fatalf("the valid baseline is refused: %v", err)
	}
}

func asErr(err error, target **werr.Error) bool {
	e, ok := err.(*werr.Error)
	*target = e
	return ok
}

// TestWalkRefusesBeforeCallback: fn never sees an offending entry, only
// the good ones before it.
func TestWalkRefusesBeforeCallback(t *testing.T) {
	t.Parallel()
	tgz := gz(file("a.txt", "a"), file("../evil", "x"), file("z.txt", "z"), end())
	var seen []string
	err := Walk(bytes.NewReader(tgz), RegistryLimits, func(h Header, body io.Reader) error {
		seen = append(seen, h.Name)
		return nil
	})
	if werr.CodeOf(err) != CodePathTraversal {
		t.Fatalf("error = %v", err)
	}
	if len(seen) != 1 || seen[0] != "a.txt" {
		t.Errorf("callback saw %v, want only a.txt", seen)
	}
}

func TestTooManyEntries(t *testing.T) {
	t.Parallel()
	var parts [][]byte
	for i := range 12 {
		parts = append(parts, file(fmt.Sprintf("f%02d", i), "x"))
	}
	parts = append(parts, end())
	lim := RegistryLimits
	lim.MaxEntries = 10
	_, err := ReadAll(bytes.NewReader(gz(parts...)), lim)
	if werr.CodeOf(err) != CodeTooLarge || !strings.Contains(err.Error(), "more than 10 entries") {
		t.Fatalf("error = %v", err)
	}
	lim = RegistryLimits
	lim.MaxUnpacked = 5
	_, err = ReadAll(bytes.NewReader(gz(parts...)), lim)
	if werr.CodeOf(err) != CodeTooLarge || !strings.Contains(err.Error(), "unpacked size to 6 bytes") {
		t.Fatalf("error = %v", err)
	}
	lim = RegistryLimits
	lim.MaxCompressed = 20
	_, err = ReadAll(bytes.NewReader(gz(parts...)), lim)
	if werr.CodeOf(err) != CodeTooLarge || !strings.Contains(err.Error(), "compressed tarball exceeds the 20 bytes limit") {
		t.Fatalf("error = %v", err)
	}
}

// zeroBomb returns a gzip stream that starts with the tar stream prefix and
// then inflates to about total bytes of zeros, built by repeating one
// flushed deflate segment (valid after 32 KiB of zeros): about 1 MB of input
// per GiB, the most plain deflate allows (ratio ~1030:1).
func zeroBomb(t testing.TB, prefix []byte, total int64) []byte {
	var body bytes.Buffer
	fw, _ := flate.NewWriter(&body, flate.BestCompression)
	fw.Write(prefix)
	fw.Write(make([]byte, 32<<10))
	fw.Flush()
	const segLen = 8 << 20
	var seg bytes.Buffer
	sw, _ := flate.NewWriterDict(&seg, flate.BestCompression, make([]byte, 32<<10))
	sw.Write(make([]byte, segLen))
	sw.Flush()
	for n := int64(0); n < total; n += segLen {
		body.Write(seg.Bytes())
	}
	body.Write([]byte{1, 0, 0, 0xff, 0xff}) // final empty stored block
	out := []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}
	out = append(out, body.Bytes()...)
	return append(out, 0, 0, 0, 0, 0, 0, 0, 0) // wrong CRC: never reached
}

// TestGzipBomb: about 1 MB inflating to over 1 GiB of zeros after a valid
// archive is refused after a few MB of output, in bounded memory.
func TestGzipBomb(t *testing.T) {
	t.Parallel()
	bomb := zeroBomb(t, append(file("pack.json", "{}"), end()...), 1<<30+1<<20)
	if len(bomb) > 2<<20 {
		t.Fatalf("bomb is %d bytes, expected about 1 MB", len(bomb))
	}
	for _, lim := range []Limits{RegistryLimits, DefaultLimits} {
		cr := &countReader{r: bytes.NewReader(bomb)}
		_, err := ReadAll(cr, lim)
		if werr.CodeOf(err) != CodeTooLarge {
			t.Fatalf("error = %v, want %s", err, CodeTooLarge)
		}
		// Refused early: only a small part of the input was consumed.
		if cr.n > int64(len(bomb))/10 {
			t.Errorf("read %d of %d compressed bytes before refusing", cr.n, len(bomb))
		}
	}
	// The same bomb as the body of an entry whose header claims its real size.
	bomb = zeroBomb(t, append(file("pack.json", "{}"), testHeader("zeros.bin", '0', 1<<30+1)...), 1<<30+1<<20)
	_, err := ReadAll(bytes.NewReader(bomb), DefaultLimits)
	if werr.CodeOf(err) != CodeTooLarge {
		t.Fatalf("error = %v, want %s", err, CodeTooLarge)
	}
}

package pack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// A directory holding a name that Windows reads as another file or a
// device, or that displays as another, is refused before anything is
// read or written, naming the file; so are two names that are one file on
// a case-insensitive file system.
func TestPackRefusesUnportableNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, code string }{
		{"README.md.", tarball.CodeWindowsName}, // README.md on Windows
		{"README.md ", tarball.CodeWindowsName}, // the same
		{"schemas/greet.input.json.", tarball.CodeWindowsName},
		{"schemas/greet.input.json:x", tarball.CodeWindowsName}, // a stream of greet.input.json
		{"schemas/aux.json", tarball.CodeWindowsName},
		{"prompts/nul.txt", tarball.CodeWindowsName},
		{"evals/COM1", tarball.CodeWindowsName},
		{"evals/lpt1.json", tarball.CodeWindowsName},
		{"schemas/a?.json", tarball.CodeWindowsName},
		{"schemas/a|b.json", tarball.CodeWindowsName},
		{"schemas/GREET~1.JSO", tarball.CodeWindowsName},
		{"schemas/sub./x.json", tarball.CodeWindowsName},
		{"schemas/a\x01.json", tarball.CodePathTraversal},
		{"schemas/evil\u202etxt.json", tarball.CodeUnsafeName},
		{"readme.md", tarball.CodeNameCollision}, // beside README.md
		{"schemas/Greet.Input.json", tarball.CodeNameCollision},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := fixtures.CopyDir(t, "testdata/basic")
			p := filepath.Join(dir, filepath.FromSlash(tc.file))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "o.tgz")
			_, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate})
			if werr.CodeOf(err) != tc.code || !strings.Contains(err.Error(), filepath.Base(tc.file)[:3]) {
				t.Fatalf("got %v, want %s naming %q", err, tc.code, tc.file)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a tarball was written")
			}
			// Listed in .openwopignore, the file is left out and the pack is made.
			pattern := strings.NewReplacer("?", `\?`, " ", `\ `).Replace(tc.file)
			os.WriteFile(filepath.Join(dir, IgnoreFile), []byte("/"+pattern+"\n"), 0o644)
			if tc.code != tarball.CodeNameCollision {
				if _, err := Pack(context.Background(), Options{Dir: dir, Output: out, Validate: noValidate}); err != nil {
					t.Errorf("ignored, still refused: %v", err)
				}
			}
		})
	}
}

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/untrusted"
)

// ownModule is wopkit's own module path: a folder whose go.mod declares it
// is wopkit's source tree.
const ownModule = "github.com/openwop/wopkit"

// packsFolder is where `new` writes when it is run in wopkit's own source
// tree (the README's first command, `go run ./cmd/wopkit new`, in a fresh
// clone): under the user's home, so that the clone stays clean.
const packsFolder = "openwop-packs"

// sourceRoot is the folder of wopkit's own source tree dir is in ("" when
// it is in none): the nearest go.mod above dir declares ownModule.
func sourceRoot(dir string) string {
	for at := dir; ; {
		if b, err := untrusted.ReadNamed(filepath.Join(at, "go.mod"), 64<<10); err == nil {
			line, _, _ := bufio.NewReader(bytes.NewReader(b)).ReadLine()
			if strings.TrimSpace(strings.TrimPrefix(string(line), "module")) == ownModule {
				return at
			}
			return ""
		}
		up := filepath.Dir(at)
		if up == at {
			return ""
		}
		at = up
	}
}

// runVersion is the module version wopkit was built at by `go run
// module@version` ("" for a build of a source tree, "(devel)").
func runVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Path != ownModule || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return ""
	}
	return bi.Main.Version
}

// leaveSourceTree moves a new pack, tool manifest or document out of
// wopkit's own source tree when `new` runs there from `go run` without
// --dir or --pack:
// the files, the release and a draft go to ~/openwop-packs, and the next
// steps name them by their whole paths. It says so on out. When wopkit
// runs from `go run`, the next steps name `go run ./cmd/wopkit` (which
// works from the clone), not `wopkit`, which is not on the PATH.
func leaveSourceTree(out io.Writer, o *newOptions) error {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	// Only `go run` (a wopkit built into Go's temporary folder) moves: an
	// installed wopkit run here is the author's choice, and a test binary
	// (wopkit.test) keeps its folder.
	exe, err := os.Executable()
	goRun := err == nil && strings.Contains(exe, "go-build") && !strings.HasSuffix(filepath.Base(exe), ".test")
	root := sourceRoot(cwd)
	if root == "" {
		// `go run github.com/openwop/wopkit/cmd/wopkit@v1.2.3 new` elsewhere:
		// the next steps name the same command (wopkit is not on the PATH)
		if v := runVersion(); goRun && v != "" {
			create.Command = "go run " + ownModule + "/cmd/wopkit@" + v
		}
		return nil
	}
	if !goRun {
		return nil
	}
	rel, err := filepath.Rel(cwd, filepath.Join(root, "cmd", "wopkit"))
	if err == nil && !strings.HasPrefix(rel, "..") {
		rel = "./" + rel
	}
	create.Command = "go run " + filepath.ToSlash(rel)
	if o.Dir != "" || o.Pack != "" || o.DryRun {
		return nil
	}
	if o.Values != "" && !filepath.IsAbs(o.Values) { // read from where it was named
		o.Values = filepath.Join(cwd, o.Values)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	base := filepath.Join(home, packsFolder)
	if err := atomicfile.MkdirAll(base, 0o755); err != nil {
		return err
	}
	if err := os.Chdir(base); err != nil {
		return err
	}
	create.Base = base
	fmt.Fprintf(out, "wopkit: this is wopkit's own source tree (%s): the new files go to %s instead (--dir chooses the folder)\n", root, base)
	return nil
}

package guard

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// unnamed are the packages (a folder and every folder below it, relative
// to the module root) that still hold test files named after no source
// file, issue 40's item 5 not yet done there; a package fully renamed must
// leave the list (the test says so). Empty since every package is renamed:
// keep it so.
var unnamed = []string{}

// crossing are the names of test files that test no one source file
// (docs/CONTRIBUTING.md, "Tests").
var crossing = regexp.MustCompile(`^(e2e|contract|world)(_|$)|^(guard|main|helpers)$|^helpers_`)

// constraint is a file name's last part that only constrains the build.
var constraint = regexp.MustCompile(`_(unix|other|` + strings.Join(append(knownOS(), knownArch()...), "|") + `)$`)

func knownOS() []string   { return strings.Fields(goosList) }
func knownArch() []string { return strings.Fields(goarchList) }

const (
	goosList   = "aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos"
	goarchList = "386 amd64 arm arm64 loong64 mips mips64 mips64le mipsle ppc64 ppc64le riscv64 s390x wasm"
)

// namedAfterSource reports whether the test file name (…_test.go) is
// named after one of the source files srcs (their names without .go), or
// as a test that crosses files.
func namedAfterSource(name string, srcs []string) bool {
	stem := strings.TrimSuffix(name, "_test.go")
	for constraint.MatchString(stem) {
		stem = constraint.ReplaceAllString(stem, "")
	}
	if crossing.MatchString(stem) {
		return true
	}
	for _, s := range srcs {
		if stem == s || strings.HasPrefix(stem, s+"_") {
			return true
		}
		// lock_test.go tests lock_unix.go and lock_other.go.
		for constraint.MatchString(s) {
			s = constraint.ReplaceAllString(s, "")
		}
		if stem == s || strings.HasPrefix(stem, s+"_") {
			return true
		}
	}
	return false
}

func TestNamedAfterSource(t *testing.T) {
	t.Parallel()
	srcs := []string{"write", "names", "pgzip", "lock_unix", "lock_other"}
	for name, want := range map[string]bool{
		"write_test.go": true, "write_memory_test.go": true, "names_winnames_test.go": true,
		"pgzip_bench_test.go": true, "write_linux_test.go": true, "write_unix_test.go": true,
		"e2e_test.go": true, "e2e_client_test.go": true, "world_test.go": true, "contract_docs_test.go": true,
		"helpers_test.go": true, "helpers_cputime_unix_test.go": true, "main_test.go": true, "guard_test.go": true,
		"lock_test.go": true, "lock_unix_test.go": true, "lock_fifo_test.go": true, "locks_test.go": false,
		"hostile_test.go": false, "writer_test.go": false, "names2_test.go": false, "fuzz_test.go": false,
	} {
		if got := namedAfterSource(name, srcs); got != want {
			t.Errorf("namedAfterSource(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestTestFilesNamedAfterTheirSource: every test file is named after the
// source file it tests, or says in its prefix that it crosses files
// (e2e_, contract_, world_), outside the packages still listed in unnamed.
func TestTestFilesNamedAfterTheirSource(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	bad := map[string][]string{} // package folder -> test files named after no source
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, build.IgnoreVendor)
		if err != nil {
			return nil // no Go files for this platform, or none at all
		}
		var srcs []string
		for _, f := range slices.Concat(pkg.GoFiles, pkg.IgnoredGoFiles, pkg.CgoFiles) {
			srcs = append(srcs, strings.TrimSuffix(f, ".go"))
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if name := e.Name(); strings.HasSuffix(name, "_test.go") {
				checked++
				if !namedAfterSource(name, srcs) {
					bad[rel] = append(bad[rel], name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d test files found", checked)
	}
	listed := func(rel string) string {
		for _, u := range unnamed {
			if rel == u || strings.HasPrefix(rel, u+"/") {
				return u
			}
		}
		return ""
	}
	still := map[string]bool{}
	var pkgs []string
	for rel := range bad {
		pkgs = append(pkgs, rel)
	}
	sort.Strings(pkgs)
	for _, rel := range pkgs {
		if u := listed(rel); u != "" {
			still[u] = true
			continue
		}
		t.Errorf("%s: test files named after no source file: %s (name them foo_test.go or foo_TOPIC_test.go after the foo.go they test, or e2e_/contract_/world_ when they cross files: docs/CONTRIBUTING.md, \"Tests\")",
			rel, strings.Join(bad[rel], ", "))
	}
	for _, u := range unnamed {
		if !still[u] {
			t.Errorf("%s: every test file is named after its source now: take it off the unnamed list", u)
		}
	}
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"charm.land/fang/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/third_party/jsonschema"
)

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg           string
	bytes, allocs int
}

// initCosts runs this test binary with no test selected and
// GODEBUG=inittrace=1 and returns what each package's initialisation cost:
// the test binary links every package wopkit's binary does (package main's
// own line also counts its test files, so it is not bounded here).
func initCosts(t *testing.T) []initCost {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the test binary with inittrace: %v\n%s", err, stderr.Bytes())
	}
	var out []initCost
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read the inittrace line %q", sc.Text())
		}
		out = append(out, initCost{pkg: f[1], bytes: b, allocs: a})
	}
	if len(out) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 printed no init lines:\n%s", stderr.Bytes())
	}
	return out
}

// TestInitAllocatesLittle: wopkit's own packages do no work while the
// program starts beyond constants and small tables (issue 27): a regular
// expression is compiled on first use (internal/lazyre), a template or an
// embedded document parsed on first use (sync.OnceValue), so `wopkit
// version` does not pay for `validate`. One compiled regexp costs 2-10 KB
// and 30-100 allocations, so either bound catches it.
func TestInitAllocatesLittle(t *testing.T) {
	t.Parallel()
	const maxBytes, maxAllocs = 20 << 10, 300
	seen := 0
	for _, c := range initCosts(t) {
		if !strings.HasPrefix(c.pkg, modulePath+"/") || c.pkg == modulePath+"/cmd/wopkit" {
			continue // package main's line counts its test files too
		}
		seen++
		if c.bytes > maxBytes || c.allocs > maxAllocs {
			t.Errorf("%s allocates %d bytes in %d allocations while the program starts (bound: %d bytes, %d allocations): compile regexps with lazyre.New, build tables and parse embedded data on first use (sync.OnceValue)",
				c.pkg, c.bytes, c.allocs, maxBytes, maxAllocs)
		}
	}
	if seen < 10 {
		t.Errorf("inittrace named only %d of wopkit's packages: the test no longer sees them", seen)
	}
}

// TestThirdPartyInitIsLazy: the libraries whose init weighed on start-up
// do their work on first use (third_party/*/PATCH.md): jsonschema/v6
// compiled every draft's metaschemas (1.7 MB, 21,000 allocations),
// Masterminds/semver six regular expressions.
func TestThirdPartyInitIsLazy(t *testing.T) {
	t.Parallel()
	bound := map[string]int{
		"github.com/openwop/wopkit/third_party/jsonschema": 20 << 10, // 1.7 MB before
		"github.com/openwop/wopkit/third_party/semver":     4 << 10,  // 200 KB before
	}
	bounded := map[string]bool{}
	for _, c := range initCosts(t) {
		max, ok := bound[c.pkg]
		if !ok {
			continue
		}
		bounded[c.pkg] = true
		if c.bytes > max {
			t.Errorf("%s allocates %d bytes in %d allocations while the program starts: its lazy patch is lost (see third_party/)", c.pkg, c.bytes, c.allocs)
		}
	}
	for pkg := range bound {
		if !bounded[pkg] {
			t.Errorf("inittrace has no line for %s: is it still linked?", pkg)
		}
	}
}

// TestLazyMetaschemasStillCheckSchemas: with the metaschemas compiled on
// first use, a schema is still checked against its draft's metaschema,
// by compilers running at once.
func TestLazyMetaschemasStillCheckSchemas(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			c := jsonschema.NewCompiler()
			draft := []string{"https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"}[i%2]
			if err := c.AddResource("urn:x.json", map[string]any{"$schema": draft, "type": 5.0}); err != nil {
				errs[i] = err
				return
			}
			_, errs[i] = c.Compile("urn:x.json")
		})
	}
	wg.Wait()
	for i, err := range errs {
		var sve *jsonschema.SchemaValidationError
		if !errors.As(err, &sve) {
			t.Errorf("compiler %d: a schema with \"type\": 5 compiled (%v); its metaschema should refuse it", i, err)
		}
	}
}

// The --set keys of `new` (3 ms of reflection and JSON, most of building
// the command tree) are listed by `new --list-keys` alone, not by every
// command, nor by `new --help`, where 60 lines of them buried the examples
// (issue 35, item 8): the help is short, the examples before the flags.
func TestNewListKeys(t *testing.T) {
	t.Parallel()
	keys := scaffold.SetKeysHelp(96)
	first := strings.Fields(strings.SplitN(keys, "\n", 3)[1])[0]
	run := func(args ...string) string {
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(io.Discard)
		root.SetArgs(args)
		if err := fang.Execute(context.Background(), root); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	for _, args := range [][]string{{"new", "--help"}, {"help", "new"}} {
		help := run(args...)
		ex, fl := strings.Index(help, "wopkit new pack --yes"), strings.Index(help, "--accessible")
		if strings.Contains(help, first) || strings.Count(help, "\n") > 60 || ex < 0 || fl < ex || !strings.Contains(help, "--list-keys") {
			t.Errorf("%v: %d lines, keys listed %v, examples at %d, flags at %d:\n%s", args, strings.Count(help, "\n"), strings.Contains(help, first), ex, fl, help)
		}
	}
	if got := run("new", "--list-keys"); !strings.Contains(got, keys) {
		t.Errorf("new --list-keys does not list the --set keys:\n%s", got)
	}
}

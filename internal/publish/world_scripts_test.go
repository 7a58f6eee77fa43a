package publish

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
)

// checkWithScripts runs the registry's own index, SBOM, signature,
// advisory and consistency checks over the checkout and fails on any
// failure or drift, the landing page index.html and robots.txt included.
// It also runs build-index.mjs on a copy and requires the landing page it
// writes to be wopkit's byte for byte, but for the time stamp.
func checkWithScripts(t *testing.T, dir string) {
	t.Helper()
	if out, err := node(t, dir, "registry/scripts/build-index.mjs", "--check"); err != nil {
		t.Errorf("build-index --check failed on the staged tree: %v\n%s", err, out)
	}
	sameLandingAsScript(t, dir)
	scripts := [][]string{
		{"registry/scripts/generate-sbom.mjs", "--check"},
		{"registry/scripts/verify-signatures.mjs"},
		{"registry/scripts/check-advisories.mjs"},
		{"scripts/check-pack-tarball-signatures.mjs"},
		{"scripts/check-registry-signer-consistency.mjs"},
	}
	// With ajv (installed by fixtures.Ajv, or $AJV_DIR), also the registry's
	// structural conformance gate (pack.json in the tarball equals the
	// served version manifest, schemas compile) and its version-manifest
	// schema over every staged manifest.
	if ajv := ajvDir(t); ajv != "" {
		if err := os.Symlink(filepath.Join(ajv, "node_modules"), filepath.Join(dir, "node_modules")); err != nil && !os.IsExist(err) {
			t.Fatal(err)
		}
		scripts = append(scripts, []string{"registry/scripts/conformance-check.mjs"})
		if out, err := rvm.check(ajv, dir); err != nil {
			t.Errorf("the registry's version-manifest schema (ajv) refuses the staged tree: %v\n%s", err, out)
		}
	}
	for _, script := range scripts {
		if out, err := node(t, dir, script...); err != nil {
			t.Errorf("%s failed on the staged tree: %v\n%s", strings.Join(script, " "), err, out)
		}
	}
}

func TestFixtureReleasesPassTheRegistryScripts(t *testing.T) {
	// Serial: stageInvalidFixtures swaps a package variable.
	stageInvalidFixtures(t)
	needNode(t)
	dir := emptyRegistry(t)
	for _, tgz := range fixtureReleases(t) {
		p := publishOK(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1})
		if p.NoOp || len(p.Changes) == 0 {
			t.Fatalf("%s: nothing staged", tgz)
		}
	}
	checkWithScripts(t, dir)

	// A second run of every release changes no byte.
	before := treeHashes(t, filepath.Join(dir, "registry"))
	for _, tgz := range fixtureReleases(t) {
		if p := publishOK(t, Options{Tarball: tgz, Registry: dir, Spec: SpecV1}); !p.NoOp {
			t.Errorf("%s: second run planned %d change(s)", tgz, len(p.Changes))
		}
	}
	sameTree(t, before, treeHashes(t, filepath.Join(dir, "registry")))
}

// sameLandingAsScript runs build-index.mjs on a copy of the checkout and
// compares the index.html and robots.txt it writes with the checkout's.
func sameLandingAsScript(t *testing.T, dir string) {
	t.Helper()
	cp := t.TempDir()
	fixtures.CopyInto(t, dir, cp)
	if out, err := node(t, cp, "registry/scripts/build-index.mjs"); err != nil {
		t.Fatalf("build-index on a copy of the staged tree: %v\n%s", err, out)
	}
	for _, f := range []string{landingPath, robotsPath} {
		ours := readFile(t, filepath.Join(dir, "registry", f))
		theirs := readFile(t, filepath.Join(cp, "registry", f))
		if stripStamp(string(ours)) != stripStamp(string(theirs)) {
			t.Errorf("%s differs from what build-index.mjs writes: diff %s %s", f, filepath.Join(dir, "registry", f), filepath.Join(cp, "registry", f))
		}
	}
}

// rvmCheck validates every version manifest of the v1 tree of each
// checkout it is given (one absolute path a line on its input) against that
// checkout's copy of the registry's version-manifest schema with ajv, as
// the registry's CI does, and answers each with one line: {n, bad, errors}
// or {error}. It runs as one node process for the test binary (rvm): most of
// a run of its own (0.45 s of CPU) was loading ajv and compiling the schema,
// which it does once for each schema text it meets.
const rvmCheck = `
import Ajv from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
const compiled = new Map();
for await (const root of createInterface({ input: process.stdin })) {
  let reply;
  try {
    const text = readFileSync(root + '/schemas/registry-version-manifest.schema.json', 'utf8');
    let validate = compiled.get(text);
    if (!validate) {
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      validate = ajv.compile(JSON.parse(text));
      compiled.set(text, validate);
    }
    let bad = 0, n = 0;
    const errors = [];
    for (const p of readdirSync(root + '/registry/v1/packs')) {
      const d = root + '/registry/v1/packs/' + p + '/-';
      if (!existsSync(d)) continue;
      for (const f of readdirSync(d).filter((f) => f.endsWith('.json') && !f.endsWith('.sbom.json'))) {
        n++;
        if (!validate(JSON.parse(readFileSync(d + '/' + f, 'utf8')))) { bad++; errors.push(d + '/' + f + ' ' + JSON.stringify(validate.errors)); }
      }
    }
    reply = { n, bad, errors };
  } catch (e) {
    reply = { error: String((e && e.stack) || e) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}
`

// rvm is the rvmCheck process of the test binary, started by the first
// check (each caller has found node and ajv first: nothing here skips) and
// ended by TestMain.
var rvm rvmChecker

type rvmChecker struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errs bytes.Buffer // its standard error
	dead error        // why it no longer answers
}

// check runs rvmCheck over the checkout dir with ajv from the folder ajv,
// and returns an error (with what it said) when a manifest does not
// validate or the check could not run.
func (r *rvmChecker) check(ajv, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dead != nil {
		return r.errs.String(), r.dead
	}
	if r.cmd == nil {
		cmd := exec.Command("node", "--input-type=module", "-e", rvmCheck)
		cmd.Dir = ajv // where ajv and ajv-formats resolve from
		cmd.Env = append(nodeEnv(), "NO_COLOR=1")
		cmd.Stderr = &r.errs
		in, err := cmd.StdinPipe()
		if err != nil {
			return "", err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return "", err
		}
		if err := cmd.Start(); err != nil {
			return "", err
		}
		r.cmd, r.in, r.out = cmd, in, bufio.NewReader(out)
	}
	line, err := "", error(nil)
	if _, err = io.WriteString(r.in, abs+"\n"); err == nil {
		line, err = r.out.ReadString('\n')
	}
	if err != nil {
		r.dead = fmt.Errorf("the ajv check stopped answering: %w", err)
		return r.errs.String(), r.dead
	}
	var reply struct {
		N      int      `json:"n"`
		Bad    int      `json:"bad"`
		Errors []string `json:"errors"`
		Error  string   `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &reply); err != nil {
		return line, err
	}
	said := fmt.Sprintf("%d version manifests, %d invalid\n%s", reply.N, reply.Bad, strings.Join(reply.Errors, "\n"))
	switch {
	case reply.Error != "":
		return reply.Error, errors.New("the check failed")
	case reply.Bad != 0:
		return said, fmt.Errorf("%d of %d version manifests invalid", reply.Bad, reply.N)
	}
	return said, nil
}

// close ends the process (its input ends its loop).
func (r *rvmChecker) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		r.in.Close()
		r.cmd.Wait()
		r.cmd = nil
	}
}

// ajvDir is ajv's folder (fixtures.FindAjv: installed once, kept in the
// user cache folder), or "" when there is none: the scripts that need it
// are then left out, saying why, and the others still run.
func ajvDir(t *testing.T) string {
	t.Helper()
	dir, missing, err := fixtures.FindAjv()
	if err != nil {
		t.Fatal(err)
	}
	if missing != "" {
		t.Logf("%s: the registry's conformance gate and version-manifest schema check are left out", missing)
	}
	return dir
}

// A release wopkit scaffolds, packs and signs itself (with a key generated
// here and registered in the copy's .well-known) passes the registry's own
// checks once staged beside the fixture releases.
func TestScaffoldedReleasePassesTheRegistryScripts(t *testing.T) {
	t.Parallel()
	oracle := oracleRegistry(t)
	root := filepath.Join(oracle, "registry")
	key := addTestKey(t, root, "active")
	for _, v := range []string{"1.0.0", "1.1.0"} {
		tgz := release(t, key, sign.MethodManual, "community.wopkit-test.hello", v, nil)
		p := publishOK(t, Options{Tarball: tgz, Registry: oracle, Spec: SpecV1})
		if p.NoOp {
			t.Fatalf("%s: nothing staged", tgz)
		}
		if len(p.Notes) != 0 {
			t.Errorf("notes: %v", p.Notes) // the sidecar version manifest wopkit pack writes is used
		}
	}
	checkWithScripts(t, oracle)
}

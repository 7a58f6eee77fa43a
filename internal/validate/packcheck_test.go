//go:build unix

package validate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// cleanPack writes a node pack that validates and packs, and returns its
// directory.
func cleanPack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pack.json": `{
  "name": "vendor.acme.preflight",
  "version": "1.0.0",
  "description": "preflight",
  "license": "MIT",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "runtime": {"language": "javascript", "format": "esm", "entry": "index.mjs"},
  "nodes": [{"typeId": "vendor.acme.preflight.echo", "version": "1.0.0", "category": "data", "role": "transform", "label": "Echo",
    "inputSchemaRef": "schemas/in.json"}]
}`,
		"index.mjs":       "export const nodes = {};\nexport default nodes;\n",
		"schemas/in.json": `{"type": "object"}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// npmToken is a made-up npm token of the real shape.
func npmToken() string {
	const alnums = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789"
	var b strings.Builder
	b.WriteString("npm_")
	for i := range 36 {
		b.WriteByte(alnums[(i*7+3)%len(alnums)])
	}
	return b.String()
}

// limits are small enough for a 2 KiB file to be over them.
var limits = tarball.Limits{MaxCompressed: 1 << 20, MaxUnpacked: 1 << 20, MaxEntry: 1 << 10, MaxManifest: 1 << 10, MaxEntries: 100}

// refused is one thing `wopkit pack` refuses in a pack directory.
type refused struct {
	name, file, code string
	make             func(t *testing.T, dir string)
}

func write(name, data string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var refusedThings = []refused{
	{"a named pipe", "schemas/pipe.json", "pack_unsafe_entry", func(t *testing.T, dir string) {
		if err := syscall.Mkfifo(filepath.Join(dir, "schemas", "pipe.json"), 0o644); err != nil {
			t.Skipf("cannot make a named pipe: %v", err)
		}
	}},
	{"a credential", "prompts/.npmrc", "pack_secret", write("prompts/.npmrc", "//registry.npmjs.org/:_authToken="+npmToken()+"\n")},
	{"a private key", "keys/dev.key", "pack_private_key", write("keys/dev.key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n")},
	{"a forbidden file", "schemas/.env", "pack_file_forbidden", write("schemas/.env", "TOKEN=x")},
	{"a file over the limits", "schemas/big.json", "pack_too_large", write("schemas/big.json", `{"description": "`+strings.Repeat("x", 2<<10)+`"}`)},
	{"an ignored referenced file", "schemas/in.json", "pack_file_ignored", write(pack.IgnoreFile, "schemas/in.json\n")},
	{"a Windows device name", "schemas/aux.json", tarball.CodeWindowsName, write("schemas/aux.json", "{}")},
}

// `validate DIR` is the preflight of `pack DIR`: what pack refuses,
// validate reports as an error named by pack's code, on the file it is
// about; and pack refuses the same.
func TestValidateReportsWhatPackRefuses(t *testing.T) {
	t.Parallel()
	v, err := validate.New(validate.Options{Limits: &limits})
	if err != nil {
		t.Fatal(err)
	}
	clean := cleanPack(t)
	if rep, err := v.Path(clean); err != nil || !rep.Valid {
		t.Fatalf("the clean pack does not validate: %v %+v", err, rep)
	}
	if _, err := pack.Pack(context.Background(), pack.Options{Dir: clean, Output: filepath.Join(t.TempDir(), "o.tgz"), Limits: &limits, Validate: validate.BeforePack}); err != nil {
		t.Fatalf("the clean pack does not pack: %v", err)
	}
	for _, tc := range refusedThings {
		t.Run(tc.name, func(t *testing.T) {
			dir := cleanPack(t)
			tc.make(t, dir)
			_, perr := pack.Pack(context.Background(), pack.Options{Dir: dir, Output: filepath.Join(t.TempDir(), "o.tgz"), Limits: &limits, Validate: validate.BeforePack})
			if werr.CodeOf(perr) != tc.code {
				t.Errorf("pack: code %q, want %q (%v)", werr.CodeOf(perr), tc.code, perr)
			}
			if werr.ExitCode(perr) != 1 {
				t.Errorf("pack: exit %d, want 1", werr.ExitCode(perr))
			}
			rep, err := v.Path(dir)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Valid {
				t.Fatalf("validate says valid where pack refuses with %s", tc.code)
			}
			p := findRule(rep, tc.code)
			if p == nil {
				t.Fatalf("validate: no [%s]\n%s", tc.code, problems(rep))
			}
			if want := filepath.ToSlash(filepath.Join(dir, tc.file)); !strings.HasSuffix(p.File, tc.file) && p.File != want {
				t.Errorf("[%s] reported on %s, want %s", tc.code, p.File, tc.file)
			}
		})
	}
}

// Every refusal at once: validate lists them all, where pack stops at the
// first.
func TestValidateListsEveryPackRefusal(t *testing.T) {
	t.Parallel()
	dir := cleanPack(t)
	for _, tc := range refusedThings {
		tc.make(t, dir)
	}
	v, err := validate.New(validate.Options{Limits: &limits})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range refusedThings {
		if findRule(rep, tc.code) == nil {
			t.Errorf("no [%s] (%s)", tc.code, tc.name)
		}
	}
	if t.Failed() {
		t.Log(problems(rep))
	}
}

// Pack validates with the check skipped (it collects the files itself):
// its refusal keeps pack's own code, not pack_invalid.
func TestPackSkipsTheCheckWhenValidating(t *testing.T) {
	t.Parallel()
	dir := cleanPack(t)
	write("keys/dev.key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n")(t, dir)
	if err := validate.BeforePack(dir, pack.Options{Dir: dir}); err != nil {
		t.Errorf("pack's validation reports what its collection refuses: %v", err)
	}
}

func findRule(rep *validate.Report, rule string) *validate.Problem {
	for _, f := range rep.Files {
		for i := range f.Errors {
			if f.Errors[i].Rule == rule {
				return &f.Errors[i]
			}
		}
	}
	return nil
}

func problems(rep *validate.Report) string {
	var b strings.Builder
	for _, p := range rep.Problems() {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

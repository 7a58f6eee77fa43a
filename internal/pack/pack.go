// Package pack builds a pack directory into the registry's tarball format
// (docs/FORMATS.md §3): it collects what goes in, writes the canonical pack.json
// (signed in the same step when a sign.Signer is given), streams a
// deterministic gzip'd USTAR archive, and writes the detached signature and
// the registry-style version manifest beside it, all or nothing.
package pack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Options says what to pack and how.
type Options struct {
	Dir    string      // the pack directory (holds pack.json)
	Output string      // tarball path; "" is <name>-<version>.tgz in the current directory
	Signer sign.Signer // nil: pack.json's signing block and keys/pack.json.sig are kept as they are
	// NoValidate packs even when validation fails or referenced files are missing.
	NoValidate bool
	// DryRun lists what would go in and computes the integrity, writing nothing.
	DryRun bool
	// ForRegistry turns the registry limits (docs/FORMATS.md §3) into errors.
	ForRegistry bool
	// Limits, when set, are the size limits the pack must meet without
	// ForRegistry (wopkit pack --max-size; the registry's by default, so
	// that validate, inspect and verify read what pack writes).
	Limits *tarball.Limits
	// Level is the gzip level (0: the tarball package default); Concurrency
	// the number of compressing goroutines (0: one per CPU).
	Level, Concurrency int
	// SchemaDir holds JSON Schemas that replace the embedded ones by $id
	// (validate's --schemas).
	SchemaDir string
	// Validate checks the pack before packing (validate.BeforePack, which
	// this package cannot import: validate runs Check); without it, and
	// without NoValidate, Pack refuses (pack_not_validated).
	Validate func(dir string, opts Options) error
	// FS, when set, is the pack itself, held by the caller (a plan not yet
	// written: wopkit new's preflight packs it as it will be): every file
	// is read from it, and Dir only names the pack in messages.
	FS fs.FS
}

// Result says what was (or, for a dry run, would be) written.
type Result struct {
	Output          string   `json:"output"`
	Integrity       string   `json:"integrity"`
	Size            int64    `json:"size"`
	Files           []File   `json:"files"`
	Signature       *string  `json:"signature"`
	VersionManifest string   `json:"versionManifest,omitempty"`
	Method          string   `json:"method,omitempty"`
	DryRun          bool     `json:"dryRun"`
	Missing         []string `json:"missing,omitempty"`
	// NotWritten says why the detached signature and the version manifest
	// were not written: the output is standard output, a device or a named
	// pipe, beside which nothing is written.
	NotWritten string `json:"notWritten,omitempty"`
}

// Pack builds the pack in opts.Dir. On any failure nothing is left behind:
// outputs are written to temporary names and renamed together at the end.
func Pack(ctx context.Context, opts Options) (*Result, error) {
	dir, src, err := openPack(opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	data, err := readManifest(src, dir)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data, filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	if !opts.NoValidate {
		if opts.Validate == nil {
			return nil, werr.New(werr.Invalid, "pack_not_validated", "%s: nothing was given to validate the pack before packing it", dir).
				WithHint("a program that packs passes validate.BeforePack as pack.Options.Validate (or NoValidate to pack without validating)")
		}
		if err := opts.Validate(dir, opts); err != nil {
			return nil, err
		}
	}
	c, err := collect(src, dir, m, opts.NoValidate)
	if err != nil {
		return nil, err
	}
	if len(c.missing) > 0 && !opts.NoValidate {
		return nil, missingErr(dir, c.missing...)
	}
	if len(c.ignored) > 0 && !opts.NoValidate {
		return nil, ignoredErr(dir, c.ignored...)
	}

	b, err := build(ctx, m, c, opts)
	if err != nil {
		return nil, err
	}
	return finish(ctx, m, c, b, opts)
}

// finish names the outputs, applies the registry limits and writes.
func finish(ctx context.Context, m *Manifest, c *collected, b *built, opts Options) (*Result, error) {
	dir := opts.Dir
	res := &Result{Files: b.files, DryRun: opts.DryRun, Missing: c.missing, Method: b.method}
	res.Output = opts.Output
	if res.Output == "" {
		res.Output = m.Name + "-" + m.Version + ".tgz"
	}
	base := strings.TrimSuffix(res.Output, ".tgz")
	if kind := atomicfile.StreamKind(res.Output); kind != "" {
		// Nothing goes beside a stream: no NAME.sig, no NAME.json.
		what := "the version manifest"
		if b.detached != nil {
			what = "the detached signature (" + b.detachedExt + ") and the version manifest"
		}
		res.NotWritten = fmt.Sprintf("%s not written: -o %s is %s, beside which wopkit writes nothing; pack to a file (-o NAME.tgz) to get them", what, res.Output, article(kind))
	} else {
		if b.detached != nil {
			p := base + b.detachedExt
			res.Signature = &p
		}
		res.VersionManifest = base + ".json"
	}
	if lim, ok := opts.limits(); ok {
		if err := checkLimits(b, dir, lim, opts.ForRegistry); err != nil {
			return nil, err
		}
	}
	if err := write(ctx, res, m, b, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// article is kind with its article ("a device", "standard output").
func article(kind string) string {
	if kind == "standard output" {
		return kind
	}
	return "a " + kind
}

// built is the in-memory part of a pack being written.
type built struct {
	files       []File
	entries     []tarball.Entry
	packJSON    []byte
	signing     map[string]any
	method      string
	detached    []byte
	detachedExt string
}

func build(ctx context.Context, m *Manifest, c *collected, opts Options) (*built, error) {
	b := &built{signing: m.Signing(), method: methodOf(m.Signing())}
	strict := b.method == sign.MethodV2
	var block map[string]any
	if opts.Signer != nil {
		block = opts.Signer.Block()
		b.signing, b.method, strict = block, opts.Signer.Method(), opts.Signer.Method() == sign.MethodV2
	}
	pj, err := m.Canonical(block, strict)
	if err != nil {
		return nil, err
	}
	b.packJSON = pj
	mem := map[string][]byte{ManifestFile: pj}
	if opts.Signer != nil {
		// Signing replaces every signature the directory held.
		delete(c.files, sign.SignatureFile)
		delete(c.files, sign.SigstoreFile)
		sig, err := opts.Signer.Sign(ctx, pj)
		if err != nil {
			return nil, err
		}
		for name, data := range sig.Files {
			mem[name] = data
		}
		b.detached, b.detachedExt = sig.Detached, sig.DetachedExt
	} else if b.signing != nil {
		if _, ok := c.files[sign.SignatureFile]; ok {
			if f, err := c.open(sign.SignatureFile); err == nil {
				data, err := io.ReadAll(io.LimitReader(f, 1024))
				f.Close()
				if err == nil {
					b.detached, b.detachedExt = data, sign.DetachedSigExt
				}
			}
		}
	}
	names := make([]string, 0, len(c.files)+len(mem))
	for n := range c.files {
		names = append(names, n)
	}
	for n := range mem {
		if _, ok := c.files[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		if data, ok := mem[n]; ok {
			b.files = append(b.files, File{Path: n, Size: int64(len(data))})
			b.entries = append(b.entries, tarball.Entry{Name: n, Size: int64(len(data)),
				Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
			continue
		}
		n, size := n, c.files[n]
		b.files = append(b.files, File{Path: n, Size: size})
		b.entries = append(b.entries, tarball.Entry{Name: n, Size: size,
			Open: func() (io.ReadCloser, error) { return c.open(n) }})
	}
	return b, nil
}

// methodOf names the scheme of an existing signing block.
func methodOf(s map[string]any) string {
	if s == nil {
		return ""
	}
	if sc, _ := s["scheme"].(string); sc == sign.SchemeV2 {
		return sign.MethodV2
	}
	m, _ := s["method"].(string)
	return m
}

// integrityOf is the SRI form of a SHA-256 digest.
func integrityOf(sum []byte) string {
	return "sha256-" + base64.StdEncoding.EncodeToString(sum)
}

// Integrity returns the SRI integrity ("sha256-<base64>") of data.
func Integrity(data []byte) string {
	s := sha256.Sum256(data)
	return integrityOf(s[:])
}

func concurrency(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

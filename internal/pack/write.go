package pack

import (
	"bufio"
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"path/filepath"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Registry limits of docs/FORMATS.md §3.
const (
	LimitCompressed = 10 << 20
	LimitUnpacked   = 50 << 20
	LimitManifest   = 256 << 10
	LimitEntry      = 5 << 20
)

// limits are the size limits the pack must meet: the registry's with
// ForRegistry, else opts.Limits when set.
func (o Options) limits() (tarball.Limits, bool) {
	switch {
	case o.ForRegistry:
		return tarball.RegistryLimits, true
	case o.Limits != nil:
		return *o.Limits, true
	}
	return tarball.Limits{}, false
}

func tooLarge(dir, what string, limit, actual int64, forRegistry bool) *werr.Error {
	e := werr.New(werr.Invalid, "pack_too_large", "%s in %s: %d bytes, the limit is %d bytes", what, dir, actual, limit)
	if forRegistry {
		return e.WithHint("the registry accepts no larger pack (docs/FORMATS.md §3): make it smaller")
	}
	return e.WithHint("make it smaller, or for a private pack raise the limits with --max-size MB (every reader of the tarball then needs the same flag)")
}

// checkLimits applies the limits known before compressing: the first
// file over them is refused.
func checkLimits(b *built, dir string, lim tarball.Limits, forRegistry bool) error {
	if over := overLimits(b, dir, lim, forRegistry); len(over) > 0 {
		return over[0].Err
	}
	return nil
}

// overLimits lists every file (and the unpacked total) over the limits
// known before compressing.
func overLimits(b *built, dir string, lim tarball.Limits, forRegistry bool) []Refusal {
	var out []Refusal
	manifestOver := false
	if n := int64(len(b.packJSON)); lim.MaxManifest > 0 && n > lim.MaxManifest {
		out = append(out, Refusal{ManifestFile, tooLarge(dir, ManifestFile, lim.MaxManifest, n, forRegistry)})
		manifestOver = true
	}
	var total int64
	for _, f := range b.files {
		if lim.MaxEntry > 0 && f.Size > lim.MaxEntry && !(manifestOver && f.Path == ManifestFile) {
			out = append(out, Refusal{f.Path, tooLarge(dir, f.Path, lim.MaxEntry, f.Size, forRegistry)})
		}
		total += f.Size
	}
	if lim.MaxUnpacked > 0 && total > lim.MaxUnpacked {
		out = append(out, Refusal{"", tooLarge(dir, "the unpacked pack", lim.MaxUnpacked, total, forRegistry)})
	}
	return out
}

// countingHash hashes and counts what passes through it.
type countingHash struct {
	w io.Writer
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// write streams the tarball to a temporary file beside the output (or only
// through the hash for a dry run), writes the detached signature and the
// version manifest to temporary names, and renames all three at the end.
func write(ctx context.Context, res *Result, m *Manifest, b *built, opts Options) error {
	h := sha256.New()
	wopts := tarball.WriteOptions{Level: opts.Level, Concurrency: concurrency(opts.Concurrency)}
	if opts.DryRun {
		cw := &countingHash{w: h}
		if err := tarball.Write(cw, b.entries, wopts); err != nil {
			return err
		}
		res.Integrity, res.Size = integrityOf(h.Sum(nil)), cw.n
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if res.NotWritten != "" {
		return writeStream(res, b, wopts, opts, h)
	}
	// -o DIR/x.tgz: DIR is created when missing.
	if err := atomicfile.MkdirAll(filepath.Dir(res.Output), 0o755); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot create the directory of %s", res.Output).
			WithHint("check the -o path and its permissions")
	}
	// One release at a time into a folder; the renames a killed one left
	// are completed, and its temporaries removed, before this one writes.
	outDir := filepath.Dir(res.Output)
	unlock, err := atomicfile.LockDir(outDir)
	if err != nil {
		return err
	}
	defer unlock()
	finals := []string{res.Output, res.VersionManifest}
	if res.Signature != nil {
		finals = append(finals, *res.Signature)
	}
	if err := recoverRelease(outDir, finals); err != nil {
		return err
	}
	journal, err := openReleaseJournal(outDir)
	if err != nil {
		return err
	}
	batch := atomicfile.Batch{Journal: journal}
	defer batch.Abort() // a no-op once committed
	tf, err := batch.Create(res.Output, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tf, 256<<10)
	cw := &countingHash{w: io.MultiWriter(bw, h)}
	if err := tarball.Write(cw, b.entries, wopts); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", res.Output)
	}
	res.Integrity, res.Size = integrityOf(h.Sum(nil)), cw.n
	if lim, ok := opts.limits(); ok && lim.MaxCompressed > 0 && res.Size > lim.MaxCompressed {
		return tooLarge(opts.Dir, res.Output, lim.MaxCompressed, res.Size, opts.ForRegistry)
	}
	if res.Signature != nil {
		if err := batch.Add(*res.Signature, b.detached, 0o644); err != nil {
			return err
		}
	}
	vm, err := m.VersionManifest(b.signing, res.Integrity)
	if err != nil {
		return err
	}
	if err := batch.Add(res.VersionManifest, vm, 0o644); err != nil {
		return err
	}
	return batch.Commit()
}

// writeStream writes the tarball alone into standard output, a device or a
// named pipe: no lock, journal or sidecar in the folder around it.
func writeStream(res *Result, b *built, wopts tarball.WriteOptions, opts Options, h hash.Hash) error {
	f, err := atomicfile.Create(res.Output, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	cw := &countingHash{w: io.MultiWriter(bw, h)}
	err = tarball.Write(cw, b.entries, wopts)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Abort()
		return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", res.Output)
	}
	res.Integrity, res.Size = integrityOf(h.Sum(nil)), cw.n
	if lim, ok := opts.limits(); ok && lim.MaxCompressed > 0 && res.Size > lim.MaxCompressed {
		f.Abort()
		return tooLarge(opts.Dir, res.Output, lim.MaxCompressed, res.Size, opts.ForRegistry)
	}
	return f.Commit()
}

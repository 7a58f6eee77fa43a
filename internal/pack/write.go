package pack

import (
	"bufio"
	"context"
	"crypto/sha256"
	"github.com/openwop/wopkit/internal/atomicfile"
	"io"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/werr"
)

// Registry limits of SPEC-NOTES §3.
const (
	LimitCompressed = 10 << 20
	LimitUnpacked   = 50 << 20
	LimitManifest   = 256 << 10
	LimitEntry      = 5 << 20
)

func tooLarge(dir, what string, limit, actual int64) error {
	return werr.New(werr.Invalid, "pack_too_large", "%s in %s: %d bytes, the registry limit is %d bytes", what, dir, actual, limit).
		WithHint("make it smaller, or pack without a registry target (no --sign, no --for-registry)")
}

// checkLimits applies the registry limits known before compressing.
func checkLimits(b *built, dir string) error {
	if n := int64(len(b.packJSON)); n > LimitManifest {
		return tooLarge(dir, "pack.json", LimitManifest, n)
	}
	var total int64
	for _, f := range b.files {
		if f.Size > LimitEntry {
			return tooLarge(dir, f.Path, LimitEntry, f.Size)
		}
		total += f.Size
	}
	if total > LimitUnpacked {
		return tooLarge(dir, "the unpacked pack", LimitUnpacked, total)
	}
	return nil
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
	var batch atomicfile.Batch
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
	if opts.ForRegistry && res.Size > LimitCompressed {
		return tooLarge(opts.Dir, res.Output, LimitCompressed, res.Size)
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

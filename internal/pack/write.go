package pack

import (
	"bufio"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"

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
	var temps []string
	done := false
	defer func() {
		if !done {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	create := func(final string) (*os.File, error) {
		f, err := os.CreateTemp(filepath.Dir(final), "."+filepath.Base(final)+".tmp-*")
		if err != nil {
			return nil, werr.Wrap(werr.Env, "write_failed", err, "cannot create %s", final).
				WithHint("check that the output directory exists and is writable")
		}
		temps = append(temps, f.Name())
		if err := f.Chmod(0o644); err != nil {
			f.Close()
			return nil, werr.Wrap(werr.Env, "write_failed", err, "cannot set the mode of %s", final)
		}
		return f, nil
	}
	tf, err := create(res.Output)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tf, 256<<10)
	cw := &countingHash{w: io.MultiWriter(bw, h)}
	if err := tarball.Write(cw, b.entries, wopts); err != nil {
		tf.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tf.Close()
		return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", res.Output)
	}
	if err := tf.Close(); err != nil {
		return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", res.Output)
	}
	res.Integrity, res.Size = integrityOf(h.Sum(nil)), cw.n
	if opts.ForRegistry && res.Size > LimitCompressed {
		return tooLarge(opts.Dir, res.Output, LimitCompressed, res.Size)
	}

	renames := [][2]string{}
	small := func(final string, data []byte) error {
		f, err := create(final)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", final)
		}
		if err := f.Close(); err != nil {
			return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", final)
		}
		renames = append(renames, [2]string{f.Name(), final})
		return nil
	}
	if res.Signature != nil {
		if err := small(*res.Signature, b.detached); err != nil {
			return err
		}
	}
	vm, err := m.VersionManifest(b.signing, res.Integrity)
	if err != nil {
		return err
	}
	if err := small(res.VersionManifest, vm); err != nil {
		return err
	}
	renames = append(renames, [2]string{tf.Name(), res.Output})
	for _, r := range renames {
		if err := os.Rename(r[0], r[1]); err != nil {
			return werr.Wrap(werr.Env, "write_failed", err, "cannot write %s", r[1])
		}
	}
	done = true
	return nil
}

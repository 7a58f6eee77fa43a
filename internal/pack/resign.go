package pack

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// SignTarball re-signs the pack tarball at path with opts.Signer: the
// tarball is read in memory through the safe reader (hostile archives are
// refused before anything is written), its old signatures are dropped, and
// a new tarball, detached signature and version manifest are written
// (opts.Output, by default over path itself, atomically).
func SignTarball(ctx context.Context, path string, opts Options) (*Result, error) {
	if opts.Signer == nil {
		return nil, werr.New(werr.Usage, "sign_method_missing", "signing %s needs a signing method", path).
			WithHint("pass --sign manual|v2|sigstore")
	}
	lim := tarball.DefaultLimits
	if opts.ForRegistry {
		lim = tarball.RegistryLimits
	}
	f, err := untrusted.OpenNamed(path, -1) // the tarball reader bounds what it reads
	if werr.CodeOf(err) != "" {
		return nil, err
	}
	if err != nil {
		return nil, werr.Wrap(werr.Env, "file_unreadable", err, "cannot read %s", path).WithHint("check the path")
	}
	a, err := tarball.ReadAll(io.LimitReader(f, lim.MaxCompressed+1), lim)
	f.Close()
	if err != nil {
		return nil, err
	}
	pf := a.Get(ManifestFile)
	if pf == nil {
		return nil, werr.New(werr.Invalid, "tarball_manifest_missing", "%s has no pack.json", path)
	}
	m, err := ParseManifest(pf.Data, path+"!pack.json")
	if err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	c := &collected{files: map[string]int64{}, open: func(rel string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data[rel])), nil
	}}
	budget := newScanBudget()
	for _, file := range a.Files {
		switch file.Name {
		case ManifestFile, sign.SignatureFile, sign.SigstoreFile:
			continue // replaced by the new signing
		}
		if file.Dir {
			continue
		}
		where := path + "!" + file.Name
		if why := forbiddenReason(file.Name); why != "" {
			return nil, werr.New(werr.Invalid, "pack_file_forbidden", "%s is %s and is never packed", where, why).
				WithHint("repack from the source directory without it")
		}
		what, err := scanSecrets(bytes.NewReader(file.Data), file.Name, budget)
		if errors.Is(err, ErrScanBudget) {
			return nil, scanBudgetErr(file.Name, path)
		}
		if what != "" {
			return nil, werr.New(werr.Invalid, "pack_private_key", "%s holds %s; a private key is never packed", where, what).
				WithHint("repack from the source directory without it")
		}
		data[file.Name] = file.Data
		c.files[file.Name] = int64(len(file.Data))
	}
	c.files[ManifestFile] = int64(len(pf.Data))
	if opts.Output == "" {
		opts.Output = path
	}
	opts.Dir = path
	b, err := build(ctx, m, c, opts)
	if err != nil {
		return nil, err
	}
	return finish(ctx, m, c, b, opts)
}

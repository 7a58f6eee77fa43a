package pack

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// memTree reads the pack directory dir into memory, as a plan not yet
// written is held.
func memTree(t *testing.T, dir string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// packBoth packs dir from the disk and the same files from memory (opts
// as given, Dir and FS and Output set here), and returns the two results'
// bytes: the tarball, the detached signature and the version manifest.
func packBoth(t *testing.T, dir string, opts Options) (disk, mem [3][]byte, errDisk, errMem error) {
	t.Helper()
	read := func(res *Result) (out [3][]byte) {
		out[0], _ = os.ReadFile(res.Output)
		if res.Signature != nil {
			out[1], _ = os.ReadFile(*res.Signature)
		}
		out[2], _ = os.ReadFile(res.VersionManifest)
		return out
	}
	o := opts
	o.Dir, o.Output = dir, filepath.Join(t.TempDir(), "disk.tgz")
	res, errDisk := Pack(context.Background(), o)
	if errDisk == nil {
		disk = read(res)
	}
	o = opts
	o.Dir, o.FS, o.Output = dir, memTree(t, dir), filepath.Join(t.TempDir(), "mem.tgz")
	res, errMem = Pack(context.Background(), o)
	if errMem == nil {
		mem = read(res)
	}
	return disk, mem, errDisk, errMem
}

// TestPackFromMemoryMatchesDisk (issue 26): a pack held in memory (an
// fs.FS, as wopkit new's preflight holds its plan) packs to the very bytes
// the same files give from a directory, signed or not; the disk's tarball
// is checked against the registry's elsewhere (TestRepackFixturesIdentical),
// so the memory's is too. Each refusal is the same from both, with the
// same code and the file named the same way.
func TestPackFromMemoryMatchesDisk(t *testing.T) {
	t.Parallel()
	key, _ := sign.GenerateKey(sign.Ed25519)
	v2, err := sign.NewEd25519Signer(sign.MethodV2, key, "acme-1")
	if err != nil {
		t.Fatal(err)
	}
	trees := map[string]string{"basic": fixtures.CopyDir(t, "testdata/basic")}
	if _, ok := fixtures.Find(); ok {
		// The registry's published packs, packed from memory as they were
		// published: the very tar stream the registry holds.
		for _, tgz := range fixtures.Tarballs(t, "manual") {
			want, _ := os.ReadFile(tgz)
			name := filepath.Base(filepath.Dir(filepath.Dir(tgz)))
			dir := fixtures.Untar(t, tgz, t.TempDir())
			trees[name] = dir
			out := filepath.Join(t.TempDir(), "mem.tgz")
			if _, err := Pack(context.Background(), Options{Dir: dir, FS: memTree(t, dir), Output: out, NoValidate: true}); err != nil {
				t.Fatalf("%s from memory: %v", name, err)
			}
			got, _ := os.ReadFile(out)
			if !bytes.Equal(fixtures.Gunzip(t, got), fixtures.Gunzip(t, want)) {
				t.Errorf("%s packed from memory: the tar stream differs from the registry's %s", name, tgz)
			}
		}
	} else {
		t.Log("../shared/fixtures not found: the registry's packs are not packed from memory (testdata/basic still is)")
	}
	for name, dir := range trees {
		for _, signer := range []sign.Signer{nil, v2} {
			disk, mem, errDisk, errMem := packBoth(t, dir, Options{Signer: signer, Validate: noValidate, ForRegistry: signer != nil})
			if werr.CodeOf(errDisk) != werr.CodeOf(errMem) || (errDisk == nil) != (errMem == nil) {
				t.Errorf("%s (signed %v): disk %v, memory %v", name, signer != nil, errDisk, errMem)
				continue
			}
			if errDisk != nil {
				continue // a source pack the registry's limits refuse: refused the same way
			}
			if len(disk[0]) == 0 {
				t.Errorf("%s: no tarball", name)
			}
			for i, what := range []string{"tarball", "signature", "version manifest"} {
				if !bytes.Equal(disk[i], mem[i]) {
					t.Errorf("%s (signed %v): the %s packed from memory differs from the one packed from disk", name, signer != nil, what)
				}
			}
		}
	}

	key2, _ := sign.GenerateKey(sign.Ed25519)
	keyPEM, _ := sign.MarshalPrivateKeyPEM(key2, nil)
	for _, tc := range []struct{ file, code string }{
		{"keys/dev.key", "pack_private_key"},
		{"schemas/.env", "pack_file_forbidden"},
		{"schemas/broken.json", "pack_json_invalid"},
	} {
		dir := fixtures.CopyDir(t, "testdata/basic")
		data := keyPEM
		if tc.code == "pack_json_invalid" {
			data = []byte("{")
		}
		os.WriteFile(filepath.Join(dir, filepath.FromSlash(tc.file)), data, 0o644)
		_, _, errDisk, errMem := packBoth(t, dir, Options{Validate: noValidate})
		if werr.CodeOf(errDisk) != tc.code || werr.CodeOf(errMem) != tc.code || errDisk.Error() != errMem.Error() {
			t.Errorf("%s: disk %v, memory %v; want %s from both, worded alike", tc.file, errDisk, errMem, tc.code)
		}
	}
}

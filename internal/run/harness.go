package run

import (
	_ "embed"
	"path/filepath"

	"github.com/openwop/wopkit/internal/atomicfile"

	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/werr"
)

// harnessJS is the JavaScript that imports the pack and calls its nodes
// (see harness.mjs for its protocol).
//
//go:embed harness.mjs
var harnessJS []byte

// writeHarness writes the harness to path and makes the scratch folder, the
// only one the pack may write in.
func writeHarness(path, scratch string) error {
	p, err := atomicfile.OpenPlace(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer p.Close()
	if err := p.Mkdir(scratch, 0o700); err != nil {
		return err
	}
	return p.WriteFile(path, harnessJS, 0o600)
}

// checkTree refuses a pack folder through which a reader confined to it by
// path could read elsewhere (a link out, a hard-linked file, a device).
func checkTree(dir string) error {
	esc, err := sandbox.CheckTree(dir, 5)
	if err != nil {
		return werr.Wrap(werr.Env, "pack_unreadable", err, "cannot check the pack folder %s", dir)
	}
	if len(esc) > 0 {
		return werr.New(werr.Invalid, "pack_escapes_folder", "%s in the pack is %s: node limits reads by path, so the pack's code could read through it what it leads to", esc[0].Path, esc[0].Reason).
			WithHint("replace it with a regular file (a copy), then run again")
	}
	return nil
}

package main

import (
	"os"
	"path/filepath"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
)

// defaultSignMethod is the method `wopkit sign` uses when --sign is not
// given: v2 (ed25519-canonical-json) for a v2 pack, manual for a v1 pack,
// as internal/validate detects the spec version of its pack.json. A
// pack.json that cannot be read or parsed falls back to v2, the spec the
// registry publishes new versions under; signing then reports the real
// problem with its file and position.
func defaultSignMethod(path string, st os.FileInfo) string {
	var src []byte
	if st.IsDir() {
		if b, err := readRegular(filepath.Join(path, pack.ManifestFile)); err == nil {
			src = b
		}
	} else if !st.Mode().IsRegular() {
		return sign.MethodV2 // refused later with the file's name
	} else if f, err := untrusted.OpenNamed(path, -1); err == nil {
		a, err := tarball.ReadAll(f, tarball.RegistryLimits)
		f.Close()
		if err == nil {
			if pf := a.Get(pack.ManifestFile); pf != nil {
				src = pf.Data
			}
		}
	}
	if src == nil {
		return sign.MethodV2
	}
	doc, err := jsondoc.Parse(src)
	if err != nil {
		return sign.MethodV2
	}
	if spec, _ := kinds.DetectSpec(doc.Root); spec == kinds.V1 {
		return sign.MethodManual
	}
	return sign.MethodV2
}

// readRegular reads a regular file of at most 256 KiB (the registry's
// pack.json limit); anything else is an error.
func readRegular(name string) ([]byte, error) {
	return untrusted.ReadFile(name, 256<<10)
}

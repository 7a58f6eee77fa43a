package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/publish/sbom"
	"github.com/openwop/wopkit/internal/werr"
)

// planSBOMs plans the SBOM of each version in versions (name -> versions)
// and the aggregate SBOM of the whole tree. The SBOM of any other version is
// taken as it is on disk (generated in memory only when missing, so that the
// aggregate still names its true hash).
func (t *Tree) planSBOMs(versions map[string][]string) error {
	for name, vs := range versions {
		for _, v := range vs {
			b, err := t.versionSBOM(name, v)
			if err != nil {
				return err
			}
			t.put(t.VersionFile(name, v, ".sbom.json"), b)
		}
	}
	packs, err := t.list(t.packsDir(), true)
	if err != nil {
		return err
	}
	var refs []sbom.Ref
	for _, name := range packs {
		files, err := t.list(t.versionsDir(name), false)
		if err != nil {
			return err
		}
		var vs []string
		for _, f := range files {
			if v, ok := strings.CutSuffix(f, ".tgz"); ok {
				vs = append(vs, v)
			}
		}
		sort.Strings(vs)
		for _, v := range vs {
			if ok, err := t.exists(t.VersionFile(name, v, ".json")); err != nil {
				return err
			} else if !ok {
				continue
			}
			b, ok, err := t.read(t.VersionFile(name, v, ".sbom.json"))
			if err != nil {
				return err
			}
			if !ok {
				if b, err = t.versionSBOM(name, v); err != nil {
					return err
				}
			}
			sum := sha256.Sum256(b)
			refs = append(refs, sbom.Ref{Name: name, Version: v, URL: t.URL("versionSbom", name, v), SHA256: hex.EncodeToString(sum[:])})
		}
	}
	t.put(t.AggregateSBOM(), sbom.Aggregate(refs))
	return nil
}

func (t *Tree) versionSBOM(name, v string) ([]byte, error) {
	mb, ok, err := t.read(t.VersionFile(name, v, ".json"))
	if err != nil || !ok {
		return nil, err
	}
	manifest, err := jsjson.Parse(mb, t.abs(t.VersionFile(name, v, ".json")))
	if err != nil {
		return nil, err
	}
	tgz, ok, err := t.read(t.VersionFile(name, v, ".tgz"))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, werr.New(werr.Invalid, "registry_invalid", "%s has no tarball", t.abs(t.VersionFile(name, v, ".tgz")))
	}
	return sbom.Version(name, v, manifest, tgz)
}

package publish

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/werr"
)

// The CycloneDX 1.6 SBOMs the registry keeps (generate-sbom.mjs): one per
// version, <version>.sbom.json, and the aggregate <tree>/sbom.json listing
// every version's SBOM with its SHA-256.

// maxSBOMUnpacked bounds the tar stream read to list a tarball's files (the
// registry's unpacked limit, 50 MiB, with room for headers).
const maxSBOMUnpacked = 64 << 20

type tarFile struct {
	name   string
	size   int64
	sha256 string
}

// enumerateTarball lists a .tgz's regular files as generate-sbom.mjs does:
// the name field only (no USTAR prefix), "./" stripped, sorted by name; it
// also returns the first entry named pack.json.
func enumerateTarball(tgz []byte) ([]tarFile, []byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return nil, nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxSBOMUnpacked+1))
	if err != nil {
		return nil, nil, err
	}
	if len(raw) > maxSBOMUnpacked {
		return nil, nil, fmt.Errorf("tarball unpacks to more than %d bytes", maxSBOMUnpacked)
	}
	const block = 512
	var files []tarFile
	var packJSON []byte
	foundPack := false
	for off := 0; off+block <= len(raw); {
		nameField := raw[off : off+100]
		if i := bytes.IndexByte(nameField, 0); i >= 0 {
			nameField = nameField[:i]
		}
		rawName := strings.ToValidUTF8(string(nameField), "\uFFFD")
		if rawName == "" {
			break
		}
		name := strings.TrimPrefix(rawName, "./")
		sizeStr := strings.TrimSpace(strings.ReplaceAll(string(raw[off+124:off+136]), "\x00", ""))
		size, _ := strconv.ParseInt(octalPrefix(sizeStr), 8, 64)
		if size < 0 {
			size = 0
		}
		typ := raw[off+156]
		if typ == 'x' || typ == 'L' {
			return nil, nil, fmt.Errorf("USTAR extended header (typeflag=0x%x) not supported; pack tarballs keep entry names <= 100 bytes", typ)
		}
		start := off + block
		end := start + int(size)
		if end > len(raw) || end < start {
			end = len(raw)
		}
		data := raw[min(start, len(raw)):end]
		if name == "pack.json" && !foundPack {
			packJSON, foundPack = data, true
		}
		if (typ == '0' || typ == 0) && name != "" && !strings.HasSuffix(name, "/") {
			sum := sha256.Sum256(data)
			files = append(files, tarFile{name: name, size: size, sha256: hex.EncodeToString(sum[:])})
		}
		off += block + int((size+block-1)/block)*block
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files, packJSON, nil
}

// octalPrefix is the part of s parseInt(s, 8) reads.
func octalPrefix(s string) string {
	for i, c := range s {
		if c < '0' || c > '7' {
			return s[:i]
		}
	}
	return s
}

// encodeURIComponent is ECMAScript's.
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

func purl(name, version string) string {
	return "pkg:openwop/" + encodeURIComponent(name) + "@" + encodeURIComponent(version)
}

func sha256Obj(hexSum string) []any {
	return []any{NewObj().Set("alg", "SHA-256").Set("content", hexSum)}
}

// VersionSBOM returns <version>.sbom.json for name@version from its version
// manifest and tarball.
func VersionSBOM(name, version string, manifest any, tgz []byte) ([]byte, error) {
	files, packRaw, err := enumerateTarball(tgz)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "sbom_failed", err, "cannot list the files of %s@%s for its SBOM", name, version)
	}
	var packJSON any = NewObj()
	if packRaw != nil {
		if packJSON, err = ParseJS(packRaw, name+"@"+version+" pack.json"); err != nil {
			return nil, err
		}
	}
	ref := purl(name, version)
	sum := sha256.Sum256(tgz)

	licenses := []any{}
	if lic := field(packJSON, "license"); truthy(lic) {
		licenses = append(licenses, NewObj().Set("license", NewObj().Set("id", lic)))
	}
	refs := []any{}
	if hp := field(packJSON, "homepage"); truthy(hp) {
		refs = append(refs, NewObj().Set("type", "website").Set("url", hp))
	}
	if repo := field(packJSON, "repository"); truthy(repo) {
		url := repo
		if _, isStr := repo.(string); !isStr {
			url = field(repo, "url")
		}
		if truthy(url) {
			refs = append(refs, NewObj().Set("type", "vcs").Set("url", url))
		}
	}
	if tu := field(manifest, "tarballUrl"); truthy(tu) {
		refs = append(refs, NewObj().Set("type", "distribution").Set("url", tu))
	}
	if ku := field(field(manifest, "signing"), "publicKeyUrl"); truthy(ku) {
		refs = append(refs, NewObj().Set("type", "other").Set("comment", "publisher signing key (Ed25519)").Set("url", ku))
	}
	dependsOn := []any{}
	if pd, ok := orDefault(field(packJSON, "peerDependencies"), NewObj()).(*Obj); ok {
		for _, k := range pd.Keys() {
			dependsOn = append(dependsOn, "host:"+k)
		}
	}

	comp := NewObj().Set("bom-ref", ref).Set("type", "library").Set("name", name).Set("version", version)
	if o, isObj := packJSON.(*Obj); isObj {
		if d, ok := o.Get("description"); ok {
			comp.Set("description", d)
		}
	}
	comp.Set("licenses", licenses).Set("externalReferences", refs).
		Set("hashes", sha256Obj(hex.EncodeToString(sum[:]))).Set("purl", ref)

	components := make([]any, 0, len(files))
	for _, f := range files {
		components = append(components, NewObj().Set("type", "file").Set("name", f.name).
			Set("hashes", sha256Obj(f.sha256)).
			Set("properties", []any{NewObj().Set("name", "openwop:size").Set("value", strconv.FormatInt(f.size, 10))}))
	}
	doc := NewObj().Set("bomFormat", "CycloneDX").Set("specVersion", "1.6").Set("version", 1.0).
		Set("metadata", NewObj().Set("component", comp).
			Set("tools", []any{NewObj().Set("vendor", "openwop").Set("name", "generate-sbom.mjs").Set("version", "1")})).
		Set("components", components).
		Set("dependencies", []any{NewObj().Set("ref", ref).Set("dependsOn", dependsOn)})
	return Stringify(doc), nil
}

type sbomRef struct {
	name, version, url, sha256 string
}

// aggregateSBOM is the registry-wide SBOM listing every version's SBOM.
func aggregateSBOM(refs []sbomRef) []byte {
	sort.SliceStable(refs, func(i, j int) bool { return purl(refs[i].name, refs[i].version) < purl(refs[j].name, refs[j].version) })
	comps := make([]any, 0, len(refs))
	for _, r := range refs {
		comps = append(comps, NewObj().Set("bom-ref", purl(r.name, r.version)).Set("type", "library").
			Set("name", r.name).Set("version", r.version).
			Set("externalReferences", []any{NewObj().Set("type", "bom").Set("url", r.url).Set("hashes", sha256Obj(r.sha256))}))
	}
	doc := NewObj().Set("bomFormat", "CycloneDX").Set("specVersion", "1.6").Set("version", 1.0).
		Set("metadata", NewObj().
			Set("tools", []any{NewObj().Set("vendor", "openwop").Set("name", "generate-sbom.mjs").Set("version", "1")}).
			Set("component", NewObj().Set("type", "platform").Set("name", "openwop-registry").
				Set("description", "Aggregate SBOM listing every published pack version."))).
		Set("components", comps)
	return Stringify(doc)
}

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
	var refs []sbomRef
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
			if !t.exists(t.VersionFile(name, v, ".json")) {
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
			refs = append(refs, sbomRef{name: name, version: v, url: t.URL("versionSbom", name, v), sha256: hex.EncodeToString(sum[:])})
		}
	}
	t.put(t.AggregateSBOM(), aggregateSBOM(refs))
	return nil
}

func (t *Tree) versionSBOM(name, v string) ([]byte, error) {
	mb, ok, err := t.read(t.VersionFile(name, v, ".json"))
	if err != nil || !ok {
		return nil, err
	}
	manifest, err := ParseJS(mb, t.abs(t.VersionFile(name, v, ".json")))
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
	return VersionSBOM(name, v, manifest, tgz)
}

// Package sbom writes the CycloneDX 1.6 SBOMs the OpenWOP registry keeps,
// byte for byte as its generate-sbom.mjs writes them: one per published
// version (the tarball's files with their SHA-256 and size, the pack's
// license, links and peer dependencies) and the aggregate listing every
// version's SBOM with its hash.
package sbom

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

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/werr"
)

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
	return []any{jsjson.NewObj().Set("alg", "SHA-256").Set("content", hexSum)}
}

// Version returns <version>.sbom.json for name@version from its version
// manifest and tarball.
func Version(name, version string, manifest any, tgz []byte) ([]byte, error) {
	files, packRaw, err := enumerateTarball(tgz)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "sbom_failed", err, "cannot list the files of %s@%s for its SBOM", name, version)
	}
	var packJSON any = jsjson.NewObj()
	if packRaw != nil {
		if packJSON, err = jsjson.Parse(packRaw, name+"@"+version+" pack.json"); err != nil {
			return nil, err
		}
	}
	ref := purl(name, version)
	sum := sha256.Sum256(tgz)

	licenses := []any{}
	if lic := jsjson.Field(packJSON, "license"); jsjson.Truthy(lic) {
		licenses = append(licenses, jsjson.NewObj().Set("license", jsjson.NewObj().Set("id", lic)))
	}
	refs := []any{}
	if hp := jsjson.Field(packJSON, "homepage"); jsjson.Truthy(hp) {
		refs = append(refs, jsjson.NewObj().Set("type", "website").Set("url", hp))
	}
	if repo := jsjson.Field(packJSON, "repository"); jsjson.Truthy(repo) {
		url := repo
		if _, isStr := repo.(string); !isStr {
			url = jsjson.Field(repo, "url")
		}
		if jsjson.Truthy(url) {
			refs = append(refs, jsjson.NewObj().Set("type", "vcs").Set("url", url))
		}
	}
	if tu := jsjson.Field(manifest, "tarballUrl"); jsjson.Truthy(tu) {
		refs = append(refs, jsjson.NewObj().Set("type", "distribution").Set("url", tu))
	}
	if ku := jsjson.Field(jsjson.Field(manifest, "signing"), "publicKeyUrl"); jsjson.Truthy(ku) {
		refs = append(refs, jsjson.NewObj().Set("type", "other").Set("comment", "publisher signing key (Ed25519)").Set("url", ku))
	}
	dependsOn := []any{}
	if pd, ok := jsjson.Or(jsjson.Field(packJSON, "peerDependencies"), jsjson.NewObj()).(*jsjson.Obj); ok {
		for _, k := range pd.Keys() {
			dependsOn = append(dependsOn, "host:"+k)
		}
	}

	comp := jsjson.NewObj().Set("bom-ref", ref).Set("type", "library").Set("name", name).Set("version", version)
	if o, isObj := packJSON.(*jsjson.Obj); isObj {
		if d, ok := o.Get("description"); ok {
			comp.Set("description", d)
		}
	}
	comp.Set("licenses", licenses).Set("externalReferences", refs).
		Set("hashes", sha256Obj(hex.EncodeToString(sum[:]))).Set("purl", ref)

	components := make([]any, 0, len(files))
	for _, f := range files {
		components = append(components, jsjson.NewObj().Set("type", "file").Set("name", f.name).
			Set("hashes", sha256Obj(f.sha256)).
			Set("properties", []any{jsjson.NewObj().Set("name", "openwop:size").Set("value", strconv.FormatInt(f.size, 10))}))
	}
	doc := jsjson.NewObj().Set("bomFormat", "CycloneDX").Set("specVersion", "1.6").Set("version", 1.0).
		Set("metadata", jsjson.NewObj().Set("component", comp).
			Set("tools", []any{jsjson.NewObj().Set("vendor", "openwop").Set("name", "generate-sbom.mjs").Set("version", "1")})).
		Set("components", components).
		Set("dependencies", []any{jsjson.NewObj().Set("ref", ref).Set("dependsOn", dependsOn)})
	return jsjson.Stringify(doc), nil
}

// Ref is one version's SBOM as the aggregate lists it.
type Ref struct {
	Name, Version string
	URL           string // where the registry serves the version's SBOM
	SHA256        string // hex SHA-256 of its bytes
}

// Aggregate is the registry-wide SBOM listing every version's SBOM.
func Aggregate(refs []Ref) []byte {
	sort.SliceStable(refs, func(i, j int) bool { return purl(refs[i].Name, refs[i].Version) < purl(refs[j].Name, refs[j].Version) })
	comps := make([]any, 0, len(refs))
	for _, r := range refs {
		comps = append(comps, jsjson.NewObj().Set("bom-ref", purl(r.Name, r.Version)).Set("type", "library").
			Set("name", r.Name).Set("version", r.Version).
			Set("externalReferences", []any{jsjson.NewObj().Set("type", "bom").Set("url", r.URL).Set("hashes", sha256Obj(r.SHA256))}))
	}
	doc := jsjson.NewObj().Set("bomFormat", "CycloneDX").Set("specVersion", "1.6").Set("version", 1.0).
		Set("metadata", jsjson.NewObj().
			Set("tools", []any{jsjson.NewObj().Set("vendor", "openwop").Set("name", "generate-sbom.mjs").Set("version", "1")}).
			Set("component", jsjson.NewObj().Set("type", "platform").Set("name", "openwop-registry").
				Set("description", "Aggregate SBOM listing every published pack version."))).
		Set("components", comps)
	return jsjson.Stringify(doc)
}

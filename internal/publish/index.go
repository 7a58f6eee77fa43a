package publish

import (
	"bytes"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The per-pack index.json and the registry index, as build-index.mjs writes
// them: v1 rows carry publishedAt/signingMethod/deprecated, v2 rows
// sbomUrl/signingScheme/versionDeprecated (spec-v2 NOTES §4).

// v1Epoch is the constant build-index.mjs writes for v1 clock fields.
const v1Epoch = "2026-05-10T00:00:00Z"

// Clock returns the time staged files record: SOURCE_DATE_EPOCH (seconds)
// when set, for reproducible builds, else now.
func Clock() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now().UTC()
}

// isoString is ECMAScript's Date.prototype.toISOString.
func isoString(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// versionsOf returns the versions with a manifest in the pack's directory,
// ordered as build-index.mjs orders them.
func (t *Tree) versionsOf(name string) ([]string, error) {
	files, err := t.list(t.versionsDir(name), false)
	if err != nil {
		return nil, err
	}
	var vs []string
	for _, f := range files {
		if strings.HasSuffix(f, ".json") && !strings.HasSuffix(f, ".sbom.json") {
			vs = append(vs, strings.TrimSuffix(f, ".json"))
		}
	}
	sort.SliceStable(vs, func(i, j int) bool { return scriptSemverCmp(vs[i], vs[j]) < 0 })
	return vs, nil
}

func (t *Tree) manifest(name, v string) (*Obj, error) {
	rel := t.VersionFile(name, v, ".json")
	b, _, err := t.read(rel)
	if err != nil {
		return nil, err
	}
	m, err := ParseJS(b, t.abs(rel))
	if err != nil {
		return nil, err
	}
	o, _ := m.(*Obj)
	if o == nil {
		o = NewObj()
	}
	return o, nil
}

func asArray(v any) []any {
	a, _ := v.([]any)
	return a
}

func idsOf(list any, key string) []any {
	out := []any{}
	for _, it := range asArray(list) {
		if id := field(it, key); truthy(id) {
			out = append(out, id)
		}
	}
	return out
}

func count(v any) float64 { return float64(len(asArray(v))) }

// packDoc computes the per-pack index of name, nil when it has no version.
func (t *Tree) packDoc(name string) (*Obj, error) {
	versions, err := t.versionsOf(name)
	if err != nil || len(versions) == 0 {
		return nil, err
	}
	var rows []any
	var pack *Obj
	latest := versions[len(versions)-1]
	latestUnyanked := ""
	for _, v := range versions {
		m, err := t.manifest(name, v)
		if err != nil {
			return nil, err
		}
		signing := field(m, "signing")
		row := NewObj().Set("version", v)
		if t.Spec == SpecV1 {
			row.Set("publishedAt", orDefault(field(m, "publishedAt"), v1Epoch)).
				Set("manifestUrl", t.URL("versionManifest", name, v)).
				Set("tarballUrl", t.URL("versionTarball", name, v)).
				Set("signatureUrl", t.URL("versionSignature", name, v)).
				Set("signingMethod", orDefault(field(signing, "method"), "ed25519")).
				Set("signingKeyId", orDefault(field(signing, "publicKeyRef"), orDefault(field(signing, "keyId"), "openwop-registry-root"))).
				Set("integrity", orDefault(field(m, "integrity"), "sha256-PENDING-FIRST-BUILD")).
				Set("deprecated", truthy(field(m, "deprecated"))).
				Set("yanked", truthy(field(m, "yanked")))
		} else {
			row.Set("manifestUrl", t.URL("versionManifest", name, v)).
				Set("tarballUrl", t.URL("versionTarball", name, v)).
				Set("signatureUrl", t.URL("versionSignature", name, v)).
				Set("sbomUrl", t.URL("versionSbom", name, v)).
				Set("signingScheme", field(signing, "scheme")).
				Set("signingKeyId", field(signing, "keyId")).
				Set("integrity", orDefault(field(m, "integrity"), "sha256-PENDING-FIRST-BUILD")).
				Set("versionDeprecated", truthy(field(m, "versionDeprecated"))).
				Set("yanked", truthy(field(m, "yanked")))
			if !truthy(field(m, "yanked")) {
				latestUnyanked = v
			}
		}
		rows = append(rows, row)
		pack = m
	}
	if t.Spec == SpecV2 && latestUnyanked != "" {
		// QUICKSTART §8: a yanked version is never latest while an unyanked one exists.
		latest = latestUnyanked
	}

	kind := orDefault(field(pack, "kind"), "node")
	var typeIDs []any
	switch kind {
	case "workflow-chain":
		typeIDs = idsOf(field(pack, "chains"), "chainId")
	case "prompt":
		typeIDs = idsOf(field(pack, "prompts"), "templateId")
	case "card":
		typeIDs = idsOf(field(pack, "cards"), "cardTypeId")
	case "artifact-type":
		typeIDs = idsOf(field(pack, "artifactTypes"), "artifactTypeId")
	case "connection":
		typeIDs = []any{}
		if id := field(field(pack, "provider"), "id"); truthy(id) {
			typeIDs = append(typeIDs, id)
		}
	case "form-content":
		typeIDs = idsOf(field(pack, "templates"), "templateId")
	default:
		typeIDs = []any{}
		for _, n := range asArray(field(pack, "nodes")) {
			if id := field(n, "typeId"); truthy(id) {
				typeIDs = append(typeIDs, id)
			}
		}
		for _, a := range asArray(field(pack, "agents")) {
			if id := field(a, "agentId"); truthy(id) {
				typeIDs = append(typeIDs, id)
			}
		}
	}
	providerCount := 0.0
	if truthy(field(field(pack, "provider"), "id")) {
		providerCount = 1
	}
	deprecatedKey := "deprecated"
	if t.Spec == SpecV2 {
		deprecatedKey = "versionDeprecated"
	}
	allDeprecated := true
	for _, r := range rows {
		allDeprecated = allDeprecated && truthy(field(r, deprecatedKey))
	}

	doc := NewObj().Set("name", name).Set("kind", kind).
		Set("description", orDefault(field(pack, "description"), "")).
		Set("author", orDefault(field(pack, "author"), "")).
		Set("license", orDefault(field(pack, "license"), ""))
	if hp := field(pack, "homepage"); truthy(hp) {
		doc.Set("homepage", hp)
	}
	if repo := field(pack, "repository"); truthy(repo) {
		doc.Set("repository", repo)
	}
	doc.Set("tags", orDefault(field(pack, "tags"), []any{})).
		Set("typeIds", typeIDs).
		Set("nodeCount", count(field(pack, "nodes"))).
		Set("agentCount", count(field(pack, "agents")))
	for _, c := range []struct {
		key string
		n   float64
	}{
		{"artifactTypeCount", count(field(pack, "artifactTypes"))},
		{"providerCount", providerCount},
		{"chainCount", count(field(pack, "chains"))},
		{"promptCount", count(field(pack, "prompts"))},
		{"templateCount", count(field(pack, "templates"))},
		{"cardCount", count(field(pack, "cards"))},
	} {
		if c.n != 0 {
			doc.Set(c.key, c.n)
		}
	}
	doc.Set("versions", rows).Set("latest", latest).Set("deprecated", allDeprecated)
	return doc, nil
}

// planIndexes plans the per-pack index of each name in names and the
// registry index of the whole tree. The v2 registry index records the clock
// (generatedAt); it is planned only when its pack list changes, so that
// a run that changes nothing else writes nothing.
func (t *Tree) planIndexes(names []string, now time.Time) error {
	for _, name := range names {
		doc, err := t.packDoc(name)
		if err != nil {
			return err
		}
		if doc != nil {
			t.put(t.PackIndex(name), Stringify(doc))
		}
	}
	packs, err := t.list(t.packsDir(), true)
	if err != nil {
		return err
	}
	entries := []any{}
	for _, name := range packs {
		doc, err := t.packDoc(name)
		if err != nil {
			return err
		}
		if doc == nil {
			continue
		}
		g := func(k string) any { v, _ := doc.Get(k); return v }
		entries = append(entries, NewObj().Set("name", g("name")).Set("kind", g("kind")).
			Set("latestVersion", g("latest")).Set("description", g("description")).
			Set("license", g("license")).Set("tags", g("tags")).Set("typeIds", g("typeIds")).
			Set("nodeCount", g("nodeCount")).Set("agentCount", g("agentCount")).
			Set("deprecated", g("deprecated")).Set("yanked", false))
	}
	reg := func(generatedAt any) []byte {
		return Stringify(NewObj().Set("registryVersion", "1.0.0").Set("generatedAt", generatedAt).
			Set("packCount", float64(len(entries))).Set("packs", entries))
	}
	if t.Spec == SpecV1 {
		t.put(t.RegistryIndex(), reg(v1Epoch))
		return nil
	}
	old, ok, err := t.read(t.RegistryIndex())
	if err != nil {
		return err
	}
	if ok {
		if prev, err := ParseJS(old, t.abs(t.RegistryIndex())); err == nil {
			if g := field(prev, "generatedAt"); g != nil && bytes.Equal(reg(g), old) {
				return nil
			}
		}
	}
	t.put(t.RegistryIndex(), reg(isoString(now)))
	return nil
}

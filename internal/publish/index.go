package publish

import (
	"bytes"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/publish/jsjson"
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

func (t *Tree) manifest(name, v string) (*jsjson.Obj, error) {
	rel := t.VersionFile(name, v, ".json")
	b, _, err := t.read(rel)
	if err != nil {
		return nil, err
	}
	m, err := jsjson.Parse(b, t.abs(rel))
	if err != nil {
		return nil, err
	}
	o, _ := m.(*jsjson.Obj)
	if o == nil {
		o = jsjson.NewObj()
	}
	return o, nil
}

func idsOf(list any, key string) []any {
	out := []any{}
	for _, it := range jsjson.Array(list) {
		if id := jsjson.Field(it, key); jsjson.Truthy(id) {
			out = append(out, id)
		}
	}
	return out
}

func count(v any) float64 { return float64(len(jsjson.Array(v))) }

// packDoc computes the per-pack index of name, nil when it has no version.
func (t *Tree) packDoc(name string) (*jsjson.Obj, error) {
	versions, err := t.versionsOf(name)
	if err != nil || len(versions) == 0 {
		return nil, err
	}
	var rows []any
	var pack *jsjson.Obj
	latest := versions[len(versions)-1]
	latestUnyanked := ""
	for _, v := range versions {
		m, err := t.manifest(name, v)
		if err != nil {
			return nil, err
		}
		signing := jsjson.Field(m, "signing")
		row := jsjson.NewObj().Set("version", v)
		if t.Spec == SpecV1 {
			row.Set("publishedAt", jsjson.Or(jsjson.Field(m, "publishedAt"), v1Epoch)).
				Set("manifestUrl", t.URL("versionManifest", name, v)).
				Set("tarballUrl", t.URL("versionTarball", name, v)).
				Set("signatureUrl", t.URL("versionSignature", name, v)).
				Set("signingMethod", jsjson.Or(jsjson.Field(signing, "method"), "ed25519")).
				Set("signingKeyId", jsjson.Or(jsjson.Field(signing, "publicKeyRef"), jsjson.Or(jsjson.Field(signing, "keyId"), "openwop-registry-root"))).
				Set("integrity", jsjson.Or(jsjson.Field(m, "integrity"), "sha256-PENDING-FIRST-BUILD")).
				Set("deprecated", jsjson.Truthy(jsjson.Field(m, "deprecated"))).
				Set("yanked", jsjson.Truthy(jsjson.Field(m, "yanked")))
		} else {
			row.Set("manifestUrl", t.URL("versionManifest", name, v)).
				Set("tarballUrl", t.URL("versionTarball", name, v)).
				Set("signatureUrl", t.URL("versionSignature", name, v)).
				Set("sbomUrl", t.URL("versionSbom", name, v)).
				Set("signingScheme", jsjson.Field(signing, "scheme")).
				Set("signingKeyId", jsjson.Field(signing, "keyId")).
				Set("integrity", jsjson.Or(jsjson.Field(m, "integrity"), "sha256-PENDING-FIRST-BUILD")).
				Set("versionDeprecated", jsjson.Truthy(jsjson.Field(m, "versionDeprecated"))).
				Set("yanked", jsjson.Truthy(jsjson.Field(m, "yanked")))
			if !jsjson.Truthy(jsjson.Field(m, "yanked")) {
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

	kind := jsjson.Or(jsjson.Field(pack, "kind"), kinds.NodeName)
	typeIDs := typeIDsOf(pack, kind)
	deprecatedKey := "deprecated"
	if t.Spec == SpecV2 {
		deprecatedKey = "versionDeprecated"
	}
	allDeprecated := true
	for _, r := range rows {
		allDeprecated = allDeprecated && jsjson.Truthy(jsjson.Field(r, deprecatedKey))
	}

	doc := jsjson.NewObj().Set("name", name).Set("kind", kind).
		Set("description", jsjson.Or(jsjson.Field(pack, "description"), "")).
		Set("author", jsjson.Or(jsjson.Field(pack, "author"), "")).
		Set("license", jsjson.Or(jsjson.Field(pack, "license"), ""))
	if hp := jsjson.Field(pack, "homepage"); jsjson.Truthy(hp) {
		doc.Set("homepage", hp)
	}
	if repo := jsjson.Field(pack, "repository"); jsjson.Truthy(repo) {
		doc.Set("repository", repo)
	}
	doc.Set("tags", jsjson.Or(jsjson.Field(pack, "tags"), []any{})).
		Set("typeIds", typeIDs)
	// The count members, in the order build-index.mjs writes them: the
	// node pack's always, the others when not 0.
	counts := kinds.Contents()
	slices.SortStableFunc(counts, func(a, b kinds.Content) int { return a.IndexOrder - b.IndexOrder })
	for _, c := range counts {
		n := count(jsjson.Field(pack, c.Member))
		if c.Object {
			n = 0
			if jsjson.Truthy(jsjson.Field(jsjson.Field(pack, c.Member), c.IDKey)) {
				n = 1
			}
		}
		if n != 0 || c.Always {
			doc.Set(c.CountKey, n)
		}
	}
	doc.Set("versions", rows).Set("latest", latest).Set("deprecated", allDeprecated)
	return doc, nil
}

// planIndexes plans the per-pack index of each name in names and the
// registry index of the whole tree, and in the v1 tree the landing page and
// robots.txt (see planLanding). The v2 registry index records the clock
// (generatedAt); it is planned only when its pack list changes, so that
// a run that changes nothing else writes nothing.
func (t *Tree) planIndexes(names []string, now time.Time) error {
	for _, name := range names {
		doc, err := t.packDoc(name)
		if err != nil {
			return err
		}
		if doc != nil {
			t.put(t.PackIndex(name), jsjson.Stringify(doc))
		}
	}
	packs, err := t.list(t.packsDir(), true)
	if err != nil {
		return err
	}
	entries := []any{}
	var docs []*jsjson.Obj
	for _, name := range packs {
		doc, err := t.packDoc(name)
		if err != nil {
			return err
		}
		if doc == nil {
			continue
		}
		docs = append(docs, doc)
		g := func(k string) any { v, _ := doc.Get(k); return v }
		entries = append(entries, jsjson.NewObj().Set("name", g("name")).Set("kind", g("kind")).
			Set("latestVersion", g("latest")).Set("description", g("description")).
			Set("license", g("license")).Set("tags", g("tags")).Set("typeIds", g("typeIds")).
			Set("nodeCount", g("nodeCount")).Set("agentCount", g("agentCount")).
			Set("deprecated", g("deprecated")).Set("yanked", false))
	}
	reg := func(generatedAt any) []byte {
		return jsjson.Stringify(jsjson.NewObj().Set("registryVersion", "1.0.0").Set("generatedAt", generatedAt).
			Set("packCount", float64(len(entries))).Set("packs", entries))

	}
	if t.Spec == SpecV1 {
		t.put(t.RegistryIndex(), reg(v1Epoch))
		return t.planLanding(docs, now)
	}
	old, ok, err := t.read(t.RegistryIndex())
	if err != nil {
		return err
	}
	if ok {
		if prev, err := jsjson.Parse(old, t.abs(t.RegistryIndex())); err == nil {
			if g := jsjson.Field(prev, "generatedAt"); g != nil && bytes.Equal(reg(g), old) {
				return nil
			}
		}
	}
	t.put(t.RegistryIndex(), reg(isoString(now)))
	return nil
}

// typeIDsOf is the per-pack index's typeIds: the ids of the entries of the
// pack's kind (build-index.mjs typeIdsFor); a kind the table does not know
// or one without entries of its own is read as a node pack.
func typeIDsOf(pack any, kind any) []any {
	p, ok := kinds.PackNamed(jsString(kind))
	if !ok || len(p.Contents) == 0 {
		p, _ = kinds.PackNamed(kinds.NodeName)
	}
	out := []any{}
	for _, c := range p.Contents {
		if c.Object {
			if id := jsjson.Field(jsjson.Field(pack, c.Member), c.IDKey); jsjson.Truthy(id) {
				out = append(out, id)
			}
			continue
		}
		out = append(out, idsOf(jsjson.Field(pack, c.Member), c.IDKey)...)
	}
	return out
}

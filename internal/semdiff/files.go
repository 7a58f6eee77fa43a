package semdiff

import (
	"bytes"
	"sort"
	"strings"

	"github.com/openwop/wopkit/third_party/semver"

	"github.com/openwop/wopkit/internal/pack"
	"github.com/openwop/wopkit/internal/packref"
)

// files compares the files no manifest reaches (README, LICENSE, code,
// leftovers) and the tool install manifests the pack ships.
func (d *differ) files() {
	names := map[string]bool{}
	for n := range d.old.Files {
		names[n] = true
	}
	for n := range d.new.Files {
		names[n] = true
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	for _, rel := range list {
		ob, inOld := d.old.Files[rel]
		nb, inNew := d.new.Files[rel]
		switch {
		case rel == pack.ManifestFile || strings.HasPrefix(rel, "keys/") || rel == "pack.json.sigstore":
			// the manifest is compared above; signatures are no content
		case inOld && inNew && strings.HasPrefix(rel, packref.ToolDir+"/") && strings.HasSuffix(rel, ".tool.json"):
			d.tool(rel)
		case d.referenced[rel] && inOld && inNew:
			// compared through what references it
		case !inOld:
			d.add(Fix, RuleFileChanged, rel, "", "%s was added", rel)
		case !inNew:
			d.add(Fix, RuleFileChanged, rel, "", "%s was removed", rel)
		case !bytes.Equal(ob, nb) && !d.referenced[rel] && !d.onlyVersionFollowed(rel) && !d.onlyVersionLine(rel, ob, nb):
			d.add(Fix, RuleFileChanged, rel, "", "%s changed", rel)
		}
	}
}

// tool compares a tool install manifest the pack ships: its actions by
// name, its scopes and data boundary as what consumers consented to; the
// tool's description and operations (smoke test, kill switch, cost,
// support) are wording.
func (d *differ) tool(rel string) {
	om, _ := d.old.JSON(rel).(map[string]any)
	nm, _ := d.new.JSON(rel).(map[string]any)
	if om == nil || nm == nil {
		if !bytes.Equal(d.old.Files[rel], d.new.Files[rel]) {
			d.add(Breaking, RuleValueChanged, rel, "", "could not prove compatible: the tool manifest %s is not a JSON object on one side", rel)
		}
		return
	}
	id, _ := nm["tool"].(map[string]any)["id"].(string)
	what := "tool " + id
	for _, k := range unionKeys(om, nm) {
		ov, nv := om[k], nm[k]
		if canon(ov) == canon(nv) {
			continue
		}
		ptr := "/" + escape(k)
		switch k {
		case "actions":
			d.entries(toolActions, rel, ptr, ov, nv, what+": ")
		case "scopes":
			d.member(what, rel, ptr, k, ov, nv)
		case "data_boundary":
			obd, _ := ov.(map[string]any)
			nbd, _ := nv.(map[string]any)
			for _, kk := range unionKeys(obd, nbd) {
				if kk == "reads" || kk == "transmits" || kk == "persists" {
					d.set(setChange{what, "data_boundary." + kk, rel, ptr + "/" + kk, obd[kk], nbd[kk]}, consents)
					continue
				}
				d.member(what, rel, ptr+"/"+escape(kk), "data_boundary."+kk, obd[kk], nbd[kk])
			}
		case "tool":
			ot, _ := ov.(map[string]any)
			if oid, _ := ot["id"].(string); oid != id {
				d.add(Breaking, RuleEntryRemoved, rel, ptr+"/id", "tool %s was renamed to %s: agents name it in their tool allowlist", oid, id)
				continue
			}
			d.add(Fix, RuleTextChanged, rel, ptr, "%s: its description changed", what)
		case "runtime":
			d.member(what, rel, ptr, k, ov, nv)
		default:
			d.add(Fix, RuleTextChanged, rel, ptr, "%s: %s changed (how the tool is operated, not what consumers call)", what, k)
		}
	}
}

// ReadmeVersion is the version line of the README `wopkit new` writes,
// which `wopkit bump` rewrites.
const ReadmeVersion = "| Version | `%s` |"

// onlyVersionLine reports whether the README rel differs only in version
// lines (ReadmeVersion) that name the new pack's version: what `wopkit
// bump` rewrites there, left out as the $ids that follow the version are.
func (d *differ) onlyVersionLine(rel string, ob, nb []byte) bool {
	if rel != "README.md" {
		return false
	}
	ol, nl := strings.SplitAfter(string(ob), "\n"), strings.SplitAfter(string(nb), "\n")
	if len(ol) != len(nl) {
		return false
	}
	pre, post, _ := strings.Cut(ReadmeVersion, "%s")
	version := func(l string) (string, bool) {
		v, okPre := strings.CutPrefix(strings.TrimRight(l, "\r\n"), pre)
		v, okPost := strings.CutSuffix(v, post)
		_, err := semver.StrictNewVersion(v)
		return v, okPre && okPost && err == nil
	}
	for i := range ol {
		if ol[i] == nl[i] {
			continue
		}
		ov, ok1 := version(ol[i])
		nv, ok2 := version(nl[i])
		if !ok1 || !ok2 || nv != d.new.Version || ov == nv || len(ol[i])-len(ov) != len(nl[i])-len(nv) {
			return false
		}
	}
	return true
}

// onlyVersionFollowed reports whether the JSON file rel differs only in
// $ids and $refs that follow the pack's version (followsVersion): what
// `wopkit bump` rewrites in a schema no manifest references.
func (d *differ) onlyVersionFollowed(rel string) bool {
	o, n := d.old.JSON(rel), d.new.JSON(rel)
	return o != nil && n != nil && d.followedIn(o, n, "")
}

// followedIn reports whether the JSON values o and n (the member key
// holds them) are the same but for $ids and $refs that follow the
// version.
func (d *differ) followedIn(o, n any, key string) bool {
	switch x := o.(type) {
	case map[string]any:
		y, ok := n.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, has := y[k]; !has || !d.followedIn(v, w, k) {
				return false
			}
		}
		return true
	case []any:
		y, ok := n.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !d.followedIn(x[i], y[i], "") {
				return false
			}
		}
		return true
	case string:
		y, ok := n.(string)
		if !ok || x == y || key != "$id" && key != "$ref" {
			return ok && x == y
		}
		ob, of, _ := strings.Cut(x, "#")
		nb, nf, _ := strings.Cut(y, "#")
		return of == nf && d.followsVersion(ob, nb)
	}
	return canon(o) == canon(n)
}

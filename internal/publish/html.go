package publish

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/publish/jsjson"
)

// The v1 registry's landing page (registry/index.html) and robots.txt, as
// build-index.mjs writes them on every run (emitLandingPage,
// emitRobotsTxt): the registry's CI runs `build-index --check`, which fails
// when either would change, so every v1 publish, yank and deprecate plans
// them in the same transaction as the indexes.
//
// Source: openwop/openwop-registry registry/scripts/build-index.mjs, v1-era
// scripts (package.json version 1.0.0; sha256 fc531a6c…3a79 at registry
// commit 85355a0; the tests run it from the registry work tree named by
// WOPKIT_REGISTRY_CHECKOUT). landing.html.tmpl is its
// template literal, the ${…} turned into text/template actions; the rows
// and tables are built here as the script's rowFor, buildRows,
// buildConnectionRows and tableFor build them. Keep both in step with the
// script (TestLandingPageMatchesTheScript compares them byte for byte).

const (
	landingPath = "index.html" // relative to the registry root
	robotsPath  = "robots.txt"
)

// robotsTxt is emitRobotsTxt's text.
const robotsTxt = `User-agent: *
Allow: /$
Allow: /index.html
Disallow: /v1/
Disallow: /keys/
Disallow: /.well-known/

Sitemap: https://packs.openwop.dev/
`

//go:embed landing.html.tmpl
var landingText string

// landingTmpl is parsed on first use: only a publish writes the page.
var landingTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("landing").Parse(landingText))
})

type landingTab struct {
	Count int
	Table string
}

type landingData struct {
	Total         int
	TotalVersions int
	GeneratedAt   string
	// Tabs are the page's tabs by pack kind (and "agent", the node packs
	// that hold agents).
	Tabs map[string]landingTab
}

// planLanding plans index.html and robots.txt for the per-pack index docs
// (in the order the script reads the packs). A page that differs from the
// one on disk only in its time stamp is kept, as --check ignores that line:
// a run that changes nothing else writes nothing.
func (t *Tree) planLanding(docs []*jsjson.Obj, now time.Time) error {
	page := renderLanding(docs, isoString(now))
	old, ok, err := t.read(landingPath)
	if err != nil {
		return err
	}
	if !ok || stripStamp(string(old)) != stripStamp(string(page)) {
		t.put(landingPath, page)
	}
	t.put(robotsPath, []byte(robotsTxt))
	return nil
}

// stampRE is the script's --check normalisation: the first
// `Generated [^<]+` becomes `Generated …`.
var stampRE = lazyre.New(`Generated [^<]+`)

func stripStamp(s string) string {
	loc := stampRE.FindStringIndex(s)
	if loc == nil {
		return s
	}
	return s[:loc[0]] + "Generated …" + s[loc[1]:]
}

// renderLanding is emitLandingPage's html for docs, stamped generatedAt.
func renderLanding(docs []*jsjson.Obj, generatedAt string) []byte {
	d := landingData{Total: len(docs), GeneratedAt: htmlEscape(generatedAt), Tabs: map[string]landingTab{}}
	byKind := func(kind string) []*jsjson.Obj {
		return slices.DeleteFunc(slices.Clone(docs), func(p *jsjson.Obj) bool { return jsjson.Field(p, "kind") != kind })
	}
	positive := func(key string) []*jsjson.Obj {
		return slices.DeleteFunc(slices.Clone(docs), func(p *jsjson.Obj) bool { return num(jsjson.Field(p, key)) <= 0 })
	}
	for _, p := range docs {
		d.TotalVersions += len(jsjson.Array(jsjson.Field(p, "versions")))
	}
	tab := func(packs []*jsjson.Obj, hint, header string) landingTab {
		if len(packs) == 0 {
			return landingTab{}
		}
		return landingTab{Count: len(packs), Table: tableFor(buildRows(packs, hint), header)}
	}
	// A node pack's tab lists the packs with nodes, the agent tab those
	// with agents; every other kind's tab the packs of that kind, a
	// connection's grouped by vendor.
	for _, k := range kinds.Packs() {
		switch {
		case k.Tab == "":
		case k.Name == kinds.NodeName:
			for _, c := range k.Contents {
				d.Tabs[c.Noun] = tab(positive(c.CountKey), c.Noun, strings.ToUpper(c.Noun[:1])+c.Noun[1:]+"s")
			}
		case k.HoldsProvider():
			if conn := byKind(k.Name); len(conn) > 0 {
				d.Tabs[k.Name] = landingTab{Count: len(conn), Table: tableFor(buildConnectionRows(conn, k.Name), k.Tab)}
			}
		default:
			d.Tabs[k.Name] = tab(byKind(k.Name), k.Name, k.Tab)
		}
	}
	var b strings.Builder
	if err := landingTmpl().Execute(&b, d); err != nil {
		panic(err) // the template is ours and its data plain values
	}
	return []byte(b.String())
}

func tableFor(rows, countHeader string) string {
	return `    <table>
      <thead>
        <tr><th>Name</th><th>Version</th><th class="count-h">` + countHeader + `</th><th>Description</th><th>License</th><th>Artifacts</th></tr>
      </thead>
      <tbody>
` + rows + `
      </tbody>
    </table>`
}

func byName(packs []*jsjson.Obj) []*jsjson.Obj {
	out := slices.Clone(packs)
	slices.SortStableFunc(out, func(a, b *jsjson.Obj) int {
		return localeCompare(jsString(jsjson.Field(a, "name")), jsString(jsjson.Field(b, "name")))
	})
	return out
}

func buildRows(packs []*jsjson.Obj, hint string) string {
	rows := make([]string, 0, len(packs))
	for _, p := range byName(packs) {
		rows = append(rows, rowFor(p, hint))
	}
	return strings.Join(rows, "\n")
}

// connectionVendor is the script's CONNECTION_VENDOR.
var connectionVendor = map[string]string{
	"github": "GitHub", "jira": "Atlassian", "microsoft365": "Microsoft 365",
	"notion": "Notion", "salesforce": "Salesforce", "workday": "Workday",
	"google": "Google", "gmail": "Google", "bigquery": "Google", "slack": "Slack",
	"servicenow": "ServiceNow", "zoom": "Zoom", "dropbox": "Dropbox", "box": "Box",
}

// vendorOf is the script's vendorOf: the vendor a connection pack is
// grouped under, from its provider id (else its name's last segment).
func vendorOf(p *jsjson.Obj) string {
	var id string
	if ids := jsjson.Array(jsjson.Field(p, "typeIds")); len(ids) > 0 && ids[0] != nil {
		id = jsString(ids[0])
	} else {
		name := jsString(jsjson.Field(p, "name"))
		id = name[strings.LastIndex(name, ".")+1:]
	}
	if v, ok := connectionVendor[id]; ok {
		return v
	}
	if id == "" {
		return "—"
	}
	r, n := utf8.DecodeRuneInString(id)
	return string(unicode.ToUpper(r)) + id[n:]
}

func buildConnectionRows(packs []*jsjson.Obj, hint string) string {
	var vendors []string
	groups := map[string][]*jsjson.Obj{}
	for _, p := range packs {
		v := vendorOf(p)
		if _, ok := groups[v]; !ok {
			vendors = append(vendors, v)
		}
		groups[v] = append(groups[v], p)
	}
	slices.SortStableFunc(vendors, localeCompare)
	out := make([]string, 0, len(vendors))
	for _, v := range vendors {
		header := `        <tr class="vendor-row"><th class="vendor-group" colspan="6" scope="colgroup">` + htmlEscape(v) + `</th></tr>`
		out = append(out, header+"\n"+buildRows(groups[v], hint))
	}
	return strings.Join(out, "\n")
}

// countCell is rowFor's count cell for a tab (a pack kind, or "agent"):
// its title and the per-pack index member, the kind table's LandingCount
// (build-index.mjs gives kinds without a count of their own the provider
// cell).
func countCell(hint string) [2]string {
	key := "providerCount"
	if k, ok := kinds.PackNamed(hint); ok && k.LandingCount != "" {
		key = k.LandingCount
	} else if c, ok := landingContent(hint); ok {
		key = c.CountKey
	}
	c, _ := countedBy(key)
	if !c.Object {
		c.Noun += "s" // a list's count; a connection has one provider
	}
	return [2]string{c.Noun + " in latest manifest", key}
}

// landingContent is the content whose noun names a tab ("agent").
func landingContent(noun string) (kinds.Content, bool) {
	for _, c := range kinds.Contents() {
		if c.Noun == noun {
			return c, true
		}
	}
	return kinds.Content{}, false
}

// countedBy is the content an index count member counts.
func countedBy(key string) (kinds.Content, bool) {
	for _, c := range kinds.Contents() {
		if c.CountKey == key {
			return c, true
		}
	}
	return kinds.Content{}, false
}

func rowFor(p *jsjson.Obj, hint string) string {
	var v any
	if vs := jsjson.Array(jsjson.Field(p, "versions")); len(vs) > 0 {
		v = vs[len(vs)-1]
	}
	var flags []string
	if jsjson.Truthy(jsjson.Field(p, "deprecated")) || jsjson.Truthy(jsjson.Field(v, "deprecated")) {
		flags = append(flags, `<span class="flag flag-deprecated">deprecated</span>`)
	}
	if jsjson.Truthy(jsjson.Field(v, "yanked")) {
		flags = append(flags, `<span class="flag flag-yanked">yanked</span>`)
	}
	if hint == kinds.NodeName && num(jsjson.Field(p, "agentCount")) > 0 {
		flags = append(flags, `<span class="flag flag-mixed">+ agent</span>`)
	}
	if hint == "agent" && num(jsjson.Field(p, "nodeCount")) > 0 {
		flags = append(flags, `<span class="flag flag-mixed">+ nodes</span>`)
	}
	cell := countCell(hint)
	or := func(x any, def string) string {
		if jsjson.Truthy(x) {
			return jsString(x)
		}
		return def
	}
	link := func(key string) string { return htmlEscape(jsString(jsjson.Or(jsjson.Field(v, key), "#"))) }
	return `        <tr>
          <td class="name"><code>` + htmlEscape(jsString(jsjson.Field(p, "name"))) + `</code> ` + strings.Join(flags, " ") + `</td>
          <td class="version">` + htmlEscape(jsString(jsjson.Field(p, "latest"))) + `</td>
          <td class="count" title="` + cell[0] + `">` + jsString(jsjson.Or(jsjson.Field(p, cell[1]), 0.0)) + `</td>
          <td class="desc">` + htmlEscape(or(jsjson.Field(p, "description"), "—")) + `</td>
          <td class="license">` + htmlEscape(or(jsjson.Field(p, "license"), "—")) + `</td>
          <td class="artifacts">
            <a href="` + link("manifestUrl") + `" title="version manifest (JSON)">manifest</a>
            · <a href="` + link("tarballUrl") + `" title="signed tarball (tgz)">tgz</a>
            · <a href="` + link("signatureUrl") + `" title="Ed25519 signature">sig</a>
          </td>
        </tr>`
}

// htmlEscape is the script's htmlEscape of a string.
var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace

// num is a count member as a number (0 when absent or not a number).
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// jsString is ECMAScript's String(v) for JSON values (null and absent as
// the script's `?? ”`: empty).
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return string(jcs.AppendECMANumber(nil, x))
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsString(e)
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

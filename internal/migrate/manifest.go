package migrate

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Scheme is the one v2 signing scheme.
const Scheme = "ed25519-canonical-json"

// Change is one rewrite made to the manifest.
type Change struct {
	Pointer string `json:"pointer"` // the member rewritten
	Summary string `json:"summary"` // what became what
}

// Rewrite is the outcome of Manifest: the v2 bytes and what changed, or
// the findings that refuse the migration (Out is then nil).
type Rewrite struct {
	Out      []byte
	Changes  []Change
	Notes    []string
	Findings []validate.Problem
}

// rewriter carries the manifest through its edits: every edit re-parses
// the bytes, so later steps see the earlier ones.
type rewriter struct {
	where string
	src   []byte // the original
	out   []byte
	doc   *jsondoc.Doc
	rw    Rewrite
}

// Manifest rewrites the bytes of a v1 pack manifest as v2, the way the
// registry's codemod (scripts/codemod-pack-manifest-v2.mjs) and its engines
// wave (scripts/v2-wave-engines.mjs) do: `kind` written as "node" when
// absent; engines.openwop given an explicit ceiling that admits major 2;
// a v1 `manual` signing block relabelled {keyId, scheme}; peer-dependency
// aliases rewritten to their v2 families, facets moved to
// peerDependenciesMeta. Every other byte is kept. What cannot be rewritten
// without inventing something is a finding, and then nothing is rewritten:
// all findings are reported at once. where names the file in messages.
func Manifest(src []byte, where string) (*Rewrite, error) {
	doc, err := jsondoc.Parse(src)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "%s is not valid JSON", where).
			WithHint("fix the JSON first (`wopkit validate %s` shows where)", where)
	}
	if doc.Root.Kind != jsondoc.Object {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "%s is not a JSON object: it is not a pack manifest", where).
			WithHint("pass a pack directory or its pack.json")
	}
	r := &rewriter{where: where, src: src, out: src, doc: doc}
	steps := []func() []edit{r.kind, r.engines, r.signing, r.peers}
	var plan [][]edit
	for _, step := range steps {
		plan = append(plan, step())
	}
	if len(r.rw.Findings) > 0 {
		return &r.rw, nil
	}
	for _, edits := range plan {
		for _, e := range edits {
			if err := r.apply(e); err != nil {
				return nil, err
			}
		}
	}
	r.roleNotes()
	r.rw.Out = r.out
	return &r.rw, nil
}

// edit is one planned change, applied after every step has looked at the
// original (so that findings are complete before anything is touched).
type edit struct {
	change Change
	do     func(src []byte) ([]byte, error)
}

func (r *rewriter) apply(e edit) error {
	out, err := e.do(r.out)
	if err != nil {
		return err
	}
	doc, err := jsondoc.Parse(out)
	if err != nil {
		return werr.Wrap(werr.Invalid, "migrate_broken", err, "migrating %s would produce invalid JSON", r.where).
			WithHint("this is a wopkit bug: please report it with the file")
	}
	r.out, r.doc = out, doc
	if e.change.Summary != "" {
		r.rw.Changes = append(r.rw.Changes, e.change)
	}
	return nil
}

// refuse records a finding at pointer (its position is looked up in the
// original document).
func (r *rewriter) refuse(pointer, code, hint, format string, args ...any) {
	line, col := 1, 1
	if off := r.doc.Locate(pointer, true); off >= 0 {
		line, col = r.doc.Position(off)
	}
	r.rw.Findings = append(r.rw.Findings, validate.Problem{
		File: r.where, Pointer: pointer, Line: line, Column: col, Rule: "migrate/" + code,
		Message: fmt.Sprintf(format, args...), Hint: hint, Severity: validate.Error})
}

// kind: v2 requires it; v1 read its absence as node (C10.8). It goes after
// "version", where `wopkit new` writes it.
func (r *rewriter) kind() []edit {
	k := r.doc.Root.Get("kind")
	if k == nil {
		return []edit{{Change{"/kind", `kind: absent → "` + kinds.NodeName + `"`}, func(b []byte) ([]byte, error) {
			return jsonedit.SetAfter(b, "/kind", after(r.doc.Root, "version", "name"), kinds.NodeName)
		}}}
	}
	if kinds.Detect("pack.json", r.doc.Root) == kinds.OtherPack {
		r.refuse("/kind", "kind_unknown", "migrate knows the kinds the v2 schemas define: "+strings.Join(kinds.PackNames(), ", "),
			"pack kind %q has no v2 schema: migrate cannot tell what v2 asks of it", k.Text())
	}
	return nil
}

// after returns the first of names that is a member of obj, or "" (the end).
func after(obj *jsondoc.Node, names ...string) string {
	for _, n := range names {
		if obj.Get(n) != nil {
			return n
		}
	}
	return ""
}

// engines: an explicit ceiling that admits major 2 (C10.4, the v2 wave).
func (r *rewriter) engines() []edit {
	e := r.doc.Root.Get("engines")
	o := e.Get("openwop")
	switch {
	case e == nil || e.Kind != jsondoc.Object:
		r.refuse("/engines", "engines_missing", `add "engines": {"openwop": ">=1.0.0 <3.0.0"} (the lowest protocol version the pack needs, and <3.0.0)`,
			"the pack has no engines object: migrate will not invent the lowest protocol version it needs")
		return nil
	case o == nil || o.Kind != jsondoc.String:
		r.refuse("/engines", "engines_missing", `set engines.openwop to a range such as ">=1.0.0 <3.0.0"`,
			"engines.openwop is missing or not a string: migrate will not invent the lowest protocol version the pack needs")
		return nil
	case admitsV2(o.Str):
		return nil
	}
	to, why := rewriteEngines(strings.TrimSpace(o.Str))
	if why != "" {
		r.refuse("/engines/openwop", "engines_unexpressible", `write the range yourself as ">=x.y.z <M.0.0" with M of 3 or more (such as ">=1.0.0 <3.0.0"), then migrate again`,
			"engines.openwop %q cannot be given a ceiling that admits protocol major 2: %s", o.Str, why)
		return nil
	}
	r.rw.Notes = append(r.rw.Notes, fmt.Sprintf("%s: engines.openwop now admits protocol major 2: that is a claim about your code, which migrate did not check; run the pack on a v2 host before publishing", r.where))
	return []edit{{Change{"/engines/openwop", fmt.Sprintf("engines.openwop: %q → %q", o.Str, to)}, func(b []byte) ([]byte, error) {
		return jsonedit.Set(b, "/engines/openwop", to)
	}}}
}

// signing: a v1 manual block is relabelled {keyId, scheme}, in that order
// (C10.1, C10.7). The signature itself does not carry over (it signed the
// v1 bytes); signatureRef has no place in the v2 block (the signature
// stays at keys/pack.json.sig in the tarball).
func (r *rewriter) signing() []edit {
	sg := r.doc.Root.Get("signing")
	if sg == nil {
		return nil
	}
	const resign = "remove the signing block (a source pack.json needs none: the build writes it) and sign the v2 pack with `wopkit pack --sign v2 --key KEY --key-id ID`"
	if sg.Kind != jsondoc.Object {
		r.refuse("/signing", "signing_invalid", resign, "signing is not an object")
		return nil
	}
	keyID := ""
	for _, m := range sg.Members {
		p := jsondoc.Child("/signing", m.Key)
		switch m.Key {
		case "method":
			if m.Value.Text() != "manual" {
				r.refuse(p, "signing_resign", resign,
					"signing.method %q signs other bytes than the v2 scheme: it must be re-signed under %s, not relabelled", m.Value.Text(), Scheme)
			}
		case "scheme":
			if m.Value.Text() != Scheme {
				r.refuse(p, "signing_resign", resign, "signing.scheme %q is not the v2 scheme %s", m.Value.Text(), Scheme)
			}
		case "publicKeyRef", "keyId":
			id := m.Value.Text()
			if m.Value.Kind != jsondoc.String || id == "" {
				r.refuse(p, "signing_invalid", resign, "signing.%s is not a key id", m.Key)
			} else if keyID != "" && id != keyID {
				r.refuse(p, "signing_key_mismatch", resign, "signing.keyId and signing.publicKeyRef name different keys (%q, %q)", keyID, id)
			}
			keyID = id
		case "signatureRef":
		default:
			r.refuse(p, "signing_unknown_member", "remove it: the v2 block is exactly {keyId, scheme}",
				"signing.%s has no place in the v2 signing block", m.Key)
		}
	}
	if sg.Get("method") == nil && sg.Get("scheme") == nil {
		r.refuse("/signing", "signing_resign", resign, "the signing block names neither a v1 method nor the v2 scheme")
	}
	if keyID == "" {
		r.refuse("/signing", "signing_invalid", resign, "the signing block names no key (publicKeyRef or keyId)")
	}
	want, _ := json.Marshal(struct {
		KeyID  string `json:"keyId"`
		Scheme string `json:"scheme"`
	}{keyID, Scheme})
	if keys(sg) == "keyId,scheme" && sg.Get("scheme").Text() == Scheme {
		return nil
	}
	from := "{" + keys(sg) + "}"
	return []edit{{Change{"/signing", fmt.Sprintf("signing: %s → {keyId, scheme: %q}", from, Scheme)}, func(b []byte) ([]byte, error) {
		return jsonedit.Set(b, "/signing", json.RawMessage(want))
	}}}
}

// keys lists an object's member names, comma-separated.
func keys(n *jsondoc.Node) string {
	ks := make([]string, len(n.Members))
	for i, m := range n.Members {
		ks[i] = m.Key
	}
	return strings.Join(ks, ",")
}

// roleNotes: v2 agents may carry role, which RFC 0131 says is explicit,
// never inferred; absent means unconstrained, exactly the v1 meaning. The
// codemod leaves it out, and so does migrate, saying so.
func (r *rewriter) roleNotes() {
	var ids []string
	for i, a := range items(r.doc.Root.Get("agents")) {
		if a.Kind == jsondoc.Object && a.Get("role") == nil {
			id := a.Get("agentId").Text()
			if id == "" {
				id = "agents/" + strconv.Itoa(i)
			}
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		r.rw.Notes = append(r.rw.Notes, fmt.Sprintf("%s: no role was added to %s: v2 reads an agent without role as unconstrained, as v1 did, and RFC 0131 says the role is explicit, never inferred; set \"role\": \"assistant\" or \"skill\" (skill needs handoff and scratchpad-only memory) if you mean one",
			r.where, strings.Join(ids, ", ")))
	}
}

// items returns an array's items (nil for anything else).
func items(n *jsondoc.Node) []*jsondoc.Node {
	if n == nil || n.Kind != jsondoc.Array {
		return nil
	}
	return n.Items
}

package pack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// ManifestFile is the pack manifest's name at the pack root.
const ManifestFile = "pack.json"

// Manifest is a source pack.json: its bytes and the members wopkit needs.
type Manifest struct {
	Src     []byte         // the file as the author wrote it
	Doc     map[string]any // decoded with UseNumber
	Name    string
	Version string
}

// member is one top-level member of the source manifest, in source order.
type member struct {
	Key string
	Raw json.RawMessage
}

// ParseManifest decodes pack.json bytes. where names the file in errors.
func ParseManifest(src []byte, where string) (*Manifest, error) {
	// A member named twice (in any letter case) reads differently in
	// JSON.parse, ajv and encoding/json: refused before anything is packed.
	if err := untrusted.CheckJSON(src, untrusted.JSONLimits{MaxBytes: 16 << 20, MaxDepth: 256, MaxValues: 1_000_000}); err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", untrusted.NameJSON(where, err), "%s is not a JSON document wopkit can pack", where).
			WithHint("run `wopkit validate` on the pack for the exact position")
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "%s is not a JSON object", where).
			WithHint("run `wopkit validate` on the pack for the exact position")
	}
	m := &Manifest{Src: src, Doc: doc}
	m.Name, _ = doc["name"].(string)
	m.Version, _ = doc["version"].(string)
	if m.Name == "" || m.Version == "" {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "%s has no string \"name\" and \"version\"", where).
			WithHint("set both; the tarball is named <name>-<version>.tgz")
	}
	if strings.ContainsAny(m.Name+m.Version, `/\`+"\x00") || strings.Contains(m.Name+m.Version, "..") {
		return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "%s: name %q or version %q holds a path separator or \"..\"", where, m.Name, m.Version)
	}
	return m, nil
}

// Signing returns the manifest's existing signing block, or nil.
func (m *Manifest) Signing() map[string]any {
	s, _ := m.Doc["signing"].(map[string]any)
	return s
}

// Canonical returns the in-tarball pack.json: the source manifest with its
// signing member replaced by block (kept as it is when block is nil), in
// JCS form. strict applies the v2 I-JSON refusals, checked on the source
// text itself so that duplicate keys and lone surrogates are not lost in
// decoding.
//
// Without strict (v1 manual signing) an integer literal beyond ±(2^53-1)
// is refused too, naming its pointer: JCS would write the nearest double
// (9007199254740993 becomes 9007199254740992), so the signed pack.json
// would say another number than the one written. Every other literal
// keeps its value (1.50 is written 1.5, 1E30 1e+30: the same double).
func (m *Manifest) Canonical(block map[string]any, strict bool) ([]byte, error) {
	if _, err := jcs.Canonicalize(m.Src, jcs.Options{Strict: strict}); err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json cannot be canonicalised")
	}
	if !strict {
		if ptr, lit := inexactInteger("", m.Doc); ptr != "" {
			return nil, werr.New(werr.Invalid, "pack_manifest_invalid", "pack.json holds the integer %s at %s, beyond ±(2^53-1): canonical JSON would sign it as %s", lit, ptr, nearest(lit)).
				WithHint("write the value as a string (\"%s\"), or keep integers within ±9007199254740991", lit)
		}
	}
	doc := m.Doc
	if block != nil {
		doc = make(map[string]any, len(m.Doc)+1)
		for k, v := range m.Doc {
			doc[k] = v
		}
		doc["signing"] = block
	}
	out, err := jcs.Marshal(doc, jcs.Options{Strict: strict})
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json cannot be canonicalised")
	}
	return out, nil
}

// maxSafeDigits is 2^53-1, the largest integer every reader of the signed
// pack.json agrees on.
const maxSafeDigits = "9007199254740991"

// inexactInteger returns the pointer and text of the first integer literal
// (digits only: no fraction, no exponent) in v beyond ±(2^53-1), or "".
// Members are visited in sorted order, so the report is stable.
func inexactInteger(ptr string, v any) (string, string) {
	switch x := v.(type) {
	case json.Number:
		lit := strings.TrimPrefix(string(x), "-")
		if strings.ContainsAny(lit, ".eE") {
			return "", ""
		}
		if len(lit) > len(maxSafeDigits) || len(lit) == len(maxSafeDigits) && lit > maxSafeDigits {
			if ptr == "" {
				ptr = "/"
			}
			return ptr, string(x)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, lit := inexactInteger(jsondoc.Child(ptr, k), x[k]); p != "" {
				return p, lit
			}
		}
	case []any:
		for i, it := range x {
			if p, lit := inexactInteger(jsondoc.Index(ptr, i), it); p != "" {
				return p, lit
			}
		}
	}
	return "", ""
}

// nearest is the canonical (JCS) form of a number literal.
func nearest(lit string) string {
	c, err := jcs.Canonicalize([]byte(lit), jcs.Options{})
	if err != nil {
		return "another number"
	}
	return string(c)
}

// VersionManifest renders the registry-style <version>.json: the source
// manifest's members in source order (values as written), with signing set
// to the effective signing block (in its source position when the source
// had one, else appended) and integrity appended, indented by two spaces.
func (m *Manifest) VersionManifest(signing map[string]any, integrity string) ([]byte, error) {
	members, err := topLevelMembers(m.Src)
	if err != nil {
		return nil, err
	}
	var sigRaw json.RawMessage
	if signing != nil {
		if sigRaw, err = jsonNoEscape(signing); err != nil {
			return nil, err
		}
	}
	var out []member
	placed := false
	for _, mb := range members {
		switch mb.Key {
		case "integrity":
			continue
		case "signing":
			if sigRaw != nil {
				out = append(out, member{"signing", sigRaw})
				placed = true
			}
			continue
		}
		out = append(out, mb)
	}
	if sigRaw != nil && !placed {
		out = append(out, member{"signing", sigRaw})
	}
	integ, _ := jsonNoEscape(integrity)
	out = append(out, member{"integrity", integ})

	var b bytes.Buffer
	b.WriteString("{")
	for i, mb := range out {
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := jsonNoEscape(mb.Key)
		fmt.Fprintf(&b, "\n  %s: ", k)
		var ind bytes.Buffer
		if err := json.Indent(&ind, mb.Raw, "  ", "  "); err != nil {
			return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json member %q", mb.Key)
		}
		b.Write(ind.Bytes())
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

func topLevelMembers(src []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	bad := func(err error) error {
		return werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json is not a JSON object")
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, bad(err)
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bad(err)
		}
		out = append(out, member{key, raw})
	}
	return out, nil
}

func jsonNoEscape(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

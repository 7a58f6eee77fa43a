package publish

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/lazyre"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Codes of the keychain refusals.
const (
	// CodeKeyExists: the key id (in any letter case) or the public key is
	// already in the registry.
	CodeKeyExists = "key_exists"
	// CodeNamespaceClaimed: another key is granted, or assigned, a
	// namespace the new key's overlaps.
	CodeNamespaceClaimed = "namespace_claimed"
	// CodeNamespaceOutside: a namespace outside vendor.<org>.* and
	// community.<author>.*, refused unless forced.
	CodeNamespaceOutside = "namespace_not_allowed"
	// CodeKeychainInvalid: the registry's keychain is not in the shape its
	// scripts read (signingKeys not an array, an entry without a keyId, two
	// key ids differing only in letter case).
	CodeKeychainInvalid = "keychain_invalid"
)

// KeyOptions are the arguments of a keychain addition: what a registry's
// onboarding pull request for a publisher key holds.
type KeyOptions struct {
	Registry   string   // a registry checkout or its registry/ directory
	KeyID      string   // the key id: keys/<KeyID>.pub, signingKeys[].keyId
	PublicKey  string   // the SPKI PEM Ed25519 public key file
	Namespaces []string // permittedNamespaces, one namespaceAssignments entry each
	Owner      string   // signingKeys[].operator and namespaceAssignments[].owner
	Contact    string   // namespaceAssignments[].contact
	Force      bool     // accept a namespace outside vendor.<org>.* / community.<author>.*
	DryRun     bool
	Now        time.Time // claimedAt; zero: Clock()
}

// KeyPlan is a keychain addition: the files it writes (as one transaction,
// as publish writes) and their unified diff.
type KeyPlan struct {
	Registry string `json:"registry"` // the registry root
	KeyID    string `json:"keyId"`
	// PublicKeyURL is the entry's publicKeyUrl: a path on the registry's
	// own origin where clients fetch the key.
	PublicKeyURL string   `json:"publicKeyUrl"`
	Namespaces   []string `json:"namespaces"`
	Owner        string   `json:"owner"`
	Changes      []Change `json:"changes"`
	Notes        []string `json:"notes,omitempty"`
	Diff         string   `json:"diff"` // unified, a/ and b/ paths relative to the registry root

	plan *Plan
}

// Apply writes the addition as one transaction (Plan.Apply).
func (k *KeyPlan) Apply() error { return k.plan.Apply() }

// keyIDRE is a key id the registry can serve as /keys/<keyId>.pub: one
// path segment of letters, digits, '.', '_' and '-', starting with a
// letter or digit.
var keyIDRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// The segments of a namespace: the tier and the org (the pack-name
// schema's first two segments), then the further segments of a pack name.
var (
	nsHeadRE = lazyre.New(`^[a-z][a-z0-9_-]*$`)
	nsTailRE = lazyre.New(`^[a-z][a-zA-Z0-9_-]*$`)
)

// maxOwner bounds --owner and --contact: text a reviewer reads in the
// registry's discovery document.
const maxOwner = 256

// AddKey plans the registry onboarding of a publisher key, as the
// registry's README ("Adding a new publisher key") describes its pull
// request: keys/<keyId>.pub, a signingKeys entry (status "active",
// permittedNamespaces) and a namespaceAssignments entry per namespace in
// .well-known/openwop-registry.json. The discovery document keeps every
// byte it had; the entries are added at the end of their arrays in the
// document's own layout (its indentation, and string arrays on one line
// when its entries write them so). Call Apply on the plan to write it.
func AddKey(o KeyOptions) (*KeyPlan, error) {
	if !keyIDRE.MatchString(o.KeyID) {
		return nil, werr.New(werr.Usage, "usage", "--key-id %q cannot name a registry key", o.KeyID).
			WithHint("a key id is letters, digits, '.', '_' and '-' (at most 128), e.g. acme-1: the registry serves it as /keys/<keyId>.pub")
	}
	if len(o.Namespaces) == 0 {
		return nil, werr.New(werr.Usage, "usage", "--namespace is required").
			WithHint("the namespace the key signs, e.g. --namespace vendor.acme.*")
	}
	if err := checkText("--owner", o.Owner); err != nil {
		return nil, err
	}
	if err := checkContact(o.Contact); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, ns := range o.Namespaces {
		if err := checkNamespace(ns, o.Force); err != nil {
			return nil, err
		}
		if seen[strings.ToLower(ns)] {
			return nil, werr.New(werr.Usage, "usage", "--namespace %s is given twice", ns)
		}
		seen[strings.ToLower(ns)] = true
	}
	pub, pubPEM, err := readPublisherKey(o.PublicKey)
	if err != nil {
		return nil, err
	}
	t, err := openTree(o.Registry, SpecV2, o.DryRun)
	if err != nil {
		return nil, err
	}
	src, _, err := t.read(registry.WellKnown)
	if err != nil {
		return nil, err
	}
	kc, err := readKeychain(t.abs(registry.WellKnown), src)
	if err != nil {
		return nil, err
	}
	if err := kc.refuseTaken(t, o.KeyID, pub); err != nil {
		return nil, err
	}
	for _, ns := range o.Namespaces {
		if err := kc.refuseClaimed(t, ns); err != nil {
			return nil, err
		}
	}
	owner := o.Owner
	if owner == "" {
		owner = orgOf(o.Namespaces[0])
	}
	now := o.Now
	if now.IsZero() {
		now = Clock()
	}
	keyURL, err := keyURLFor(kc.doc, o.KeyID, t.abs(registry.WellKnown))
	if err != nil {
		return nil, err
	}
	entry := struct {
		KeyID               string   `json:"keyId"`
		Algorithm           string   `json:"algorithm"`
		PublicKeyURL        string   `json:"publicKeyUrl"`
		PermittedNamespaces []string `json:"permittedNamespaces"`
		Operator            string   `json:"operator"`
		Status              string   `json:"status"`
	}{o.KeyID, string(sign.Ed25519), keyURL, o.Namespaces, owner, registry.StatusActive}
	out, err := appendEntry(src, "/signingKeys", entry, t.abs(registry.WellKnown))
	if err != nil {
		return nil, err
	}
	for _, ns := range o.Namespaces {
		a := struct {
			Namespace    string `json:"namespace"`
			Owner        string `json:"owner"`
			SigningKeyID string `json:"signingKeyId"`
			ClaimedAt    string `json:"claimedAt"`
			Contact      string `json:"contact,omitempty"`
		}{ns, ownerFor(o.Owner, ns), o.KeyID, now.UTC().Format(time.DateOnly), o.Contact}
		if out, err = appendEntry(out, "/namespaceAssignments", a, t.abs(registry.WellKnown)); err != nil {
			return nil, err
		}
	}
	// What was written must read back, as the registry's scripts and
	// wopkit's own reader read it, with the key in it.
	if _, err := readKeychain(t.abs(registry.WellKnown), out); err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "wopkit made a discovery document it cannot read back; nothing was written")
	}
	keyRel := registry.KeyPath(o.KeyID)
	t.put(keyRel, pubPEM)
	t.put(registry.WellKnown, out)
	plan := &Plan{Registry: t.Root, Tree: t.Spec, Name: "key " + o.KeyID, Notes: t.notes, Changes: []Change{}}
	if err := plan.collect(t); err != nil {
		return nil, err
	}
	kp := &KeyPlan{Registry: plan.Registry, KeyID: o.KeyID, PublicKeyURL: keyURL, Namespaces: o.Namespaces, Owner: owner, Changes: plan.Changes, plan: plan}
	var diff strings.Builder
	for _, c := range plan.Changes {
		from := "a/" + c.Path
		if !c.existed {
			from = "/dev/null"
		}
		diff.WriteString(udiff.Unified(from, "b/"+c.Path, string(c.old), string(c.data)))
	}
	kp.Diff = diff.String()
	kp.Notes = plan.Notes
	if o.Owner == "" {
		kp.Notes = append(kp.Notes, fmt.Sprintf("no --owner: the owner recorded is %q, from the namespace", owner))
	}
	return kp, nil
}

// keyURLFor is the publicKeyUrl of a new key: the discovery document's
// endpoints.publicKey template with {keyId} filled in, or /keys/<keyId>.pub
// without one. A template that would lead off the registry's own origin
// (a scheme, "//", "..", a backslash, a percent-encoded character such as
// %2F) is refused, registry_key_url_invalid, naming the document: the URL
// goes into the author's onboarding entry, where clients fetch the key.
func keyURLFor(doc any, keyID, where string) (string, error) {
	def := "/" + registry.KeyPath(keyID)
	if d := strings.ReplaceAll(registry.DefaultEndpoint("", "publicKey"), "{keyId}", keyID); originPath(d) {
		def = d
	}
	tmpl, ok := jsjson.Str(jsjson.Field(jsjson.Field(doc, "endpoints"), "publicKey"))
	if !ok || !strings.Contains(tmpl, "{keyId}") {
		return def, nil
	}
	u := strings.ReplaceAll(tmpl, "{keyId}", keyID)
	if !originPath(u) {
		return "", werr.New(werr.Invalid, "registry_key_url_invalid", "%s: endpoints.publicKey is %q, which gives key %s the URL %q: not a plain path on the registry's own origin; nothing was written", where, termsafe.String(tmpl), keyID, termsafe.String(u)).
			WithHint("a key URL must be a path such as %s (no scheme, no //, no .., no backslash, no %%-encoding): fix endpoints.publicKey in the checkout, or pull the registry's own document", def)
	}
	return u, nil
}

// ownerFor is the owner an assignment records: --owner, else the org of
// its namespace.
func ownerFor(owner, ns string) string {
	if owner != "" {
		return owner
	}
	return orgOf(ns)
}

// orgOf is the second segment of a namespace: acme in vendor.acme.*.
func orgOf(ns string) string {
	parts := strings.Split(ns, ".")
	if len(parts) > 1 && parts[1] != "*" {
		return parts[1]
	}
	return ns
}

// checkText refuses a flag's text that a registry document should not
// carry: a control or bidirectional character, or more than maxOwner
// characters.
func checkText(flag, s string) error {
	if len([]rune(s)) > maxOwner {
		return werr.New(werr.Usage, "usage", "%s is longer than %d characters", flag, maxOwner)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return werr.New(werr.Usage, "usage", "%s holds a control character (%U)", flag, r).
				WithHint("give plain text on one line")
		}
	}
	return nil
}

// checkContact accepts an https or http URL, or a mailto: address.
func checkContact(s string) error {
	if s == "" {
		return nil
	}
	if err := checkText("--contact", s); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || !(((u.Scheme == "https" || u.Scheme == "http") && u.Host != "") || (u.Scheme == "mailto" && u.Opaque != "")) {
		return werr.New(werr.Usage, "usage", "--contact %q is not a URL", s).
			WithHint("give where the registry's maintainers reach you: https://github.com/acme or mailto:security@acme.dev")
	}
	return nil
}

// checkNamespace checks a permittedNamespaces entry: an exact pack name or
// a "<prefix>.*" glob, in the pack-name schema's segments. Unless forced,
// it must lie inside vendor.<org>.* or community.<author>.*, the tiers a
// publisher may claim (core.* is the steward's; private.* and local.* are
// never published, forced or not).
func checkNamespace(ns string, force bool) error {
	bad := func(why string) error {
		return werr.New(werr.Usage, "usage", "--namespace %q is not a namespace: %s", ns, why).
			WithHint("give a glob such as vendor.acme.* or community.jdoe.*, or one pack name")
	}
	parts := strings.Split(ns, ".")
	glob := parts[len(parts)-1] == "*"
	segs := parts
	if glob {
		segs = parts[:len(parts)-1]
	}
	if len(segs) == 0 || (!glob && len(segs) < 3) {
		return bad("a pack name has at least three segments (tier.org.name)")
	}
	for i, s := range segs {
		re := nsTailRE
		if i < 2 {
			re = nsHeadRE
		}
		if !re.MatchString(s) {
			return bad(fmt.Sprintf("segment %q", s))
		}
	}
	switch tier := segs[0]; {
	case tier == "private" || tier == "local":
		return werr.New(werr.Usage, CodeNamespaceOutside, "--namespace %s: %s.* packs are never published to a registry", ns, tier)
	case (tier == "vendor" || tier == "community") && len(segs) >= 2:
		return nil
	case force:
		return nil
	}
	return werr.New(werr.Invalid, CodeNamespaceOutside, "--namespace %s is outside vendor.<org>.* and community.<author>.*", ns).
		WithHint("a publisher claims vendor.<org>.* or community.<author>.* (core.* is the registry steward's); --force writes it anyway, for the maintainers to decide")
}

// readPublisherKey reads the --public-key file: one SPKI PEM Ed25519
// public key. It returns the key and its PEM as the registry keeps keys
// (the form openssl pkey -pubout writes).
func readPublisherKey(p string) (crypto.PublicKey, []byte, error) {
	data, err := untrusted.ReadNamed(p, untrusted.MaxKey)
	if err != nil {
		if werr.CodeOf(err) != "" {
			return nil, nil, err
		}
		return nil, nil, werr.Wrap(werr.Env, "key_unreadable", err, "cannot read --public-key %s", p).
			WithHint("give the .pub that `wopkit keygen --out PREFIX` wrote")
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("ssh-ed25519 ")) {
		return nil, nil, werr.New(werr.Invalid, "key_invalid", "%s is an OpenSSH public key, not SPKI PEM", p).
			WithHint("for a key in the ssh-agent, `wopkit keygen --from-ssh-agent --out PREFIX` writes PREFIX.pub in SPKI PEM")
	}
	block, rest := pem.Decode(data)
	if block != nil && strings.Contains(block.Type, "PRIVATE") {
		return nil, nil, werr.New(werr.Invalid, "key_invalid", "%s holds a private key; the registry takes only the public key", p).
			WithHint("give the .pub beside it (never commit the .key)")
	}
	pub, err := sign.ParsePublicKeyPEM(data, p)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, nil, werr.New(werr.Invalid, "key_invalid", "%s holds more than one PEM block", p).
			WithHint("give a file with the one public key")
	}
	if _, ok := pub.(ed25519.PublicKey); !ok {
		return nil, nil, werr.New(werr.Invalid, "key_algorithm_unsupported", "%s is a %s key; the registry's keychain takes Ed25519 keys", p, sign.AlgorithmOf(pub)).
			WithHint("make one with `wopkit keygen --out PREFIX` (Ed25519)")
	}
	out, err := sign.MarshalPublicKeyPEM(pub)
	return pub, out, err
}

// keychain is the keychain of a discovery document as the registry's
// scripts read it.
type keychain struct {
	doc         *jsjson.Obj
	entries     []*jsjson.Obj       // signingKeys[], in file order
	ids         []string            // signingKeys[].keyId, in file order
	namespaces  map[string][]string // keyId -> permittedNamespaces
	assignments [][2]string         // namespaceAssignments[]: namespace, signingKeyId
}

// readKeychain parses the discovery document src (JSON.parse, a member
// named twice in any letter case refused) and checks the keychain's shape:
// signingKeys and namespaceAssignments arrays of objects, each key with a
// keyId naming a file in keys/, no two key ids differing only in letter
// case (on macOS and Windows checkouts their keys/<keyId>.pub are one file).
func readKeychain(where string, src []byte) (*keychain, error) {
	v, err := jsjson.Parse(src, where)
	if err != nil {
		return nil, err
	}
	doc, ok := v.(*jsjson.Obj)
	if !ok {
		return nil, werr.New(werr.Invalid, CodeKeychainInvalid, "%s is not a JSON object", where)
	}
	kc := &keychain{doc: doc, namespaces: map[string][]string{}}
	keys, err := arrayMember(doc, "signingKeys", where)
	if err != nil {
		return nil, err
	}
	folded := map[string]string{}
	for i, e := range keys {
		id, ok := jsjson.Str(jsjson.Field(e, "keyId"))
		if _, isObj := e.(*jsjson.Obj); !isObj || !ok || id == "" {
			return nil, werr.New(werr.Invalid, CodeKeychainInvalid, "signingKeys[%d] in %s has no keyId string", i, where).
				WithHint("each signingKeys entry is an object with a keyId; fix the checkout (or update it from the registry)")
		}
		if other, dup := folded[strings.ToLower(id)]; dup {
			return nil, werr.New(werr.Invalid, CodeKeychainInvalid, "signingKeys in %s lists key ids %q and %q, which differ only in letter case", where, other, id).
				WithHint("on a case-insensitive checkout (macOS, Windows) their keys/<keyId>.pub are one file; the registry must keep one of them")
		}
		folded[strings.ToLower(id)] = id
		kc.ids = append(kc.ids, id)
		kc.entries = append(kc.entries, e.(*jsjson.Obj))
		for _, g := range jsjson.Array(jsjson.Field(e, "permittedNamespaces")) {
			if s, ok := jsjson.Str(g); ok {
				kc.namespaces[id] = append(kc.namespaces[id], s)
			}
		}
	}
	assigns, err := arrayMember(doc, "namespaceAssignments", where)
	if err != nil {
		return nil, err
	}
	for i, a := range assigns {
		ns, ok := jsjson.Str(jsjson.Field(a, "namespace"))
		if _, isObj := a.(*jsjson.Obj); !isObj || !ok {
			return nil, werr.New(werr.Invalid, CodeKeychainInvalid, "namespaceAssignments[%d] in %s has no namespace string", i, where)
		}
		id, _ := jsjson.Str(jsjson.Field(a, "signingKeyId"))
		kc.assignments = append(kc.assignments, [2]string{ns, id})
	}
	return kc, nil
}

// arrayMember returns doc[name] when it is an array, nil when it is absent.
func arrayMember(doc *jsjson.Obj, name, where string) ([]any, error) {
	v, ok := doc.Get(name)
	if !ok {
		return nil, nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		return nil, werr.New(werr.Invalid, CodeKeychainInvalid, "%s in %s is %s, not an array", name, where, jsKind(v)).
			WithHint("the registry's scripts read %s as an array (Array.isArray); fix the checkout (or update it from the registry)", name)
	}
	return arr, nil
}

func jsKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case *jsjson.Obj:
		return "an object"
	}
	return "an array"
}

// refuseTaken refuses a key id the keychain or keys/ already holds (in any
// letter case), and a public key another keychain entry's file holds. Each
// key file is read through the untrusted layer inside the root: one that
// is a link leading out of it, a FIFO or too large is refused with the
// layer's code; a missing or unparsable one cannot hold this key.
func (kc *keychain) refuseTaken(t *Tree, id string, pub crypto.PublicKey) error {
	for _, have := range kc.ids {
		if strings.EqualFold(have, id) {
			return werr.New(werr.Invalid, CodeKeyExists, "key id %q is already in the keychain of %s (as %q)", id, t.Root, have).
				WithHint("choose another key id (e.g. acme-2 for a second key); `wopkit keychain list --registry %s` lists them", t.Root)
		}
	}
	ents, err := t.dir.ReadDir(registry.KeysDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return t.ioErr(registry.KeysDir, "list", err)
	}
	for _, e := range ents {
		if strings.EqualFold(e.Name(), id+".pub") {
			return werr.New(werr.Invalid, CodeKeyExists, "%s already exists, though the keychain does not list it", t.abs(registry.KeysDir+"/"+e.Name())).
				WithHint("choose another key id, or ask the registry's maintainers about that file")
		}
	}
	type equaler interface{ Equal(crypto.PublicKey) bool }
	for _, have := range kc.ids {
		rel := registry.KeyPath(have)
		if rel == "" {
			continue
		}
		data, err := t.dir.ReadFile(rel, untrusted.MaxKey)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return t.ioErr(rel, "read", err)
		}
		k, err := sign.ParsePublicKeyPEM(data, t.abs(rel))
		if err != nil {
			continue
		}
		if e, ok := k.(equaler); ok && e.Equal(pub) {
			return werr.New(werr.Invalid, CodeKeyExists, "this public key is already in the keychain of %s, as %q", t.Root, have).
				WithHint("one key has one key id: sign with --key-id %s, or make a new key with `wopkit keygen`", have)
		}
	}
	return nil
}

// refuseClaimed refuses ns when another key is granted or assigned a
// namespace that shares a pack name with it.
func (kc *keychain) refuseClaimed(t *Tree, ns string) error {
	for _, id := range kc.ids {
		for _, g := range kc.namespaces[id] {
			if nsOverlap(g, ns) {
				return werr.New(werr.Invalid, CodeNamespaceClaimed, "--namespace %s overlaps %s, which key %q may sign in the keychain of %s", ns, g, id, t.Root).
					WithHint("a namespace belongs to one publisher: choose another, or ask its owner (or the registry's maintainers) to extend their key's permittedNamespaces")
			}
		}
	}
	for _, a := range kc.assignments {
		if nsOverlap(a[0], ns) {
			return werr.New(werr.Invalid, CodeNamespaceClaimed, "--namespace %s overlaps %s, assigned to key %q in the keychain of %s", ns, a[0], a[1], t.Root).
				WithHint("a namespace belongs to one publisher: choose another")
		}
	}
	return nil
}

// nsOverlap reports whether some pack name matches both namespace globs
// (registry.NamespaceMatch), letter case folded: on a case-insensitive
// checkout two pack folders differing in case are one.
func nsOverlap(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	pa, ga := strings.CutSuffix(a, "*")
	pb, gb := strings.CutSuffix(b, "*")
	ga, gb = ga && strings.HasSuffix(pa, "."), gb && strings.HasSuffix(pb, ".")
	switch {
	case ga && gb:
		return strings.HasPrefix(pa, pb) || strings.HasPrefix(pb, pa)
	case ga:
		return registry.NamespaceMatch(a, b)
	case gb:
		return registry.NamespaceMatch(b, a)
	}
	return a == b
}

// appendEntry adds value at the end of the array at pointer of the JSON
// text src (creating the member when it is missing), keeping every other
// byte. A string array inside the new entry is written on one line when
// the array's first entry writes its own that way (the registry writes
// "permittedNamespaces": ["vendor.acme.*"]).
func appendEntry(src []byte, pointer string, value any, where string) ([]byte, error) {
	before, _ := jsondoc.Parse(src)
	inline := ""
	if before != nil {
		if first := before.Lookup(pointer + "/0"); first != nil && first.Kind == jsondoc.Object {
			for _, m := range first.Members {
				v := m.Value
				if v.Kind == jsondoc.Array && len(v.Items) > 0 && !bytes.ContainsRune(src[v.Start:v.End], '\n') {
					inline = ", "
					if len(v.Items) > 1 {
						inline = string(src[v.Items[0].End:v.Items[1].Start])
					}
					break
				}
			}
		}
	}
	out, err := jsonedit.Append(src, pointer, value)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, CodeKeychainInvalid, err, "cannot add to %s in %s", pointer[1:], where)
	}
	if inline == "" {
		return out, nil
	}
	doc, err := jsondoc.Parse(out)
	if err != nil {
		return nil, werr.Wrap(werr.Invalid, "registry_invalid", err, "cannot add to %s in %s", pointer[1:], where)
	}
	arr := doc.Lookup(pointer)
	if arr == nil || arr.Kind != jsondoc.Array || len(arr.Items) == 0 {
		return out, nil
	}
	entry := arr.Items[len(arr.Items)-1]
	// Splice from the last member back, so earlier offsets stay valid.
	for i := len(entry.Members) - 1; i >= 0; i-- {
		v := entry.Members[i].Value
		if v.Kind != jsondoc.Array || len(v.Items) == 0 || !allStrings(v) {
			continue
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for j, it := range v.Items {
			if j > 0 {
				b.WriteString(inline)
			}
			b.Write(out[it.Start:it.End])
		}
		b.WriteByte(']')
		out = jsonedit.Edit{Start: v.Start, End: v.End, Text: b.Bytes()}.Apply(out)
	}
	return out, nil
}

func allStrings(n *jsondoc.Node) bool {
	for _, it := range n.Items {
		if it.Kind != jsondoc.String {
			return false
		}
	}
	return true
}

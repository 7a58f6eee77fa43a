package publish

import (
	"errors"
	"io/fs"

	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// ListedKey is one signingKeys entry of a registry checkout, as `keychain
// list` shows it.
type ListedKey struct {
	KeyID               string   `json:"keyId"`
	Algorithm           string   `json:"algorithm"`
	Status              string   `json:"status"` // as written; "active" when the entry has none, as the scripts read it
	PermittedNamespaces []string `json:"permittedNamespaces"`
	Operator            string   `json:"operator,omitempty"`
	// Assigned are the namespaceAssignments naming this key.
	Assigned []string `json:"assignedNamespaces"`
	// KeyFile is keys/<keyId>.pub; KeyFileState says what it holds:
	// "ok" (a public key), "missing", or the code of the refusal to read
	// or parse it (path_outside_root, file_not_regular, key_invalid, ...).
	KeyFile      string `json:"keyFile"`
	KeyFileState string `json:"keyFileState"`
}

// Keychain is the keychain of a registry checkout.
type Keychain struct {
	Registry string      `json:"registry"`
	Keys     []ListedKey `json:"keys"`
}

// ListKeys reads the keychain of the registry at dir (a registry root or a
// checkout of a registry repository): its discovery document through the
// untrusted layer, checked as AddKey checks it (keychain_invalid), and
// each key's keys/<keyId>.pub read inside the root. It changes nothing.
func ListKeys(dir string) (*Keychain, error) {
	root, err := FindRoot(dir)
	if err != nil {
		return nil, err
	}
	d, err := untrusted.OpenDir(root)
	if err != nil {
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot open the registry root %s", root)
	}
	defer d.Close()
	src, err := d.ReadFile(registry.WellKnown, untrusted.MaxDocument)
	if err != nil {
		if werr.CodeOf(err) != "" {
			return nil, err
		}
		return nil, werr.Wrap(werr.Env, "registry_unreadable", err, "cannot read %s", d.Join(registry.WellKnown))
	}
	kc, err := readKeychain(d.Join(registry.WellKnown), src)
	if err != nil {
		return nil, err
	}
	out := &Keychain{Registry: root, Keys: []ListedKey{}}
	for i, e := range kc.entries {
		id := kc.ids[i]
		k := ListedKey{KeyID: id, Status: registry.StatusActive, PermittedNamespaces: kc.namespaces[id], Assigned: []string{}}
		if k.PermittedNamespaces == nil {
			k.PermittedNamespaces = []string{}
		}
		k.Algorithm, _ = jsjson.Str(jsjson.Field(e, "algorithm"))
		if v, ok := e.Get("status"); ok {
			s, _ := jsjson.Str(v)
			k.Status = s
		}
		k.Operator, _ = jsjson.Str(jsjson.Field(e, "operator"))
		for _, a := range kc.assignments {
			if a[1] == id {
				k.Assigned = append(k.Assigned, a[0])
			}
		}
		k.KeyFile, k.KeyFileState = registry.KeyPath(id), "key_id_invalid"
		if k.KeyFile != "" {
			k.KeyFileState = keyFileState(d, k.KeyFile)
		}
		out.Keys = append(out.Keys, k)
	}
	return out, nil
}

// keyFileState reads rel through the untrusted layer and says what it is.
func keyFileState(d *untrusted.Dir, rel string) string {
	data, err := d.ReadFile(rel, untrusted.MaxKey)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing"
	case err != nil:
		if c := werr.CodeOf(err); c != "" {
			return c
		}
		return "key_unreadable"
	}
	if _, err := sign.ParsePublicKeyPEM(data, d.Join(rel)); err != nil {
		return werr.CodeOf(err)
	}
	return "ok"
}

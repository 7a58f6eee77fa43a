package lsp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
)

// The quick fixes whose rule's hint names one value to set or one member to
// remove or rename: PK001, PK002, PK003, PK004, OW004, OW007, OW010, CN002, WC006,
// CD003, EV003 (the rules whose fix the problem carries, validate.Problem.Fix,
// need nothing here: see applyFix).

// setValue is the action "title" that sets the value at pointer.
func setValue(w *view, pointer string, value any, title string) *codeAction {
	b, err := jsonedit.Set(w.doc.text, pointer, value)
	if err != nil {
		return nil
	}
	return &codeAction{Title: title, Edit: editOf(w, b)}
}

// removeMember is the action "title" that removes the member at pointer.
func removeMember(w *view, pointer, title string) *codeAction {
	if w.jd.Lookup(pointer) == nil {
		return nil
	}
	b, err := jsonedit.Remove(w.doc.text, pointer)
	if err != nil {
		return nil
	}
	return &codeAction{Title: title, Edit: editOf(w, b)}
}

// admitMajor2 writes an engines.openwop range with the ceiling <3.0.0 the
// v2 registry needs (PK001), keeping the range's floor when it has one.
func admitMajor2(w *view, pointer string) *codeAction {
	n := w.jd.Lookup(pointer)
	if pointer != "/engines/openwop" || n == nil || n.Kind != jsondoc.String {
		return nil
	}
	floor := "1.0.0"
	if v := lowestVersion(n.Str); v != "" {
		if major, err := strconv.Atoi(v[:strings.IndexByte(v, '.')]); err == nil && major < 3 && strings.HasPrefix(strings.TrimSpace(n.Str), ">=") {
			floor = v
		}
	}
	r := ">=" + floor + " <3.0.0"
	return setValue(w, pointer, r, fmt.Sprintf("Write %q", r))
}

// entryFromRemote sets runtime.entry to runtime.mcpServer.remotes[0].url
// (PK004).
func entryFromRemote(w *view) *codeAction {
	url := w.jd.Lookup("/runtime/mcpServer/remotes/0/url")
	if url == nil || url.Kind != jsondoc.String {
		return nil
	}
	return setValue(w, "/runtime/entry", url.Str, fmt.Sprintf("Set runtime.entry to %q", url.Str))
}

// fixPeer answers OW010: an empty peerDependencies value becomes
// "supported"; a peerDependenciesMeta entry without its peer is removed.
func fixPeer(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 2 {
		return nil
	}
	switch toks[0] {
	case "peerDependencies":
		if n := w.jd.Lookup(pointer); n == nil || n.Kind != jsondoc.String || strings.TrimSpace(n.Str) != "" {
			return nil
		}
		return setValue(w, pointer, "supported", fmt.Sprintf(`Write "supported" for %q`, toks[1]))
	case "peerDependenciesMeta":
		return removeMember(w, pointer, fmt.Sprintf("Remove the peerDependenciesMeta entry %q", toks[1]))
	}
	return nil
}

// pkceS256 sets a provider's auth.pkce to "S256" (CN002).
func pkceS256(w *view, pointer string) *codeAction {
	if pointer != "/provider/auth/pkce" {
		return nil
	}
	return setValue(w, pointer, "S256", `Set auth.pkce to "S256"`)
}

// removeParam removes a chain parameter no {{params.x}} uses (WC006), and
// its parameters.required entry.
func removeParam(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 5 || toks[0] != "chains" || toks[2] != "parameters" || toks[3] != "properties" || w.jd.Lookup(pointer) == nil {
		return nil
	}
	text, name := w.doc.text, toks[4]
	req := "/chains/" + toks[1] + "/parameters/required"
	items := itemsOf(w.jd.Lookup(req))
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].Kind == jsondoc.String && items[i].Str == name {
			var err error
			if text, err = jsonedit.Remove(text, req+"/"+strconv.Itoa(i)); err != nil {
				return nil
			}
		}
	}
	b, err := jsonedit.Remove(text, pointer)
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Remove the unused parameter %q", name), Edit: editOf(w, b)}
}

// removeMapping removes a card's placeholderMapping entry its template
// never uses (CD003).
func removeMapping(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 5 || toks[0] != "cards" || toks[3] != "placeholderMapping" {
		return nil
	}
	return removeMember(w, pointer, fmt.Sprintf("Remove the unused mapping %q", toks[4]))
}

// remoteRuntime writes the runtime OW004's hint gives a pack of agents
// only: {"language": "remote", "entry": "pack.json"}.
func remoteRuntime(w *view) *codeAction {
	if w.jd.Lookup("/runtime") == nil {
		return nil
	}
	return setValue(w, "/runtime", map[string]any{"language": "remote", "entry": "pack.json"},
		`Set "runtime": {"language": "remote", "entry": "pack.json"}`)
}

// signingKeyScheme rewrites a v2 signing block as exactly {keyId, scheme},
// in that order, keeping their values (PK003); without both there is no
// value to keep, and no fix.
func signingKeyScheme(w *view) *codeAction {
	sg := w.jd.Lookup("/signing")
	key, scheme := sg.Get("keyId"), sg.Get("scheme")
	if key == nil || scheme == nil || key.Kind != jsondoc.String || scheme.Kind != jsondoc.String {
		return nil
	}
	// encoding/json writes a map's keys sorted: keyId, then scheme.
	return setValue(w, "/signing", map[string]any{"keyId": key.Str, "scheme": scheme.Str}, "Write the signing block as {keyId, scheme}")
}

// scaleWeights divides each weight of the rubric at pointer by their sum,
// so that they add up to 1.0 (EV003).
func scaleWeights(w *view, pointer string) *codeAction {
	items := itemsOf(w.jd.Lookup(pointer))
	sum := 0.0
	ws := make([]float64, len(items))
	for i, it := range items {
		n := it.Get("weight")
		if n == nil || n.Kind != jsondoc.Number {
			return nil
		}
		f, err := strconv.ParseFloat(n.Str, 64)
		if err != nil || f < 0 {
			return nil
		}
		ws[i], sum = f, sum+f
	}
	if len(items) == 0 || sum <= 0 {
		return nil
	}
	text := w.doc.text
	for i, f := range ws {
		var err error
		if text, err = jsonedit.Set(text, pointer+"/"+strconv.Itoa(i)+"/weight", json.Number(strconv.FormatFloat(f/sum, 'g', 12, 64))); err != nil {
			return nil
		}
	}
	return &codeAction{Title: "Scale the weights to add up to 1.0", Edit: editOf(w, text)}
}

// renamePeer renames a peerDependencies key to the family validate guesses
// for it (PK002's hint: validate.GuessPeerFamily), with its
// peerDependenciesMeta entry, and the alias's facets there when the family
// has no entry yet.
func renamePeer(w *view, pointer string) *codeAction {
	toks := jsondoc.SplitPointer(pointer)
	if len(toks) != 2 || toks[0] != "peerDependencies" {
		return nil
	}
	key := toks[1]
	fam := validate.GuessPeerFamily(key)
	if fam == "" || fam == key || w.jd.Lookup(jsondoc.Child("/peerDependencies", fam)) != nil {
		return nil
	}
	text, err := jsonedit.Rename(w.doc.text, pointer, fam)
	if err != nil {
		return nil
	}
	meta := w.jd.Lookup("/peerDependenciesMeta")
	switch {
	case meta.Get(key) != nil && meta.Get(fam) == nil:
		text, err = jsonedit.Rename(text, jsondoc.Child("/peerDependenciesMeta", key), fam)
	case meta.Get(fam) == nil:
		if row, ok := validate.PeerAlias(key); ok && len(row.Facets) > 0 {
			if meta == nil {
				text, err = jsonedit.SetAfter(text, "/peerDependenciesMeta", "peerDependencies", map[string]any{fam: map[string]any{"facets": row.Facets}})
			} else if meta.Kind == jsondoc.Object {
				text, err = jsonedit.Set(text, jsondoc.Child("/peerDependenciesMeta", fam), map[string]any{"facets": row.Facets})
			}
		}
	}
	if err != nil {
		return nil
	}
	return &codeAction{Title: fmt.Sprintf("Rename the peer dependency %q to the family %q", key, fam), Edit: editOf(w, text)}
}

// removeProvider removes a provider from a secret whose kind is not
// ai-provider (OW007's second case; the first needs a provider id only the
// author knows).
func removeProvider(w *view, pointer string) *codeAction {
	if !strings.HasSuffix(pointer, "/provider") {
		return nil
	}
	return removeMember(w, pointer, `Remove "provider"`)
}

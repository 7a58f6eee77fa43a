package lsp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
)

// The quick fixes whose rule's hint names one value to set or one member to
// remove: PK001, PK004, OW010, CN002, WC006, CD003.

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

package wizard

import (
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"slices"
	"strings"
)

// crossCheck is the check of the whole answers as the author leaves the
// field with the key: a problem the review would show at this field (an id
// another node has, a licence that is not an SPDX id, a key file that is
// not there) is said as the field is left, not pages later. It never holds
// the focus (one rule for every field: only a field's own check refuses):
// a problem kept the focus until a second enter, so the next answer typed
// went on the end of the same field. The warning stays above the fields
// until its cause is gone or the page is left, and the review lists it.
func (w *wizard) crossCheck(key, text string) error {
	msg := w.crossProblem(key)
	switch {
	case msg != "":
		w.warn, w.warnKey = msg, key
	case w.warnKey == key:
		w.warn, w.warnKey = "", ""
	}
	return nil
}

// recheckWarn drops the warning once its cause is gone (an answer on
// another field fixed it).
func (w *wizard) recheckWarn() {
	if w.warnKey != "" && w.crossProblem(w.warnKey) == "" {
		w.warn, w.warnKey = "", ""
	}
}

// crossProblem is what the review would say at the field with the key:
// each of its problems, with its hint ("" when there is none).
func (w *wizard) crossProblem(key string) string {
	// Accessible mode lists every problem under its question before it
	// writes (a refusal would end a run whose answers come from a pipe).
	if w.a == nil || key == "" || w.k.Accessible {
		return ""
	}
	p := makePlan(w.k.V, w.a)
	probs := p.Problems
	switch key { // the answers the create workflow's preflight is about
	case "name.part", "version", "signMethod", "keyPath", "keyId", mainField(w.a).Field:
		probs = append(probs, preflight(w.k.V, w.a, w.opts, p.Plan)...)
	}
	var msgs []string
	for _, fe := range probs {
		// A field may ask part of an answer: "license.other" types the
		// licence the list does not offer.
		if k := fieldKey(fe); k != key && !strings.HasPrefix(key, k+".") {
			continue
		}
		msg := fe.Message
		if w.at.pg.id != "sign" { // (labelling builds pages apart; the sign page asks the ssh-agent)
			msg = w.placesInWords(w.a, ask.InWords(msg, fe.Pointer, w.where(w.a, fe)))
		}
		if fe.Hint != "" {
			msg += " (" + fe.Hint + ")"
		}
		if !slices.Contains(msgs, msg) {
			msgs = append(msgs, msg)
		}
	}
	return strings.Join(msgs, "; ")
}

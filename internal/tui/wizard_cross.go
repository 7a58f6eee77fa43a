package tui

import (
	"errors"
	"slices"
	"strings"
)

// crossCheck is the check of the whole answers as the author leaves the
// field with the key: a problem the review would show at this field (an id
// another node has, a licence that is not an SPDX id, a key file that is
// not there) is shown on the field, where it is fixed, not pages later.
// The author may go on anyway: leaving the field again with the same text
// passes, and the review lists the problem again.
func (w *wizard) crossCheck(key, text string) error {
	msg := w.crossProblem(key)
	if msg == "" {
		delete(w.passed, key)
		return nil
	}
	if w.passed[key] == text+"\x00"+msg {
		return nil
	}
	w.passed[key] = text + "\x00" + msg
	return errors.New(msg + "; enter again to go on, the review will list it")
}

// crossHolds reports whether leaving the field with the key and text now
// would be stopped by crossCheck (without recording that it was shown).
func (w *wizard) crossHolds(key, text string) bool {
	msg := w.crossProblem(key)
	return msg != "" && w.passed[key] != text+"\x00"+msg
}

// crossProblem is what the review would say at the field with the key:
// each of its problems, with its hint ("" when there is none).
func (w *wizard) crossProblem(key string) string {
	// Accessible mode lists every problem under its question before it
	// writes (a refusal would end a run whose answers come from a pipe).
	if w.a == nil || key == "" || w.k.accessible {
		return ""
	}
	p := makePlan(w.k.v, w.a)
	probs := p.problems
	switch key { // the answers the create workflow's preflight is about
	case "name.part", "version", "signMethod", "keyPath", "keyId", mainField(w.a).Field:
		probs = append(probs, preflight(w.k.v, w.a, w.opts, p.plan)...)
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
			msg = w.placesInWords(w.a, inWords(msg, fe.Pointer, w.where(w.a, fe)))
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

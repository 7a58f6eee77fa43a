// Package ecmare compiles the regular expressions of JSON Schema (pattern,
// patternProperties, the "regex" format) as ECMA-262 reads them, with the
// `u` flag, as ajv (the validator the OpenWOP registry runs) does: not as
// Go's RE2. The two differ where packs notice: `[[:alpha:]]` is a POSIX
// class for RE2 and a plain class followed by "]" for ECMA-262; `\s` is
// ASCII for RE2 and includes U+00A0, U+FEFF and the Unicode spaces for
// ECMA-262; ECMA-262 has lookahead, lookbehind and back-references; `$`
// (without the m flag) matches only at the very end.
//
// The engine is github.com/dlclark/regexp2 in its ECMAScript and Unicode
// modes: a maintained backtracking engine (the only Go one with an
// ECMAScript mode). Backtracking can take exponential time, so every match
// is bounded by Timeout: a match not decided within it is ErrUndecided,
// never a hang. `validate` reports it as a validation problem, `diff` as
// "could not prove compatible".
package ecmare

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
)

// Timeout bounds one match. Patterns of real packs decide in microseconds;
// only one that backtracks exponentially (`^(a+)+$` on a long non-match)
// reaches it.
const Timeout = 250 * time.Millisecond

// ErrUndecided is a match that Timeout cut short: whether the string
// matches is not known.
var ErrUndecided = errors.New("the pattern could not be decided in time (it backtracks too much)")

// Regexp is a compiled ECMA-262 pattern. It is safe for concurrent use.
type Regexp struct {
	src string
	re  *regexp2.Regexp
}

// Compile compiles src as ECMA-262 with the u flag.
func Compile(src string) (re *Regexp, err error) {
	// The engine has panicked on odd input before; a pattern is
	// untrusted (it comes from a pack's schema).
	defer func() {
		if r := recover(); r != nil {
			re, err = nil, fmt.Errorf("pattern %q cannot be compiled: %v", src, r)
		}
	}()
	t, err := translate(src)
	if err != nil {
		return nil, fmt.Errorf("pattern %q is not an ECMA-262 regular expression: %w", src, err)
	}
	r, err := regexp2.Compile(t, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		return nil, err
	}
	r.MatchTimeout = Timeout
	return &Regexp{src: src, re: r}, nil
}

// String is the pattern's source.
func (r *Regexp) String() string { return r.src }

// Match reports whether s contains a match of r (JSON Schema patterns are
// not anchored), or ErrUndecided.
func (r *Regexp) Match(s string) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, ErrUndecided
		}
	}()
	ok, err = r.re.MatchString(s)
	if err != nil {
		return false, ErrUndecided
	}
	return ok, nil
}

// MatchString is Match for jsonschema's Regexp interface: an undecided
// match counts as no match (a `pattern` refuses the value; `validate`
// then says that it was undecided, see Undecided). jsonschema calls Match
// itself for patternProperties (jsonschema.DecidingRegexp).
func (r *Regexp) MatchString(s string) bool {
	ok, _ := r.Match(s)
	return ok
}

// cache holds the patterns compiled by Cached: schemas repeat the same few
// patterns, and compiling costs more than matching.
var cache sync.Map // string -> cached

type cached struct {
	re  *Regexp
	err error
}

// Cached is Compile, remembered for the process (up to maxCached
// patterns).
func Cached(src string) (*Regexp, error) {
	if c, ok := cache.Load(src); ok {
		return c.(cached).re, c.(cached).err
	}
	re, err := Compile(src)
	if cacheSize.Add(1) <= maxCached {
		cache.Store(src, cached{re, err})
	}
	return re, err
}

const maxCached = 4096

var cacheSize atomic.Int64

// Undecided reports whether matching s against the pattern src is cut
// short by Timeout (false when src does not compile): what `validate`
// asks of a value a pattern refused, to say why.
func Undecided(src, s string) bool {
	re, err := Cached(src)
	if err != nil {
		return false
	}
	_, err = re.Match(s)
	return errors.Is(err, ErrUndecided)
}

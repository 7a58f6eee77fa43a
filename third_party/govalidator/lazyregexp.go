package govalidator

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled the first time it is used,
// so that importing the package costs nothing at start-up (its init used
// to compile about 60 expressions: 2 ms and 950 KB in every program that
// links it, whether or not it validates anything).
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// lazyCompile is regexp.MustCompile, deferred to the first use.
func lazyCompile(expr string) *lazyRegexp { return &lazyRegexp{expr: expr} }

func (r *lazyRegexp) compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// MatchString is regexp.Regexp's MatchString.
func (r *lazyRegexp) MatchString(s string) bool { return r.compiled().MatchString(s) }

// ReplaceAllString is regexp.Regexp's ReplaceAllString.
func (r *lazyRegexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}

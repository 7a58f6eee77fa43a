// Package lazyre is a regular expression compiled on first use. A
// package-level `var re = regexp.MustCompile(...)` is compiled while the
// program starts, by every command, whether or not it ever matches; the
// same variable declared with New costs nothing until its first match.
//
// The patterns are constants of the program: TestEveryPatternCompiles
// compiles every New("...") of the repository, so a bad one fails the
// tests rather than panicking on first use.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a *regexp.Regexp compiled the first time one of its methods
// is called; it is safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns the expression expr, not yet compiled. expr must be a
// constant that compiles: the first use panics otherwise.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Compiled returns the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text, without compiling it.
func (r *Regexp) String() string { return r.expr }

// MatchString is regexp.Regexp's MatchString.
func (r *Regexp) MatchString(s string) bool { return r.Compiled().MatchString(s) }

// FindString is regexp.Regexp's FindString.
func (r *Regexp) FindString(s string) string { return r.Compiled().FindString(s) }

// FindStringIndex is regexp.Regexp's FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.Compiled().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp's FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Compiled().FindStringSubmatch(s) }

// FindAllStringSubmatch is regexp.Regexp's FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Compiled().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp's ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Compiled().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp.Regexp's ReplaceAllStringFunc.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Compiled().ReplaceAllStringFunc(src, repl)
}

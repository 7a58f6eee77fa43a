// Package testwait bounds a call a test expects to return: a read that a
// FIFO or a hostile server could block fails the test instead of hanging
// the suite.
package testwait

import (
	"testing"
	"time"
)

// Ceiling is how long a test waits for something that must happen (a call
// returning, a process ending) before it fails: far beyond what it takes on
// a busy machine, so that reaching it means the thing never happens. Tests
// wait for the event, never assert how long it took (speed targets are
// benchmarks).
const Ceiling = 2 * time.Minute

// Within runs f and returns its error, or fails the test (naming what)
// when f has not returned after d.
func Within(t testing.TB, what string, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("%s still blocked after %v", what, d)
		return nil
	}
}

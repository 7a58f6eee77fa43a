// Package testwait bounds a call a test expects to return: a read that a
// FIFO or a hostile server could block fails the test instead of hanging
// the suite.
package testwait

import (
	"testing"
	"time"
)

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

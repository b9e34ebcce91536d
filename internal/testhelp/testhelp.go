// Package testhelp holds the helpers that the tests of several packages of
// the root module share (ecs, in its internal and external test packages,
// sched, internal/refmodel and internal/compgen), so that each exists once. Only _test.go
// files import it; it depends on the standard library alone, so any
// package's tests can.
package testhelp

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// MustPanic runs f and checks that it panics with a message containing
// every one of parts. The message is the panic value as fmt.Sprint prints
// it: the string itself, or an error's Error(). A runtime error (a nil
// dereference, an index out of range) fails the check whatever it says: it
// is a crash, not the panic the caller documents.
func MustPanic(t testing.TB, f func(), parts ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want one mentioning %q", parts)
		}
		if err, ok := r.(runtime.Error); ok {
			t.Fatalf("runtime error %q; want a panic mentioning %q", err, parts)
		}
		msg := fmt.Sprint(r)
		for _, p := range parts {
			if !strings.Contains(msg, p) {
				t.Errorf("panic %q does not mention %q", msg, p)
			}
		}
	}()
	f()
}

// FinishesWithin runs f in a goroutine and fails the test, naming what,
// if f has not returned after limit: a regression to code that walks what
// its input only claims fails instead of hanging the run. f keeps running
// in the background until the test binary exits. f runs on a goroutine of
// its own, so it reports failures with Error, not Fatal (FailNow must be
// called from the test's goroutine).
func FinishesWithin(t testing.TB, limit time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s: not done after %v", what, limit)
	}
}

package testhelp

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// recorder stands in for a *testing.T: it keeps what MustPanic reports,
// and stops the goroutine on Fatalf as the real one does.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func check(f func(), parts ...string) []string {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		MustPanic(r, f, parts...)
	}()
	<-done
	return r.failures
}

func TestMustPanic(t *testing.T) {
	var nilMap map[string]int
	cases := []struct {
		name  string
		f     func()
		parts []string
		fail  string // a piece of the failure, "" for none
	}{
		{"string", func() { panic("ecs: entity 3 is not alive") }, []string{"ecs:", "not alive"}, ""},
		{"error", func() { panic(errors.New("sched: cycle")) }, []string{"cycle"}, ""},
		{"no parts", func() { panic("anything") }, nil, ""},
		{"no panic", func() {}, []string{"x"}, "no panic"},
		{"wrong message", func() { panic("ecs: stale") }, []string{"ecs:", "not alive"}, `does not mention "not alive"`},
		{"runtime error", func() { nilMap["x"] = 1 }, nil, "runtime error"},
	}
	for _, c := range cases {
		failures := check(c.f, c.parts...)
		switch {
		case c.fail == "" && len(failures) > 0:
			t.Errorf("%s: failed: %q", c.name, failures)
		case c.fail != "" && (len(failures) != 1 || !strings.Contains(failures[0], c.fail)):
			t.Errorf("%s: failures %q, want one mentioning %q", c.name, failures, c.fail)
		}
	}
}

func TestFinishesWithin(t *testing.T) {
	run := func(limit time.Duration, f func()) []string {
		r := &recorder{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			FinishesWithin(r, limit, "the call", f)
		}()
		<-done
		return r.failures
	}
	if failures := run(time.Second, func() {}); len(failures) != 0 {
		t.Errorf("a call that returns at once failed: %q", failures)
	}
	release := make(chan struct{})
	defer close(release)
	failures := run(10*time.Millisecond, func() { <-release })
	if len(failures) != 1 || !strings.Contains(failures[0], "the call: not done after 10ms") {
		t.Errorf("a call that does not return: %q, want one failure naming it and the limit", failures)
	}
}

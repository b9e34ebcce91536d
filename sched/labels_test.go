package sched

import (
	"bytes"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// ownLabels returns the pprof labels of the goroutines running ownLabels
// as the goroutine profile prints them (`{"system":"alpha"}`, or "" for
// none), one entry per distinct set. It reads them off the goroutines
// themselves, not off a context, so it sees what a CPU profile would record.
//
//go:noinline
func ownLabels(t *testing.T) []string {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Error(err)
		return nil
	}
	var sets []string
	// debug=1 prints one record per stack and label set, separated by blank
	// lines: a count line, then "# labels: {...}" when there are labels,
	// then the frames as "#\t0x...\tpackage.function+0x...\tfile:line".
	for rec := range strings.SplitSeq(buf.String(), "\n\n") {
		if !strings.Contains(rec, "/sched.ownLabels+") {
			continue
		}
		labels := ""
		for line := range strings.SplitSeq(rec, "\n") {
			if l, ok := strings.CutPrefix(line, "# labels: "); ok {
				labels = l
			}
		}
		if !slices.Contains(sets, labels) {
			sets = append(sets, labels)
		}
	}
	if len(sets) == 0 {
		t.Errorf("no goroutine in ownLabels in the profile:\n%s", buf.String())
	}
	return sets
}

// TestSystemsCarryPprofLabels checks that each system runs with the pprof
// label system=<name> on its goroutine, and so do the goroutines running
// the items of its ForEach: CPU profiles record it per sample.
func TestSystemsCarryPprofLabels(t *testing.T) {
	s := New(ecs.NewWorld(), Workers(2))
	defer s.Close()
	// One after another, so that the only goroutines in ownLabels are the
	// current system's.
	seen := map[string][]string{}
	s.AddFunc("alpha", func(*Context) { seen["alpha"] = ownLabels(t) })
	s.AddFunc("beta", func(*Context) { seen["beta"] = ownLabels(t) }, After("alpha"))
	var items [][]string
	s.AddFunc("gamma", func(ctx *Context) {
		items = make([][]string, 8)
		ForEach(ctx, []int{0, 1, 2, 3, 4, 5, 6, 7}, func(i int) { items[i] = ownLabels(t) })
		seen["gamma"] = ownLabels(t)
	}, After("beta"))
	s.Run()
	for _, name := range []string{"alpha", "beta", "gamma"} {
		want := []string{`{"system":"` + name + `"}`}
		if got := seen[name]; !slices.Equal(got, want) {
			t.Errorf("system %q runs on goroutines labelled %q, want %q", name, got, want)
		}
	}
	for i, got := range items {
		if want := []string{`{"system":"gamma"}`}; !slices.Equal(got, want) {
			t.Errorf("ForEach item %d of gamma runs on goroutines labelled %q, want %q", i, got, want)
		}
	}
	if got := ownLabels(t); !slices.Equal(got, []string{""}) {
		t.Errorf("after Run, the calling goroutine is labelled %q, want none", got)
	}
}

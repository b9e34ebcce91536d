package sched

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

type allocHP struct{ N int }

// A warm sync makes no allocation, in place or through Set and Add. The
// test drives Emit and sync itself: Run allocates for its own reasons.
func TestOutputSyncDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are skewed by the race detector")
	}
	for _, hooked := range []bool{false, true} {
		w := ecs.NewWorld()
		s := New(w, Workers(1))
		hp := ecs.NewMap[allocHP](w)
		if hooked {
			ecs.OnSet(w, func(ecs.Entity, *allocHP) {})
		}
		var es []ecs.Entity
		for range 1000 {
			es = append(es, hp.Spawn(allocHP{}))
		}
		dead := hp.Spawn(allocHP{})
		w.Despawn(dead)
		o := NewOutput(s, func(cur, next allocHP) allocHP { return allocHP{cur.N + next.N} })
		for j := range 3 {
			s.AddFunc(fmt.Sprint("emit", j), func(*Context) {}, Emits[allocHP]())
		}
		if err := s.Build(); err != nil {
			t.Fatal(err)
		}
		stage := s.stages[0]
		tick := func() {
			for j, x := range stage {
				for i := j; i < len(es); i += 2 {
					o.Emit(&x.ctx, es[i], allocHP{1})
				}
				o.Emit(&x.ctx, dead, allocHP{1})
			}
			o.sync(stage)
		}
		tick()
		if n := testing.AllocsPerRun(20, tick); n != 0 {
			t.Errorf("hooked %v: %v allocations per sync", hooked, n)
		}
		if got := hp.Get(es[2]).N; got != 2*22 { // from systems 0 and 2, 22 ticks
			t.Errorf("hooked %v: es[2] is %d, want 44", hooked, got)
		}
		s.Close()
	}
}

type (
	plainLabelled struct {
		N    int
		Name string
	}
	plainNested struct {
		Grid [4][4]float32
		Tags []string
	}
	plainPos struct{ X, Y float64 }
)

// TestHoldsPointers: an Output clears its spent buffers only for a type
// whose values hold pointers the collector must see, strings included.
func TestHoldsPointers(t *testing.T) {
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"plainPos", holdsPointers(reflect.TypeFor[plainPos]()), false},
		{"[8]plainPos", holdsPointers(reflect.TypeFor[[8]plainPos]()), false},
		{"[0]*int", holdsPointers(reflect.TypeFor[[0]*int]()), false},
		{"plainLabelled (a string)", holdsPointers(reflect.TypeFor[plainLabelled]()), true},
		{"plainNested (a slice after an array)", holdsPointers(reflect.TypeFor[plainNested]()), true},
		{"*plainPos", holdsPointers(reflect.TypeFor[*plainPos]()), true},
	} {
		if c.got != c.want {
			t.Errorf("%s: holdsPointers %v, want %v", c.name, c.got, c.want)
		}
	}
}

package sched_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

// Trail is folded by appending, a merge that is not commutative: the result
// shows the order in which the values were folded.
type Trail struct{ S string }

func appendTrail(cur, next Trail) Trail { return Trail{cur.S + next.S} }

// hookMode says which hooks a test registers on Trail: none (the in-place
// merge), an OnSet hook (every update goes through Set), or OnAdd and
// OnSet hooks that record the order in which entities are updated.
type hookMode int

const (
	noHooks hookMode = iota
	setHook
	traceHooks
)

func (h hookMode) String() string { return [...]string{"in place", "OnSet", "traced"}[h] }

func TestOutputFoldsInSystemThenEmissionOrder(t *testing.T) {
	for _, hooks := range []hookMode{noHooks, setHook, traceHooks} {
		for _, workers := range []int{1, 4} {
			t.Run(fmt.Sprintf("%v/workers=%d", hooks, workers), func(t *testing.T) {
				w := ecs.NewWorld()
				s := sched.New(w, sched.Workers(workers))
				defer s.Close()
				tr := ecs.NewMap[Trail](w)
				a := tr.Spawn(Trail{"a:"})
				b := w.Spawn() // no Trail: the fold starts from its first value, then Add
				c := tr.Spawn(Trail{"c:"})
				var order []string
				name := map[ecs.Entity]string{a: "a", b: "b", c: "c"}
				switch hooks {
				case setHook:
					ecs.OnSet(w, func(ecs.Entity, *Trail) {})
				case traceHooks:
					ecs.OnSet(w, func(e ecs.Entity, _ *Trail) { order = append(order, "set "+name[e]) })
					ecs.OnAdd(w, func(e ecs.Entity, _ *Trail) { order = append(order, "add "+name[e]) })
				}
				out := sched.NewOutput(s, appendTrail)
				mustAdd(t, s, "one", func(ctx *sched.Context) {
					out.Emit(ctx, c, Trail{"1"})
					out.Emit(ctx, b, Trail{"x"})
					out.Emit(ctx, a, Trail{"1"})
					out.Emit(ctx, a, Trail{"2"})
				}, sched.Emits[Trail]())
				mustAdd(t, s, "two", func(ctx *sched.Context) {
					out.Emit(ctx, a, Trail{"3"})
					out.Emit(ctx, b, Trail{"y"})
					out.Emit(ctx, b, Trail{"z"})
				}, sched.Emits[Trail]())
				mustAdd(t, s, "three", func(ctx *sched.Context) {
					out.Emit(ctx, a, Trail{"4"})
					out.Emit(ctx, c, Trail{"2"})
				}, sched.Emits[Trail]())
				s.Run()
				s.Run()
				if got := tr.Get(a).S; got != "a:12341234" {
					t.Errorf("a: %q, want a:1234 folded twice", got)
				}
				if got := tr.Get(b).S; got != "xyzxyz" {
					t.Errorf("b: %q, want xyz added then folded", got)
				}
				if got := tr.Get(c).S; got != "c:1212" {
					t.Errorf("c: %q", got)
				}
				// Applied counts values: a's four, b's three and c's two, twice.
				if out.Applied() != 18 || out.Dropped() != 0 {
					t.Errorf("applied %d, dropped %d; want 18, 0", out.Applied(), out.Dropped())
				}
				// Entities are updated in the order they first received a
				// value: c (system one's first), b, then a.
				if want := "set c,add b,set a,set c,set b,set a"; hooks == traceHooks && strings.Join(order, ",") != want {
					t.Errorf("updated in the order %q, want %q", strings.Join(order, ","), want)
				}
			})
		}
	}
}

func TestOutputDropsDeadAndRecycledHandles(t *testing.T) {
	for _, hooks := range []hookMode{noHooks, setHook} {
		t.Run(hooks.String(), func(t *testing.T) {
			w := ecs.NewWorld()
			s := sched.New(w, sched.Workers(2))
			defer s.Close()
			tr := ecs.NewMap[Trail](w)
			if hooks == setHook {
				ecs.OnSet(w, func(ecs.Entity, *Trail) {})
			}
			dead := tr.Spawn(Trail{"dead:"})
			w.Despawn(dead)
			recycled := tr.Spawn(Trail{"r:"}) // dead's index, a new generation
			dead2 := w.Spawn()
			w.Despawn(dead2)
			recycled2 := w.Spawn() // no Trail: gets Add
			if recycled.Index() != dead.Index() || recycled2.Index() != dead2.Index() {
				t.Fatal("the test needs the indices to be recycled")
			}
			out := sched.NewOutput(s, appendTrail)
			mustAdd(t, s, "one", func(ctx *sched.Context) {
				out.Emit(ctx, dead, Trail{"!"}) // the dead handle first
				out.Emit(ctx, recycled, Trail{"1"})
				out.Emit(ctx, dead, Trail{"!"}) // and after the live one
				out.Emit(ctx, recycled2, Trail{"x"})
				out.Emit(ctx, dead2, Trail{"!"})
			}, sched.Emits[Trail]())
			mustAdd(t, s, "two", func(ctx *sched.Context) {
				out.Emit(ctx, dead2, Trail{"!"})
				out.Emit(ctx, recycled, Trail{"2"})
				out.Emit(ctx, dead, Trail{"!"})
				out.Emit(ctx, recycled2, Trail{"y"})
			}, sched.Emits[Trail]())
			s.Run()
			if got := tr.Get(recycled).S; got != "r:12" {
				t.Errorf("recycled: %q, want r:12", got)
			}
			if got := tr.Get(recycled2).S; got != "xy" {
				t.Errorf("recycled2: %q, want xy", got)
			}
			if out.Applied() != 4 || out.Dropped() != 5 {
				t.Errorf("applied %d, dropped %d; want 4, 5", out.Applied(), out.Dropped())
			}
		})
	}
}

// A hook fired by one entity's update despawns entities that have values
// still to apply: their values are dropped and counted, with no panic.
func TestOutputHookDespawnsAnEntityWithPendingValues(t *testing.T) {
	for _, via := range []string{"OnSet", "OnAdd"} {
		t.Run(via, func(t *testing.T) {
			w := ecs.NewWorld()
			s := sched.New(w, sched.Workers(2))
			defer s.Close()
			tr := ecs.NewMap[Trail](w)
			first := tr.Spawn(Trail{"f:"})
			if via == "OnAdd" {
				first = w.Spawn()
			}
			victim := tr.Spawn(Trail{"v:"})   // would get Set
			bare := w.Spawn()                 // would get Add
			survivor := tr.Spawn(Trail{"s:"}) // untouched by the hook
			hook := func(e ecs.Entity, _ *Trail) {
				if e == first {
					w.Despawn(victim)
					w.Despawn(bare)
				}
			}
			if via == "OnSet" {
				ecs.OnSet(w, hook)
			} else {
				ecs.OnAdd(w, hook)
			}
			out := sched.NewOutput(s, appendTrail)
			mustAdd(t, s, "one", func(ctx *sched.Context) {
				out.Emit(ctx, first, Trail{"1"})
				out.Emit(ctx, victim, Trail{"1"})
				out.Emit(ctx, bare, Trail{"1"})
				out.Emit(ctx, survivor, Trail{"1"})
			}, sched.Emits[Trail]())
			mustAdd(t, s, "two", func(ctx *sched.Context) {
				out.Emit(ctx, victim, Trail{"2"})
				out.Emit(ctx, bare, Trail{"2"})
				out.Emit(ctx, survivor, Trail{"2"})
			}, sched.Emits[Trail]())
			s.Run()
			if w.Alive(victim) || w.Alive(bare) {
				t.Fatal("the hook did not despawn")
			}
			if got := tr.Get(survivor).S; got != "s:12" {
				t.Errorf("survivor: %q", got)
			}
			want := "f:1"
			if via == "OnAdd" {
				want = "1"
			}
			if got := tr.Get(first).S; got != want {
				t.Errorf("first: %q, want %q", got, want)
			}
			// With only an OnAdd hook, Set is a plain write: victim is
			// merged in place, before first's Add, and despawned after.
			// Applied and Dropped count values.
			applied, dropped := 3, 4 // first's one and survivor's two; victim's and bare's
			if via == "OnAdd" {
				applied, dropped = 5, 2 // and victim's two; bare's
			}
			if out.Applied() != applied || out.Dropped() != dropped {
				t.Errorf("applied %d, dropped %d; want %d, %d", out.Applied(), out.Dropped(), applied, dropped)
			}
		})
	}
}

// TestOutputMatchesModelAcrossWorkers has several systems emit digits to
// overlapping entities, some of which die or lack the component, and checks
// the world after each tick against a sequential model of the fold (system
// order, then emission order, from the current value or the first value),
// on one worker and on four, with and without an OnSet hook.
func TestOutputMatchesModelAcrossWorkers(t *testing.T) {
	const systems, ents, ticks = 6, 300, 20
	run := func(workers int, hooked bool) []string {
		w := ecs.NewWorld()
		s := sched.New(w, sched.Workers(workers))
		defer s.Close()
		tr := ecs.NewMap[Trail](w)
		if hooked {
			ecs.OnSet(w, func(ecs.Entity, *Trail) {})
		}
		var es []ecs.Entity
		for i := range ents {
			if i%5 == 0 {
				es = append(es, w.Spawn()) // no Trail until its first output
			} else {
				es = append(es, tr.Spawn(Trail{}))
			}
		}
		out := sched.NewOutput(s, appendTrail)
		tick := 0
		// emits returns what system j emits in the current tick.
		emits := func(j int) (targets []int, digits []string) {
			for k := range 40 {
				r := mix(uint64(tick*systems+j), uint64(k))
				targets = append(targets, int(r%ents))
				digits = append(digits, fmt.Sprint(r>>32%10))
			}
			return targets, digits
		}
		for j := range systems {
			mustAdd(t, s, fmt.Sprint("emit", j), func(ctx *sched.Context) {
				targets, digits := emits(j)
				for k, i := range targets {
					out.Emit(ctx, es[i], Trail{digits[k]})
				}
			}, sched.Emits[Trail]())
		}
		model := make([]*string, ents)
		for i := range ents {
			if i%5 != 0 {
				model[i] = new(string)
			}
		}
		alive := make([]bool, ents)
		for i := range alive {
			alive[i] = true
		}
		dropped := 0
		for tick = range ticks {
			// Kill a few entities between ticks; their outputs are dropped.
			if i := int(mix(uint64(tick), 99) % ents); alive[i] {
				w.Despawn(es[i])
				alive[i] = false
			}
			for j := range systems {
				targets, digits := emits(j)
				for k, i := range targets {
					switch {
					case !alive[i]:
						dropped++
					case model[i] == nil:
						model[i] = &digits[k]
					default:
						*model[i] += digits[k]
					}
				}
			}
			s.Run()
			for i, e := range es {
				got, has := tr.TryGet(e)
				switch {
				case !alive[i] || model[i] == nil:
					if has {
						t.Fatalf("tick %d: entity %d has %q, want none", tick, i, got.S)
					}
				case !has || got.S != *model[i]:
					t.Fatalf("tick %d: entity %d: %v %v, want %q", tick, i, got, has, *model[i])
				}
			}
		}
		if out.Dropped() != dropped || dropped == 0 {
			t.Fatalf("dropped %d, want %d (and some)", out.Dropped(), dropped)
		}
		var final []string
		for i, e := range es {
			if got, ok := tr.TryGet(e); ok {
				final = append(final, fmt.Sprint(i, got.S))
			}
		}
		return final
	}
	for _, hooked := range []bool{false, true} {
		one, four := run(1, hooked), run(4, hooked)
		if !slices.Equal(one, four) {
			t.Fatalf("hooked %v: one worker and four differ", hooked)
		}
	}
}

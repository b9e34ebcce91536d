package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type (
	listPos  struct{ X, Y float32 }
	listMark struct{ V float32 }
	listName struct{ S string } // holds a pointer: copied by the typed path
)

// listWorld is a world of n entities with listPos, a third of them also
// with listName, and the handles for AddEntities and RemoveEntities.
type listWorld struct {
	w    *ecs.World
	es   []ecs.Entity
	mark *ecs.Map[listMark]
	name *ecs.Map[listName]
}

func newListWorld(n int) *listWorld {
	w := ecs.NewWorld()
	pos := ecs.NewMap[listPos](w)
	lw := &listWorld{w: w, mark: ecs.NewMap[listMark](w), name: ecs.NewMap[listName](w)}
	for i := range n {
		e := pos.Spawn(listPos{float32(i), -float32(i)})
		if i%3 == 0 {
			lw.name.Add(e, listName{fmt.Sprint("n", i)})
		}
		lw.es = append(lw.es, e)
	}
	return lw
}

// state lists every entity in iteration order with its values, so two
// worlds with the same state (row order included) give the same string.
func (lw *listWorld) state() string {
	var s []string
	q := ecs.NewQuery1[listPos](lw.w)
	for r := range q.All() {
		m, hasM := lw.mark.TryGet(r.Entity)
		nm, hasN := lw.name.TryGet(r.Entity)
		s = append(s, fmt.Sprint(r.Entity, *r.A, hasM, hasN))
		if hasM {
			s = append(s, fmt.Sprint(*m))
		}
		if hasN {
			s = append(s, nm.S)
		}
	}
	return fmt.Sprint(s)
}

// TestEntitiesListsMatchOneByOne changes random lists of entities, with
// repeats for removals, with AddEntities and RemoveEntities in one world
// and with Add and Remove one by one in its twin, and compares the two
// (iteration order included), below and above the index size from which
// the batch path reads ahead: 20 rounds of changes, or 5 above it
// without TESSERA_LONG=1 (testhelp.LongEnv).
func TestEntitiesListsMatchOneByOne(t *testing.T) {
	for _, c := range []struct{ n, rounds int }{{50, 20}, {70_000, testhelp.LongSize(t, 5, 20)}} {
		n := c.n
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			batch, single := newListWorld(n), newListWorld(n)
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			for round := range c.rounds {
				var add, remove []int
				for i := range n {
					if rng.IntN(5) == 0 && !batch.mark.Has(batch.es[i]) {
						add = append(add, i)
					}
				}
				rng.Shuffle(len(add), func(i, j int) { add[i], add[j] = add[j], add[i] })
				for range n / 4 {
					remove = append(remove, rng.IntN(n)) // repeats, and entities without the mark
				}
				for _, lw := range []*listWorld{batch, single} {
					v := listMark{float32(round)}
					if lw == batch {
						lw.mark.RemoveEntities(pick(lw.es, remove))
						lw.mark.AddEntities(pick(lw.es, add), v)
						lw.name.RemoveEntities(pick(lw.es, add[:len(add)/2]))
						lw.name.AddEntities(pick(lw.es, without(lw, add[len(add)/2:])), listName{fmt.Sprint("r", round)})
						continue
					}
					for _, e := range pick(lw.es, remove) {
						lw.mark.Remove(e)
					}
					for _, e := range pick(lw.es, add) {
						lw.mark.Add(e, v)
					}
					for _, e := range pick(lw.es, add[:len(add)/2]) {
						lw.name.Remove(e)
					}
					for _, e := range pick(lw.es, without(lw, add[len(add)/2:])) {
						lw.name.Add(e, listName{fmt.Sprint("r", round)})
					}
				}
				if got, want := batch.state(), single.state(); got != want {
					t.Fatalf("round %d: the lists' world differs from the one-by-one world", round)
				}
				if round == 0 && len(add) == 0 {
					t.Fatal("the round added nothing")
				}
			}
		})
	}
}

func pick(es []ecs.Entity, idx []int) []ecs.Entity {
	out := make([]ecs.Entity, len(idx))
	for i, x := range idx {
		out[i] = es[x]
	}
	return out
}

// without keeps the indices whose entities lack listName.
func without(lw *listWorld, idx []int) []int {
	return slices.DeleteFunc(slices.Clone(idx), func(i int) bool { return lw.name.Has(lw.es[i]) })
}

// TestEntitiesListsMisuse: a dead, foreign or already-marked entity panics
// at its turn, naming the operation, the type and the entity, with the
// entities before it changed and the world usable afterwards.
func TestEntitiesListsMisuse(t *testing.T) {
	lw := newListWorld(10)
	dead := lw.es[9]
	lw.w.Despawn(dead)
	testhelp.MustPanic(t, func() { lw.mark.AddEntities([]ecs.Entity{lw.es[0], dead, lw.es[1]}, listMark{1}) },
		"AddEntities", "listMark", dead.String(), "not alive")
	if !lw.mark.Has(lw.es[0]) || lw.mark.Has(lw.es[1]) {
		t.Fatalf("after the panic: first entity marked %v (want true), third %v (want false)", lw.mark.Has(lw.es[0]), lw.mark.Has(lw.es[1]))
	}
	testhelp.MustPanic(t, func() { lw.mark.AddEntities([]ecs.Entity{lw.es[2], lw.es[2]}, listMark{2}) },
		"listMark", lw.es[2].String(), "already has")
	testhelp.MustPanic(t, func() { lw.mark.RemoveEntities([]ecs.Entity{lw.es[0], dead}) },
		"RemoveEntities", "listMark", dead.String())
	if lw.mark.Has(lw.es[0]) {
		t.Fatal("RemoveEntities panicked before removing the entity ahead of the dead one")
	}
	other := newListWorld(1)
	testhelp.MustPanic(t, func() { lw.mark.AddEntities(other.es, listMark{3}) }, "AddEntities", "another world")
	// The world is usable: a later change does not report a concurrent one.
	lw.mark.AddEntities(lw.es[3:5], listMark{4})
	if got := *lw.mark.Get(lw.es[4]); got != (listMark{4}) {
		t.Fatalf("after the panics: %v, want {4}", got)
	}
}

// TestEntitiesListsDeferredAndHooked: inside an iteration the changes are
// deferred like Add's, and with a hook the hook sees every entity.
func TestEntitiesListsDeferredAndHooked(t *testing.T) {
	lw := newListWorld(6)
	q := ecs.NewQuery1[listPos](lw.w)
	for range q.All() {
		lw.mark.AddEntities(lw.es[:3], listMark{7})
		if lw.mark.Has(lw.es[0]) {
			t.Fatal("AddEntities inside an iteration took effect before the loop ended")
		}
		break
	}
	if !lw.mark.Has(lw.es[2]) {
		t.Fatal("the deferred AddEntities was not applied when the loop ended")
	}
	var seen []ecs.Entity
	ecs.OnRemove(lw.w, func(e ecs.Entity, _ *listMark) { seen = append(seen, e) })
	lw.mark.RemoveEntities([]ecs.Entity{lw.es[2], lw.es[0], lw.es[5]})
	if want := []ecs.Entity{lw.es[2], lw.es[0]}; !slices.Equal(seen, want) {
		t.Fatalf("OnRemove saw %v, want %v", seen, want)
	}
}

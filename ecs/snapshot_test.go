package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type snapPos struct{ X, Y float64 }
type snapVel struct{ X, Y float64 }
type snapName struct{ S string }
type snapHeat struct{ V int32 } // sparse in snapWorld
type snapTag struct{}

// snapBag holds a slice and copies it deeply: a Cloner.
type snapBag struct{ Items []int }

func (b snapBag) Clone() snapBag { return snapBag{Items: slices.Clone(b.Items)} }

// snapRefs holds a slice and no Clone method: refused unless shallow.
type snapRefs struct{ P []int }

type snapRNG struct{ State uint64 }
type snapScore struct{ Points int }

// snapWorld is a world with table, sparse, string-holding, Cloner and tag
// types, and two resources.
type snapWorld struct {
	w    *ecs.World
	pos  *ecs.Map[snapPos]
	vel  *ecs.Map[snapVel]
	name *ecs.Map[snapName]
	heat *ecs.Map[snapHeat]
	bag  *ecs.Map[snapBag]
	tag  *ecs.Map[snapTag]
	rng  *snapRNG
}

func newSnapWorld() *snapWorld {
	w := ecs.NewWorld()
	ecs.Register[snapHeat](w, ecs.Sparse())
	s := &snapWorld{w: w, pos: ecs.NewMap[snapPos](w), vel: ecs.NewMap[snapVel](w), name: ecs.NewMap[snapName](w),
		heat: ecs.NewMap[snapHeat](w), bag: ecs.NewMap[snapBag](w), tag: ecs.NewMap[snapTag](w), rng: &snapRNG{State: 1}}
	ecs.AddResource(w, s.rng)
	ecs.AddResource(w, &snapScore{})
	return s
}

// step makes one random change, drawn from r, to a living entity or the
// world: the awkward same-entity sequences (remove then add, despawn then
// spawn into the freed index) come up often with few entities.
func (s *snapWorld) step(r *rand.Rand, live *[]ecs.Entity) {
	pick := func() ecs.Entity { return (*live)[r.IntN(len(*live))] }
	op := r.IntN(12)
	if len(*live) == 0 {
		op = 0
	}
	switch op {
	case 0:
		*live = append(*live, s.pos.Spawn(snapPos{X: float64(r.IntN(100))}))
	case 1:
		i := r.IntN(len(*live))
		s.w.Despawn((*live)[i])
		*live = slices.Delete(*live, i, i+1)
	case 2:
		s.vel.Set(pick(), snapVel{Y: float64(r.IntN(100))})
	case 3:
		s.vel.Remove(pick())
	case 4:
		s.heat.Set(pick(), snapHeat{V: int32(r.IntN(100))})
	case 5:
		s.heat.Remove(pick())
	case 6:
		s.name.Set(pick(), snapName{S: fmt.Sprint("n", r.IntN(100))})
	case 7:
		s.bag.Set(pick(), snapBag{Items: []int{r.IntN(10), r.IntN(10)}})
	case 8:
		if b, ok := s.bag.TryGet(pick()); ok && len(b.Items) > 0 {
			b.Items[0]++ // mutates the world's slice in place
		}
	case 9:
		e := pick()
		if s.tag.Has(e) {
			s.tag.Remove(e)
		} else {
			s.tag.Add(e, snapTag{})
		}
	case 10:
		if p, ok := s.pos.TryGet(pick()); ok {
			p.X += 1
		}
	case 11:
		s.rng.State = s.rng.State*6364136223846793005 + 1442695040888963407
		ecs.GetResource[snapScore](s.w).Points++
	}
}

// dump describes every observable part of the world: the entities of each
// query in iteration order with their values, Len, the resources.
func (s *snapWorld) dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "len %d rng %d score %d\n", s.w.Len(), s.rng.State, ecs.GetResource[snapScore](s.w).Points)
	for r := range ecs.NewQuery1[snapPos](s.w).All() {
		fmt.Fprintf(&b, "%v pos %v", r.Entity, *r.A)
		if v, ok := s.vel.TryGet(r.Entity); ok {
			fmt.Fprintf(&b, " vel %v", *v)
		}
		if v, ok := s.heat.TryGet(r.Entity); ok {
			fmt.Fprintf(&b, " heat %v", *v)
		}
		if v, ok := s.name.TryGet(r.Entity); ok {
			fmt.Fprintf(&b, " name %q", v.S)
		}
		if v, ok := s.bag.TryGet(r.Entity); ok {
			fmt.Fprintf(&b, " bag %v", v.Items)
		}
		fmt.Fprintf(&b, " tag %v\n", s.tag.Has(r.Entity))
	}
	for r := range ecs.NewQuery1[snapHeat](s.w).All() {
		fmt.Fprintf(&b, "sparse %v %v\n", r.Entity, *r.A)
	}
	return b.String()
}

// TestSnapshotRollbackReplays is the rollback property: snapshot at a random
// step, run a random sequence, restore, run the same sequence again; both
// runs must hand out the same entities and end in the same state, and the
// restore itself must give back the state at the snapshot exactly.
func TestSnapshotRollbackReplays(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 1))
		s := newSnapWorld()
		var live []ecs.Entity
		for range r.IntN(80) {
			s.step(r, &live)
		}
		var snap ecs.Snapshot
		s.w.Snapshot(&snap)
		before, sum := s.dump(), s.w.Checksum()
		liveAt := slices.Clone(live)

		after := make([]string, 2)
		var sums [2]uint64
		for round := range 2 {
			live = slices.Clone(liveAt)
			rr := rand.New(rand.NewPCG(seed, 2))
			for range 1 + rr.IntN(80) {
				s.step(rr, &live)
			}
			after[round], sums[round] = s.dump()+fmt.Sprint(live), s.w.Checksum()
			s.w.Restore(&snap)
			if got := s.dump(); got != before {
				t.Fatalf("seed %d round %d: restored state differs\nbefore:\n%s\nafter restore:\n%s", seed, round, before, got)
			}
			if got := s.w.Checksum(); got != sum {
				t.Fatalf("seed %d round %d: checksum %x after restore, %x at the snapshot", seed, round, got, sum)
			}
		}
		if after[0] != after[1] || sums[0] != sums[1] {
			t.Fatalf("seed %d: the replay after a restore diverged\nfirst:\n%s\nreplay:\n%s", seed, after[0], after[1])
		}
	}
}

func TestSnapshotNextSpawnAndStats(t *testing.T) {
	s := newSnapWorld()
	es := make([]ecs.Entity, 10)
	for i := range es {
		es[i] = s.pos.Spawn(snapPos{X: float64(i)})
	}
	s.w.Despawn(es[3])
	s.w.Despawn(es[7])
	var snap ecs.Snapshot
	s.w.Snapshot(&snap)
	stats := s.w.Stats()
	next := []ecs.Entity{s.w.Spawn(), s.w.Spawn(), s.w.Spawn()}
	for range 50 {
		s.vel.Spawn(snapVel{}) // a table made after the snapshot
	}
	s.w.Restore(&snap)
	for i, want := range next {
		if got := s.w.Spawn(); got != want {
			t.Fatalf("spawn %d after restore: %v, before it %v", i, got, want)
		}
	}
	s.w.Restore(&snap)
	if s.w.Alive(es[3]) || !s.w.Alive(es[4]) || s.w.Alive(next[2]) {
		t.Fatalf("Alive after restore: es[3] %v es[4] %v next[2] %v", s.w.Alive(es[3]), s.w.Alive(es[4]), s.w.Alive(next[2]))
	}
	got := s.w.Stats()
	if got.Entities != stats.Entities || got.EntityIndex.Free != stats.EntityIndex.Free {
		t.Fatalf("Stats after restore: %d entities, %d free; at the snapshot %d, %d", got.Entities, got.EntityIndex.Free, stats.Entities, stats.EntityIndex.Free)
	}
	for i, ts := range stats.Tables {
		if got.Tables[i].Rows != ts.Rows {
			t.Fatalf("table %d has %d rows after restore, %d at the snapshot", i, got.Tables[i].Rows, ts.Rows)
		}
	}
	for _, ts := range got.Tables[len(stats.Tables):] {
		if ts.Rows != 0 {
			t.Fatalf("a table made after the snapshot keeps %d rows", ts.Rows)
		}
	}
}

func TestSnapshotClonesAndResources(t *testing.T) {
	s := newSnapWorld()
	e := s.pos.Spawn(snapPos{})
	s.bag.Add(e, snapBag{Items: []int{1, 2}})
	s.name.Add(e, snapName{S: "kept"})
	var snap ecs.Snapshot
	s.w.Snapshot(&snap)
	s.bag.Get(e).Items[0] = 99 // in place: the snapshot holds a clone
	s.name.Get(e).S = "changed"
	s.rng.State = 42
	ecs.RemoveResource[snapScore](s.w)
	ecs.AddResource(s.w, &snapTag{}) // a resource type new since the snapshot
	for round := range 2 {
		s.w.Restore(&snap)
		if got := s.bag.Get(e).Items; !slices.Equal(got, []int{1, 2}) {
			t.Fatalf("round %d: bag after restore %v, want [1 2]", round, got)
		}
		if got := s.name.Get(e).S; got != "kept" {
			t.Fatalf("round %d: name after restore %q", round, got)
		}
		s.bag.Get(e).Items[1] = 77 // the restored value is the world's own
		if ecs.GetResource[snapRNG](s.w) != s.rng || s.rng.State != 1 {
			t.Fatalf("round %d: rng resource %p %v, want the same pointer %p with state 1", round, ecs.GetResource[snapRNG](s.w), s.rng.State, s.rng)
		}
		if !ecs.HasResource[snapScore](s.w) || ecs.HasResource[snapTag](s.w) {
			t.Fatalf("round %d: resources after restore: score %v (want true), tag %v (want false)", round, ecs.HasResource[snapScore](s.w), ecs.HasResource[snapTag](s.w))
		}
	}
}

// TestSnapshotObserversAndHooks: a restore fires nothing, and leaves the
// observed queries' membership as it was at the snapshot, so the next
// change fires what it would have fired then.
func TestSnapshotObserversAndHooks(t *testing.T) {
	s := newSnapWorld()
	var events []string
	tagged := ecs.NewQuery1[snapPos](s.w, ecs.With(ecs.C[snapTag]()))
	tagged.OnEnter(func(e ecs.Entity) { events = append(events, fmt.Sprint("enter ", e)) })
	tagged.OnLeave(func(e ecs.Entity) { events = append(events, fmt.Sprint("leave ", e)) })
	hot := ecs.NewQuery1[snapPos](s.w, ecs.With(ecs.C[snapHeat]()))
	hot.OnEnter(func(e ecs.Entity) { events = append(events, fmt.Sprint("hot ", e)) })
	ecs.OnAdd(s.w, func(e ecs.Entity, v *snapTag) { events = append(events, fmt.Sprint("add ", e)) })
	ecs.OnRemove(s.w, func(e ecs.Entity, v *snapTag) { events = append(events, fmt.Sprint("remove ", e)) })
	a, b := s.pos.Spawn(snapPos{}), s.pos.Spawn(snapPos{})
	s.tag.Add(b, snapTag{})
	var snap ecs.Snapshot
	s.w.Snapshot(&snap)
	s.tag.Add(a, snapTag{})
	s.tag.Remove(b)
	s.heat.Add(a, snapHeat{})
	events = events[:0]
	s.w.Restore(&snap)
	if len(events) != 0 {
		t.Fatalf("Restore fired %v", events)
	}
	s.tag.Add(a, snapTag{}) // a was outside the query at the snapshot: enters again
	s.tag.Remove(b)         // b was inside: leaves again
	s.heat.Add(a, snapHeat{})
	want := []string{"add " + a.String(), "enter " + a.String(), "remove " + b.String(), "leave " + b.String(), "hot " + a.String()}
	if !slices.Equal(events, want) {
		t.Fatalf("after restore the changes fired %v, want %v", events, want)
	}
}

// TestSnapshotWarmAllocatesNothing: a rollback loop saving into the same
// snapshot every tick allocates nothing once the snapshot has grown.
func TestSnapshotWarmAllocatesNothing(t *testing.T) {
	s := newSnapWorld()
	r := rand.New(rand.NewPCG(3, 4))
	var live []ecs.Entity
	for range 400 {
		s.step(r, &live)
	}
	var snap ecs.Snapshot
	s.w.Snapshot(&snap)
	s.w.Restore(&snap)
	allocs := testing.AllocsPerRun(20, func() {
		s.w.Snapshot(&snap)
		s.w.Restore(&snap)
	})
	// The Cloner type allocates its own slices: one per bag value, twice.
	bags := ecs.NewQuery1[snapBag](s.w).Count()
	if want := float64(2 * bags); allocs != want {
		t.Fatalf("a warm Snapshot and Restore made %v allocations, want %v (the Clone calls of %d bags)", allocs, want, bags)
	}
}

func TestSnapshotPanics(t *testing.T) {
	mustPanic := func(name, want string, f func()) {
		t.Helper()
		t.Run(name, func(t *testing.T) { testhelp.MustPanic(t, f, want) })
	}
	s := newSnapWorld()
	s.pos.Spawn(snapPos{})
	var snap ecs.Snapshot
	mustPanic("empty", "snapshot is empty", func() { s.w.Restore(&snap) })
	s.w.Snapshot(&snap)
	other := newSnapWorld()
	mustPanic("other world", "another world", func() { other.w.Restore(&snap) })
	q := ecs.NewQuery1[snapPos](s.w)
	mustPanic("in a loop", "inside an iteration", func() {
		for range q.All() {
			s.w.Snapshot(&snap)
		}
	})
	s.w.Recover()
	mustPanic("restore in a loop", "inside an iteration", func() {
		for range q.All() {
			s.w.Restore(&snap)
		}
	})
	s.w.Recover()
	ecs.OnAdd(s.w, func(e ecs.Entity, v *snapTag) { s.w.Restore(&snap) })
	mustPanic("in a hook", "inside a hook", func() { s.tag.Add(s.pos.Spawn(snapPos{}), snapTag{}) })
	s.w.Recover()
	s.w.Parallel().Begin()
	mustPanic("parallel", "parallel section", func() { s.w.Snapshot(&snap) })
	s.w.Parallel().End()
	s.w.Snapshot(&snap) // usable again

	refs := ecs.NewMap[snapRefs](s.w)
	if err := s.w.CanSnapshot(); err == nil {
		t.Fatal("CanSnapshot accepts a stored type with a slice and no Clone")
	}
	mustPanic("refused component", "snapRefs", func() { s.w.Snapshot(&snap) })
	mustPanic("refused component, way out", "ecs.Shallow[ecs_test.snapRefs](w)", func() { s.w.Snapshot(&snap) })
	_ = refs

	w := ecs.NewWorld()
	ecs.Shallow[snapRefs](w)
	ecs.NewMap[snapRefs](w).Spawn(snapRefs{P: []int{1}})
	ecs.AddResource(w, &map[string]int{"a": 1})
	mustPanic("refused resource", "ecs.Shallow[map[string]int](w)", func() { w.Snapshot(&snap) })
	ecs.Shallow[map[string]int](w)
	if err := w.CanSnapshot(); err != nil {
		t.Fatalf("CanSnapshot after Shallow of the component and the resource type: %v", err)
	}
	w.Snapshot(&snap)
}

package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Types of the rollback replay test: two tracked types, one in each
// storage (which one is sparse is the test's choice), and what the passes
// write from what they saw.
type (
	replayHP    struct{ V int }
	replayBuff  struct{ V int }
	replayScore struct{ Seen, Sum int } // on every entity; untracked
	replayTally struct{ Passes, Seen int }
)

// replaySim is a world whose every tick first runs change-filtered passes
// that write what they saw (into replayScore, the replayTally resource
// and, through Set and MarksChanged, into the tracked types themselves),
// then makes changes drawn from a generator seeded with the tick: sets,
// marks, removes and re-adds of both tracked types, spawns and despawns.
type replaySim struct {
	w      *ecs.World
	hp     *ecs.Map[replayHP]
	buff   *ecs.Map[replayBuff]
	score  *ecs.Map[replayScore]
	tally  *replayTally
	all    *ecs.Query1[replayScore]
	passes []replayPass
	late   *ecs.Query1[replayHP] // made at tick lateTick
	now    uint64                // the tick running
}

// replayPass is one change-filtered query and what it does with a row.
type replayPass struct {
	name string
	run  func(s *replaySim) []ecs.Entity
}

// lateTick is when the sim makes its last query: a rollback to before it
// must leave the query as one that has not run.
const lateTick = 20

func newReplaySim(hpSparse bool) *replaySim {
	w := ecs.NewWorld()
	hpOpts, buffOpts := []ecs.ComponentOption{ecs.TrackChanges()}, []ecs.ComponentOption{ecs.TrackChanges(), ecs.Sparse()}
	if hpSparse {
		hpOpts, buffOpts = buffOpts, hpOpts
	}
	ecs.Register[replayHP](w, hpOpts...)
	ecs.Register[replayBuff](w, buffOpts...)
	s := &replaySim{w: w, hp: ecs.NewMap[replayHP](w), buff: ecs.NewMap[replayBuff](w), score: ecs.NewMap[replayScore](w),
		tally: &replayTally{}, all: ecs.NewQuery1[replayScore](w)}
	ecs.AddResource(w, s.tally)
	hpChanged := ecs.NewQuery2[replayHP, replayScore](w, ecs.Changed[replayHP]())
	hpAdded := ecs.NewQuery1[replayHP](w, ecs.Added[replayHP]())
	buffChanged := ecs.NewQuery2[replayBuff, replayScore](w, ecs.Changed[replayBuff]())
	buffAdded := ecs.NewQuery1[replayBuff](w, ecs.Added[replayBuff]())
	// Entities with an HP whose Buff changed: the pass marks their HP
	// changed, which the HP passes see next tick.
	buffMarksHP := ecs.NewQuery1[replayHP](w, ecs.Changed[replayBuff](), ecs.MarksChanged[replayHP]())
	both := ecs.NewQuery2[replayHP, replayBuff](w, ecs.Changed[replayHP](), ecs.Added[replayBuff]())
	s.passes = []replayPass{
		{"Changed[HP]", func(s *replaySim) (seen []ecs.Entity) {
			for r := range hpChanged.All() {
				seen = append(seen, r.Entity)
				r.B.Seen++
				r.B.Sum += r.A.V
			}
			return seen
		}},
		{"Added[HP]", func(s *replaySim) (seen []ecs.Entity) {
			for r := range hpAdded.All() {
				seen = append(seen, r.Entity)
				if r.A.V%3 == 0 {
					s.hp.Set(r.Entity, replayHP{r.A.V + 1}) // seen by Changed[HP] next tick
				}
			}
			return seen
		}},
		{"Changed[Buff] (chunks)", func(s *replaySim) (seen []ecs.Entity) {
			for c := range buffChanged.Chunks() {
				seen = append(seen, c.Entities...)
				for i := range c.A {
					c.B[i].Sum += 10 * c.A[i].V
				}
			}
			return seen
		}},
		{"Added[Buff]", func(s *replaySim) (seen []ecs.Entity) {
			for r := range buffAdded.All() {
				seen = append(seen, r.Entity)
			}
			return seen
		}},
		{"Changed[Buff] marks HP", func(s *replaySim) (seen []ecs.Entity) {
			for r := range buffMarksHP.All() {
				seen = append(seen, r.Entity)
				r.A.V++
			}
			return seen
		}},
		{"Changed[HP] and Added[Buff]", func(s *replaySim) (seen []ecs.Entity) {
			for r := range both.All() {
				seen = append(seen, r.Entity)
			}
			return seen
		}},
		{"late Changed[HP] (chunks of 3)", func(s *replaySim) (seen []ecs.Entity) {
			if s.now < lateTick { // a program uses the query from the tick it made it on
				return nil
			}
			for _, c := range s.late.AppendChunks(nil, 3) {
				seen = append(seen, c.Entities...)
			}
			return seen
		}},
	}
	for i := range 24 {
		e := s.score.Spawn(replayScore{})
		if i%4 != 3 {
			s.hp.Add(e, replayHP{i})
		}
		if i%3 == 0 {
			s.buff.Add(e, replayBuff{i})
		}
	}
	return s
}

// tick runs tick t: the passes, then the changes. It returns what each
// pass saw, in its iteration order.
func (s *replaySim) tick(t uint64) string {
	s.now = t
	if t == lateTick && s.late == nil {
		s.late = ecs.NewQuery1[replayHP](s.w, ecs.Changed[replayHP]())
	}
	log := fmt.Sprintf("tick %d\n", t)
	for _, p := range s.passes {
		seen := p.run(s)
		s.tally.Passes++
		s.tally.Seen += len(seen)
		log += fmt.Sprintf("  %s: %v\n", p.name, seen)
	}
	var live []ecs.Entity
	for r := range s.all.All() {
		live = append(live, r.Entity)
	}
	r := rand.New(rand.NewPCG(t, 99))
	for range 2 + r.IntN(6) {
		e := live[r.IntN(len(live))]
		if !s.w.Alive(e) {
			continue
		}
		switch r.IntN(10) {
		case 0, 1:
			s.hp.Set(e, replayHP{r.IntN(100)}) // an add when e has none
		case 2:
			if s.hp.Has(e) {
				s.hp.MarkChanged(e)
			}
		case 3:
			if s.hp.Has(e) {
				s.hp.Remove(e)
				if r.IntN(2) == 0 {
					s.hp.Add(e, replayHP{r.IntN(100)}) // removed and added in one tick
				}
			}
		case 4:
			s.buff.Set(e, replayBuff{r.IntN(100)})
		case 5:
			if s.buff.Has(e) {
				s.buff.Remove(e)
			} else {
				s.buff.Add(e, replayBuff{r.IntN(100)})
			}
		case 6:
			if s.buff.Has(e) {
				s.buff.MarkChanged(e)
			}
		case 7:
			n := s.score.Spawn(replayScore{})
			s.hp.Add(n, replayHP{r.IntN(100)})
			if r.IntN(2) == 0 {
				s.buff.Add(n, replayBuff{r.IntN(100)})
			}
		case 8:
			if len(live) > 8 {
				s.w.Despawn(e)
			}
		case 9:
			if p, ok := s.hp.TryGet(e); ok {
				p.V += 7 // through a pointer, unmarked: no change
			}
		}
	}
	return log
}

// TestRollbackReplaysChangeFilters: after a SnapshotRing rollback of k
// ticks, simulating the same ticks again gives, tick by tick, the same
// checksum and the same entities, in the same order, to every Added and
// Changed pass as the first run, with the tracked types in tables and in
// sparse sets, and a query made after the tick rolled back to.
func TestRollbackReplaysChangeFilters(t *testing.T) {
	const ticks = 60
	for _, hpSparse := range []bool{false, true} {
		t.Run(fmt.Sprintf("HP sparse %v", hpSparse), func(t *testing.T) {
			// The first run, straight.
			first := newReplaySim(hpSparse)
			logs, sums := make([]string, ticks+1), make([]uint64, ticks+1)
			for tick := uint64(1); tick <= ticks; tick++ {
				logs[tick] = first.tick(tick)
				sums[tick] = first.w.Checksum()
			}
			if first.tally.Seen == 0 {
				t.Fatal("the passes saw nothing: the test tests nothing")
			}
			// Rolled back after every tick, by k cycling through 1..8.
			s := newReplaySim(hpSparse)
			ring := ecs.NewSnapshotRing(9)
			ring.Save(s.w, 0)
			replayed := 0
			for tick := uint64(1); tick <= ticks; tick++ {
				if got := s.tick(tick); got != logs[tick] {
					t.Fatalf("tick %d, the first time round in this run, differs from the straight run:\n%s\nwant\n%s", tick, got, logs[tick])
				}
				ring.Save(s.w, tick)
				k := 1 + tick%8
				if tick < k {
					continue
				}
				back := tick - k
				if err := ring.Rollback(s.w, back); err != nil {
					t.Fatal(err)
				}
				if back > 0 && s.w.Checksum() != sums[back] {
					t.Fatalf("after the rollback to tick %d: checksum %x, at that tick %x", back, s.w.Checksum(), sums[back])
				}
				for again := back + 1; again <= tick; again++ {
					if got := s.tick(again); got != logs[again] {
						t.Fatalf("tick %d simulated again after a rollback from %d to %d: the passes saw\n%s\nthe first time\n%s", again, tick, back, got, logs[again])
					}
					if got := s.w.Checksum(); got != sums[again] {
						t.Fatalf("tick %d simulated again after a rollback from %d to %d: checksum %x, the first time %x", again, tick, back, got, sums[again])
					}
					ring.Save(s.w, again)
					replayed++
				}
			}
			if replayed < ticks {
				t.Fatalf("%d ticks simulated again", replayed)
			}
		})
	}
}

// TestRestoreRewindsChangeFilters pins the rules one by one: after a
// restore a pass sees what it saw after the snapshot, a restore is no
// change, and a query made since the snapshot sees every value.
func TestRestoreRewindsChangeFilters(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		w := ecs.NewWorld()
		opts := []ecs.ComponentOption{ecs.TrackChanges()}
		if sparse {
			opts = append(opts, ecs.Sparse())
		}
		ecs.Register[replayHP](w, opts...)
		m := ecs.NewMap[replayHP](w)
		a, b, c := m.Spawn(replayHP{1}), m.Spawn(replayHP{2}), m.Spawn(replayHP{3})
		changed := ecs.NewQuery1[replayHP](w, ecs.Changed[replayHP]())
		added := ecs.NewQuery1[replayHP](w, ecs.Added[replayHP]())
		wantEntities(t, "first Changed", passAll(changed), a, b, c)
		m.Set(b, replayHP{20})
		var snap ecs.Snapshot
		w.Snapshot(&snap) // b's change not yet seen by changed; added has seen nothing
		atSnap := ecs.ChangeTick(w)
		wantEntities(t, "Changed before the restore", passAll(changed), b)
		m.Set(c, replayHP{30})
		m.Remove(a)
		m.Add(a, replayHP{10})
		late := ecs.NewQuery1[replayHP](w, ecs.Changed[replayHP]())
		wantEntities(t, "late Changed", passAll(late), a, b, c)
		w.Restore(&snap)
		if got := ecs.ChangeTick(w); got != atSnap {
			t.Fatalf("sparse %v: the clock is at %d after the restore, %d at the snapshot", sparse, got, atSnap)
		}
		wantEntities(t, fmt.Sprintf("sparse %v: Changed after the restore", sparse), passAll(changed), b)
		wantEntities(t, fmt.Sprintf("sparse %v: Added after the restore", sparse), passAll(added), a, b, c)
		wantEntities(t, fmt.Sprintf("sparse %v: a query made since the snapshot", sparse), passAll(late), a, b, c)
		wantEntities(t, fmt.Sprintf("sparse %v: Changed again", sparse), passAll(changed))
		if err := ecs.CheckChangeTicks(w); err != nil {
			t.Fatal(err)
		}
		// A second restore in a row changes nothing more.
		w.Restore(&snap)
		w.Restore(&snap)
		m.Set(c, replayHP{31})
		wantEntities(t, "Changed after two restores and a Set", passAll(changed), b, c)
		wantEntities(t, "Added after two restores", passAll(added), a, b, c)
	}
}

// TestRestoreForgetsTablesMadeSince: a table made after the snapshot is
// empty after the restore, and rows it gets later are seen, though its
// column's newest tick was once ahead of the restored clock.
func TestRestoreForgetsTablesMadeSince(t *testing.T) {
	w := newTrackedWorld()
	m := ecs.NewMap[Tracked](w)
	tag := ecs.NewMap[replayScore](w)
	m.Spawn(Tracked{1})
	q := ecs.NewQuery1[Tracked](w, ecs.Changed[Tracked]())
	passAll(q)
	var snap ecs.Snapshot
	w.Snapshot(&snap)
	// Advance the clock well past the snapshot's, in a table made now.
	e := m.Spawn(Tracked{2})
	tag.Add(e, replayScore{})
	for range 50 {
		m.Set(e, Tracked{3})
		passAll(q)
	}
	w.Restore(&snap)
	// Rows move into the newer table through a carry of older ticks, and
	// through an add: every later pass must see them.
	f := m.Spawn(Tracked{4})
	wantEntities(t, "Changed after a spawn", passAll(q), f)
	tag.Add(f, replayScore{})
	m.Set(f, Tracked{5})
	wantEntities(t, "Changed after a move into the table made since", passAll(q), f)
	if err := ecs.CheckChangeTicks(w); err != nil {
		t.Fatal(err)
	}
	wantEntities(t, "a pass with no change since the last", passAll(q))
}

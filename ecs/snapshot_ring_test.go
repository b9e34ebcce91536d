package ecs_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// tickOf runs tick t of a simulation whose every choice comes from a
// generator seeded with t, so the same tick replays the same way.
func (s *snapWorld) tickOf(t uint64, live *[]ecs.Entity) {
	r := rand.New(rand.NewPCG(t, 7))
	for range 1 + r.IntN(12) {
		s.step(r, live)
	}
}

// TestSnapshotRingWorstCase is GGPO's worst case: after every tick, roll
// back k ticks and simulate them again. The world must end as the straight
// run does, whatever k.
func TestSnapshotRingWorstCase(t *testing.T) {
	const ticks = 120
	straight := newSnapWorld()
	var live []ecs.Entity
	for tick := uint64(1); tick <= ticks; tick++ {
		straight.tickOf(tick, &live)
	}
	want, wantDump := straight.w.Checksum(), straight.dump()
	for _, k := range []int{1, 3, 8} {
		s := newSnapWorld()
		ring := ecs.NewSnapshotRing(k + 1)
		var live []ecs.Entity
		lives := map[uint64][]ecs.Entity{0: nil} // the harness's own list, per tick
		ring.Save(s.w, 0)
		for tick := uint64(1); tick <= ticks; tick++ {
			s.tickOf(tick, &live)
			ring.Save(s.w, tick)
			lives[tick] = append([]ecs.Entity(nil), live...)
			if tick < uint64(k) {
				continue
			}
			back := tick - uint64(k)
			if err := ring.Rollback(s.w, back); err != nil {
				t.Fatalf("k=%d tick %d: %v", k, tick, err)
			}
			live = append(live[:0], lives[back]...)
			for again := back + 1; again <= tick; again++ {
				s.tickOf(again, &live)
				ring.Save(s.w, again)
			}
		}
		if got := s.w.Checksum(); got != want || s.dump() != wantDump {
			t.Fatalf("k=%d: rolling back after every tick ended in checksum %x, the straight run in %x\n%s\nwant\n%s", k, got, want, s.dump(), wantDump)
		}
	}
}

func TestSnapshotRingHolds(t *testing.T) {
	s := newSnapWorld()
	ring := ecs.NewSnapshotRing(4)
	if _, ok := ring.Newest(); ok || ring.Rollback(s.w, 0) == nil {
		t.Fatal("an empty ring claims a tick")
	}
	for tick := uint64(0); tick <= 10; tick++ {
		s.pos.Spawn(snapPos{X: float64(tick)})
		ring.Save(s.w, tick)
	}
	oldest, _ := ring.Oldest()
	newest, _ := ring.Newest()
	if oldest != 7 || newest != 10 || ring.Len() != 4 || ring.Depth() != 4 {
		t.Fatalf("ring of depth 4 after ticks 0..10 holds %d..%d (%d of %d)", oldest, newest, ring.Len(), ring.Depth())
	}
	err := ring.Rollback(s.w, 6)
	if err == nil || !strings.Contains(err.Error(), "holds ticks 7 to 10") {
		t.Fatalf("rollback to a tick too old: %v", err)
	}
	if s.w.Len() != 11 {
		t.Fatalf("a refused rollback changed the world: %d entities", s.w.Len())
	}
	if err := ring.Rollback(s.w, 8); err != nil {
		t.Fatal(err)
	}
	if s.w.Len() != 9 {
		t.Fatalf("after rolling back to tick 8 the world has %d entities, want 9", s.w.Len())
	}
	if newest, _ := ring.Newest(); newest != 8 || ring.Len() != 2 {
		t.Fatalf("after rolling back to 8 the newest tick is %d, %d held", newest, ring.Len())
	}
	testhelp.MustPanic(t, func() { ring.Save(s.w, 8) }, "tick 8 is not after the newest tick held, 8")
	ring.Save(s.w, 9)
	testhelp.MustPanic(t, func() { ecs.NewSnapshotRing(0) }, "depth 0")
}

// panicky's Clone panics on demand, to break a save halfway.
type panicky struct{ L []int }

var clonePanics bool

func (p panicky) Clone() panicky {
	if clonePanics {
		panic("clone failed")
	}
	return panicky{append([]int(nil), p.L...)}
}

// TestSnapshotRingFailedSave: a save that panics halfway drops the tick
// whose slot it was overwriting, instead of keeping it half written.
func TestSnapshotRingFailedSave(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[panicky](w)
	ring := ecs.NewSnapshotRing(2)
	m.Spawn(panicky{L: []int{1}})
	ring.Save(w, 1)
	m.Spawn(panicky{L: []int{2}})
	ring.Save(w, 2)
	clonePanics = true
	testhelp.MustPanic(t, func() { ring.Save(w, 3) }, "clone failed")
	clonePanics = false
	if oldest, _ := ring.Oldest(); oldest != 2 || ring.Len() != 1 {
		t.Fatalf("after a failed save the ring holds %d ticks from %d; want tick 2 alone", ring.Len(), oldest)
	}
	if err := ring.Rollback(w, 1); err == nil {
		t.Fatal("the ring still offers the tick whose slot the failed save overwrote")
	}
	if err := ring.Rollback(w, 2); err != nil || w.Len() != 2 {
		t.Fatalf("rollback to tick 2: %v, %d entities", err, w.Len())
	}
}

type ringPos struct{ X float64 }

func TestSnapshotRingAtAndTicks(t *testing.T) {
	w := ecs.NewWorld()
	pos := ecs.NewMap[ringPos](w)
	e := w.Spawn()
	ring := ecs.NewSnapshotRing(3)
	for tick := uint64(1); tick <= 5; tick++ {
		pos.Set(e, ringPos{X: float64(tick)})
		ring.Save(w, tick*10)
	}
	if got := ring.Ticks(nil); !slices.Equal(got, []uint64{30, 40, 50}) {
		t.Fatalf("Ticks = %v, want [30 40 50]", got)
	}
	if ring.At(20) != nil || ring.At(45) != nil {
		t.Fatalf("At returns a snapshot of a tick the ring does not hold")
	}
	s := ring.At(40)
	if s == nil {
		t.Fatalf("At(40) = nil")
	}
	r := ecs.Diff(s, w, 10)
	if r.Total != 1 || r.Differences[0].A != "4" || r.Differences[0].B != "5" {
		t.Fatalf("tick 40 against the world:\n%v", &r)
	}
	if err := ring.Rollback(w, 30); err != nil {
		t.Fatal(err)
	}
	if ring.At(40) != nil || len(ring.Ticks(nil)) != 1 {
		t.Fatalf("after a rollback to 30 the ring still holds %v", ring.Ticks(nil))
	}
}

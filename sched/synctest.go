package sched

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// SyncTest checks, every tick, that a simulation gives the same world when
// it runs a tick again: after each tick it rolls the world back k ticks,
// runs them again and compares each re-run tick's per-part checksums
// ([ecs.World.Checksums]) with the first run's. Rollback netcode relies on
// exactly that, and a game that breaks it (state kept outside the world, a
// map range, an unseeded random call, time read from the clock, a float
// that depends on the order of a parallel sum) desyncs only when a rollback
// happens, far from the cause. A sync test finds it on one machine, on the
// first tick it matters, and names the tick, the parts, the systems
// declared to write them and the first differing entities and fields. (The
// sync-test session of GGRS, SyncTestSession, which rolls back and
// compares checksums every frame; Tessera's names the field, too.)
//
// Drive it from the loop instead of the step itself:
//
//	st := sched.NewSyncTest(s, 2)
//	for range ticks {
//		if err := st.Step(loop.Step); err != nil {
//			log.Fatal(err) // a *SyncError
//		}
//	}
//
// A sync test runs k+1 ticks per tick, takes a snapshot and the checksums
// of every tick run, and keeps k+1 snapshots: it is a test mode, not a way
// to play. The world's types must be ones snapshots accept
// ([ecs.World.CanSnapshot]). Scheduler.Ticks counts the re-run ticks too.
// Not safe for concurrent use.
type SyncTest struct {
	s     *Scheduler
	k     int
	ring  *ecs.SnapshotRing
	sums  [][]ecs.PartChecksum // per tick, at tick % (k+1): the first run's
	again []ecs.PartChecksum   // the re-run tick's, reused
	tick  uint64               // ticks run (first runs)
	limit int
}

// MaxSyncTestBack is the most ticks a [SyncTest] rolls back: it keeps a
// snapshot of the world per tick it can go back to.
const MaxSyncTestBack = 1 << 12

// NewSyncTest returns a sync test of s's world that rolls back k ticks
// after every tick. Panics if k is not between 1 and MaxSyncTestBack.
func NewSyncTest(s *Scheduler, k int) *SyncTest {
	if k < 1 || k > MaxSyncTestBack {
		panic(fmt.Sprintf("sched: NewSyncTest: %d ticks back; want 1 to %d", k, MaxSyncTestBack))
	}
	return &SyncTest{s: s, k: k, ring: ecs.NewSnapshotRing(k + 1),
		sums: make([][]ecs.PartChecksum, k+1), limit: 10}
}

// Ticks returns the number of ticks the test has run, re-runs not counted.
func (t *SyncTest) Ticks() uint64 { return t.tick }

// Step runs one tick by calling step (the loop's step, which runs the
// scheduler: FixedLoop.Step, or a function that calls Scheduler.Run), then,
// once k ticks lie behind it, rolls the world back k ticks and calls step k
// times again, comparing each re-run tick with its first run. It returns
// nil when every re-run tick agreed, and a *[SyncError] at the first that
// did not, leaving the world in the re-run state that differed. Panics as
// step does, and as [ecs.World.Snapshot] does for types snapshots refuse.
// Complexity: k+1 ticks, k+1 snapshots and checksums, one restore.
func (t *SyncTest) Step(step func()) error {
	w := t.s.w
	if t.tick == 0 && t.ring.Len() == 0 {
		t.ring.Save(w, 0) // the state before the first tick
		t.sums[0] = w.Checksums(t.sums[0][:0])
	}
	step()
	t.tick++
	n := t.tick
	slot := int(n % uint64(t.k+1))
	t.ring.Save(w, n)
	t.sums[slot] = w.Checksums(t.sums[slot][:0])
	if n < uint64(t.k) {
		return nil
	}
	from := n - uint64(t.k)
	w.Restore(t.ring.At(from))
	for j := from + 1; j <= n; j++ {
		step()
		t.again = w.Checksums(t.again[:0])
		first := t.sums[j%uint64(t.k+1)]
		if parts := ecs.DiffChecksums(first, t.again); len(parts) > 0 {
			return t.mismatch(j, parts)
		}
	}
	return nil
}

// mismatch builds the error for re-run tick j, whose parts differ.
func (t *SyncTest) mismatch(j uint64, parts []ecs.PartChecksum) *SyncError {
	e := &SyncError{Tick: j, Back: t.k, Parts: parts, Writers: map[string][]string{}}
	names := t.s.partNames()
	for _, p := range parts {
		e.Writers[p.Name] = t.s.writersOf(p, names)
	}
	e.Report = ecs.Diff(t.ring.At(j), t.s.w, t.limit)
	return e
}

// SyncError is what a [SyncTest] reports when a tick run again differs from
// its first run.
type SyncError struct {
	// Tick is the tick (counting the sync test's Steps from 1) whose
	// re-run differed; Back is how many ticks the test had rolled back.
	Tick uint64
	Back int
	// Parts are the parts whose checksums differ, with the first run's
	// sums.
	Parts []ecs.PartChecksum
	// Writers names, per part name, the systems declared to change it
	// (Writes, Adds, Removes, Despawns, Structural, Spawns,
	// WritesResource, ChangesRelation, SendsEvents), in the order of
	// record: where to look first. A part no system declares has none:
	// the change came from outside the systems, or from state the world
	// does not hold.
	Writers map[string][]string
	// Report is the diff of the first run (A) against the re-run (B) at
	// Tick: its first differences name entity, component and field.
	Report ecs.DiffReport
}

// Error formats the mismatch: the tick, the parts with their writers, and
// the report's first differences, one per line.
func (e *SyncError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sched: sync test: tick %d run again (after rolling back %d ticks) differs from its first run in", e.Tick, e.Back)
	for i, p := range e.Parts {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %v %s", p.Kind, p.Name)
		if ws := e.Writers[p.Name]; len(ws) > 0 {
			fmt.Fprintf(&b, " (written by %s)", strings.Join(ws, ", "))
		} else {
			b.WriteString(" (no system declares writing it)")
		}
	}
	b.WriteString("\nfirst run (A) against the run again (B): ")
	b.WriteString(e.Report.String())
	return strings.TrimSuffix(b.String(), "\n")
}

// partNames maps the component types the world knows to their stable
// names, for writersOf.
func (s *Scheduler) partNames() map[reflect.Type]string {
	names := map[reflect.Type]string{}
	for _, c := range s.w.Reflect().Components() {
		names[c.GoType] = c.Name
	}
	return names
}

// writersOf returns the systems, in the order of record, declared to change
// part p.
func (s *Scheduler) writersOf(p ecs.PartChecksum, names map[reflect.Type]string) []string {
	var out []string
	for _, x := range s.systems {
		if x.decl.changes(p, names) {
			out = append(out, x.name)
		}
	}
	return out
}

// changes reports whether a system with declaration d may change part p.
func (d *decl) changes(p ecs.PartChecksum, names map[reflect.Type]string) bool {
	switch p.Kind {
	case ecs.PartEntities:
		return d.structural || d.spawns || len(d.despawns) > 0
	case ecs.PartComponent:
		if d.structural {
			return true
		}
		for _, list := range [][]reflect.Type{d.writes, d.adds, d.removes, d.despawns} {
			for _, t := range list {
				if _, _, rel := ecs.RelationSide(t); !rel && componentName(t, names) == p.Name {
					return true
				}
			}
		}
	case ecs.PartRelation:
		if d.structural {
			return true
		}
		for _, list := range [][]reflect.Type{d.writes, d.relChanges, d.despawns} {
			for _, t := range list {
				if pair, _, rel := ecs.RelationSide(t); rel && "Relation["+qualifiedName(pair)+"]" == p.Name {
					return true
				}
			}
		}
	case ecs.PartResource:
		for _, t := range d.resWrites {
			if qualifiedName(t) == p.Name {
				return true
			}
		}
	case ecs.PartEvents:
		for _, t := range d.emits {
			if n := t.Name(); strings.HasPrefix(n, "eventsOf[") && n[len("eventsOf["):len(n)-1] == p.Name {
				return true
			}
		}
	}
	return false
}

// componentName is t's stable name in the world, or its package path and
// name when the world has not met it.
func componentName(t reflect.Type, names map[reflect.Type]string) string {
	if n, ok := names[t]; ok {
		return n
	}
	return qualifiedName(t)
}

// qualifiedName is the name checksums give a type: its package path and
// name, or its description for an unnamed type.
func qualifiedName(t reflect.Type) string {
	if t.PkgPath() != "" && t.Name() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	return t.String()
}

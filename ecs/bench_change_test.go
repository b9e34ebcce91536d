package ecs_test

import (
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// Change detection benchmarks: what a pass over the changed entities costs
// against a full pass and against a hand-kept dirty tag, what tracking adds
// to Map.Set, and what MarksChanged adds to a writing pass.

// bcPos is the 16-byte component of the change benchmarks.
type bcPos struct{ X, Y float64 }

// bcDirty is the zero-size tag of the dirty-tag approach, stored sparse.
type bcDirty struct{}

// bcScanN is the number of entities of BenchmarkChangedScan and
// BenchmarkWritingPass.
const bcScanN = 1_000_000

// bcSink keeps the sums of the passes alive.
var bcSink float64

// bcSpawn returns a world of n entities with a bcPos each, X = i, registered
// with opts, and the entities in spawn order (which is row order).
func bcSpawn(n int, opts ...ecs.ComponentOption) (*ecs.World, *ecs.Map[bcPos], []ecs.Entity) {
	w := ecs.NewWorld()
	ecs.Register[bcPos](w, opts...)
	m := ecs.NewMap[bcPos](w)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = m.Spawn(bcPos{X: float64(i), Y: 1})
	}
	return w, m, es
}

// bcEvery returns every stride-th entity of es, from the first.
func bcEvery(es []ecs.Entity, stride int) []ecs.Entity {
	out := make([]ecs.Entity, 0, len(es)/stride+1)
	for i := 0; i < len(es); i += stride {
		out = append(out, es[i])
	}
	return out
}

// bcSetAll is the marking of the table rows: Map.Set of a new value on each
// entity of es (a change, for a tracked type).
//
//go:noinline
func bcSetAll(m *ecs.Map[bcPos], es []ecs.Entity, x float64) {
	for _, e := range es {
		m.Set(e, bcPos{X: x, Y: 1})
	}
}

// bcSetAndTag is the marking of the dirty-tag approach: Map.Set of the new
// value, then Map.Add of the sparse tag.
//
//go:noinline
func bcSetAndTag(m *ecs.Map[bcPos], dirty *ecs.Map[bcDirty], es []ecs.Entity, x float64) {
	for _, e := range es {
		m.Set(e, bcPos{X: x, Y: 1})
		dirty.Add(e, bcDirty{})
	}
}

// bcSumChunks sums X over the chunks of q, and counts the rows: a Changed
// query's pass visits the changed rows, a plain query's every row.
//
//go:noinline
func bcSumChunks(q *ecs.Query1[bcPos]) (float64, int) {
	s, n := 0.0, 0
	for ch := range q.Chunks() {
		cs := 0.0 // a local: s lives in the loop body's closure
		for i := range ch.A {
			cs += ch.A[i].X
		}
		s += cs
		n += len(ch.A)
	}
	return s, n
}

// bcDirtyPass is the pass of the dirty-tag approach: sum X over the tagged
// entities (q filters With the tag), then take every tag away.
//
//go:noinline
func bcDirtyPass(q *ecs.Query1[bcPos], dirty *ecs.Map[bcDirty]) (float64, int) {
	s, n := 0.0, 0
	for ch := range q.Chunks() {
		cs := 0.0 // a local: s lives in the loop body's closure
		for i := range ch.A {
			cs += ch.A[i].X
		}
		s += cs
		n += len(ch.A)
	}
	dirty.RemoveMatching(q)
	return s, n
}

// bcFloorMark is the floor's marking: write the value into a plain slice
// and append its index to a dirty list.
//
//go:noinline
func bcFloorMark(ps []bcPos, idx []int32, dirty []int32, x float64) []int32 {
	for _, i := range idx {
		ps[i] = bcPos{X: x, Y: 1}
		dirty = append(dirty, i)
	}
	return dirty
}

// bcFloorPass is the floor's pass: sum X over the dirty list, then empty
// it.
//
//go:noinline
func bcFloorPass(ps []bcPos, dirty []int32) (float64, int, []int32) {
	s := 0.0
	for _, i := range dirty {
		s += ps[i].X
	}
	return s, len(dirty), dirty[:0]
}

// bcScan is one row of BenchmarkChangedScan: mark changes k entities, pass
// visits what the row's approach finds, and returns the sum of X and the
// number of entities visited.
type bcScan struct {
	mark func(x float64)
	pass func() (float64, int)
}

// bcScanRows builds the rows of BenchmarkChangedScan for stride (every
// stride-th of the bcScanN entities changes before each pass), by name,
// and how many entities each pass must visit.
func bcScanRow(form string, stride int) (bcScan, int) {
	switch form {
	case "changed":
		// Tracked type, Map.Set, a Changed query's chunks: the runs of
		// consecutive changed rows.
		w, m, es := bcSpawn(bcScanN, ecs.TrackChanges())
		pick := bcEvery(es, stride)
		q := ecs.NewQuery1[bcPos](w, ecs.Changed[bcPos]())
		bcSumChunks(q) // the first pass sees every entity
		return bcScan{func(x float64) { bcSetAll(m, pick, x) }, func() (float64, int) { return bcSumChunks(q) }}, len(pick)
	case "full":
		// Untracked type, Map.Set, then a pass over every row.
		w, m, es := bcSpawn(bcScanN)
		pick := bcEvery(es, stride)
		q := ecs.NewQuery1[bcPos](w)
		return bcScan{func(x float64) { bcSetAll(m, pick, x) }, func() (float64, int) { return bcSumChunks(q) }}, bcScanN
	case "dirty":
		// Untracked type, Map.Set plus a sparse tag added by hand; the
		// pass is a query With the tag, which then takes the tags away.
		w, m, es := bcSpawn(bcScanN)
		ecs.Register[bcDirty](w, ecs.Sparse())
		dirty := ecs.NewMap[bcDirty](w)
		pick := bcEvery(es, stride)
		q := ecs.NewQuery1[bcPos](w, ecs.With(ecs.C[bcDirty]()))
		return bcScan{func(x float64) { bcSetAndTag(m, dirty, pick, x) }, func() (float64, int) { return bcDirtyPass(q, dirty) }}, len(pick)
	case "floor":
		// Plain Go: a []bcPos and a list of dirty indices.
		ps := make([]bcPos, bcScanN)
		var idx []int32
		for i := range ps {
			ps[i] = bcPos{X: float64(i), Y: 1}
			if i%stride == 0 {
				idx = append(idx, int32(i))
			}
		}
		dirty := make([]int32, 0, len(idx))
		return bcScan{
			func(x float64) { dirty = bcFloorMark(ps, idx, dirty, x) },
			func() (float64, int) {
				var s float64
				var n int
				s, n, dirty = bcFloorPass(ps, dirty)
				return s, n
			},
		}, len(idx)
	}
	panic("unknown form " + form)
}

// BenchmarkChangedScan: 1,000,000 entities with a 16-byte component; before
// each pass exactly 0.1%, 1%, 10% or 100% of them, every k-th row, get a
// new value. The rows find and read (sum X of) the changed entities each
// its own way:
//
//   - changed: the type tracks changes; Map.Set marks; the pass is a
//     Changed[bcPos] query's Chunks (runs of consecutive changed rows).
//   - full: an untracked type; Map.Set; the pass is a plain query's Chunks
//     over all 1,000,000 rows (what a system does without change
//     detection).
//   - dirty: an untracked type; Map.Set plus Map.Add of a zero-size tag
//     registered Sparse; the pass is a query With(tag) through Chunks, then
//     Map.RemoveMatching(query) of the tags.
//   - floor: plain Go, a []bcPos written by index and a []int32 dirty list
//     appended to; the pass walks the list and empties it.
//
// What is timed, the same for every row: one op is the pair "mark k
// entities + pass" (ns/op). Marking cannot be left out of the timed loop
// without StopTimer, which reads the memory statistics (stopping the
// world) and costs more than the smallest passes here; and marking is not
// free for any approach (the dirty tag pays an Add per change, the tracked
// type a tick store per Set). So each op also reads the monotonic clock
// between the two halves, and the marking and the pass are reported
// separately: ns/mark and ns/pass are the per-op means of the two halves
// (they add up to ns/op less three clock reads, about 25 ns each), and
// pass-ns/changed is ns/pass over the number of changed entities k. The
// full row's pass visits all 1,000,000 rows; its pass-ns/changed is still
// per changed entity, the work a change costs that way. The dirty row's
// pass includes the RemoveMatching of the tags, which is part of the
// approach.
func BenchmarkChangedScan(b *testing.B) {
	for _, pct := range []struct {
		name   string
		stride int
	}{{"0.1pct", 1000}, {"1pct", 100}, {"10pct", 10}, {"100pct", 1}} {
		for _, form := range []string{"changed", "full", "dirty", "floor"} {
			b.Run(pct.name+"/"+form, func(b *testing.B) {
				row, visits := bcScanRow(form, pct.stride)
				k := (bcScanN + pct.stride - 1) / pct.stride
				row.mark(-1) // warm-up, and check the pass visits what it should
				if _, n := row.pass(); n != visits {
					b.Fatalf("the pass visited %d entities, want %d", n, visits)
				}
				b.ReportAllocs()
				var markT, passT time.Duration
				x := 0.0
				for b.Loop() {
					x++
					t0 := time.Now()
					row.mark(x)
					t1 := time.Now()
					s, _ := row.pass()
					t2 := time.Now()
					bcSink += s
					markT += t1.Sub(t0)
					passT += t2.Sub(t1)
				}
				ops := float64(b.N)
				b.ReportMetric(float64(markT.Nanoseconds())/ops, "ns/mark")
				b.ReportMetric(float64(passT.Nanoseconds())/ops, "ns/pass")
				b.ReportMetric(float64(passT.Nanoseconds())/ops/float64(k), "pass-ns/changed")
			})
		}
	}
}

// bcFloorWrite is the floor of BenchmarkMarkSet: a value written into a
// plain slice at each index.
//
//go:noinline
func bcFloorWrite(ps []bcPos, idx []int32, x float64) {
	for _, i := range idx {
		ps[i] = bcPos{X: x, Y: 1}
	}
}

// BenchmarkMarkSet: Map.Set of a new value on each of 1,000 entities per
// op, for a type that tracks changes (the Set also stores the tick: the
// row's changed tick and the column's newest) and for one that does not;
// the floor writes a plain slice by index. ns/entity is per Set.
func BenchmarkMarkSet(b *testing.B) {
	const n = 1000
	b.Run("floor", func(b *testing.B) {
		ps := make([]bcPos, n)
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(i)
		}
		x := 0.0
		for b.Loop() {
			x++
			bcFloorWrite(ps, idx, x)
		}
		perEntity(b, n)
	})
	for _, name := range []string{"tracked", "untracked"} {
		b.Run(name, func(b *testing.B) {
			var opts []ecs.ComponentOption
			if name == "tracked" {
				opts = append(opts, ecs.TrackChanges())
			}
			_, m, es := bcSpawn(n, opts...)
			b.ReportAllocs()
			x := 0.0
			for b.Loop() {
				x++
				bcSetAll(m, es, x)
			}
			perEntity(b, n)
		})
	}
}

// bcIncChunks adds 1 to X of every row of q's chunks.
//
//go:noinline
func bcIncChunks(q *ecs.Query1[bcPos]) {
	for ch := range q.Chunks() {
		for i := range ch.A {
			ch.A[i].X++
		}
	}
}

// bcIncFloor adds 1 to X of every element of ps.
//
//go:noinline
func bcIncFloor(ps []bcPos) {
	for i := range ps {
		ps[i].X++
	}
}

// BenchmarkWritingPass: a Chunks pass over 1,000,000 entities that adds 1
// to a field: tracked-writes declares ecs.MarksChanged[bcPos]() on a type
// that tracks changes, so the pass also stores the tick of every row it
// visits (a fill of the table's changed ticks per chunk); tracked is the
// same pass without MarksChanged (tracking alone costs a pass nothing);
// untracked is the pass on a type without tracking and no filter; floor is
// the same loop over a plain []bcPos. ns/entity is per visited row.
func BenchmarkWritingPass(b *testing.B) {
	b.Run("floor", func(b *testing.B) {
		ps := make([]bcPos, bcScanN)
		for b.Loop() {
			bcIncFloor(ps)
		}
		perEntity(b, bcScanN)
	})
	for _, name := range []string{"tracked-writes", "tracked", "untracked"} {
		b.Run(name, func(b *testing.B) {
			var opts []ecs.ComponentOption
			var filters []ecs.Filter
			switch name {
			case "tracked-writes":
				opts, filters = []ecs.ComponentOption{ecs.TrackChanges()}, []ecs.Filter{ecs.MarksChanged[bcPos]()}
			case "tracked":
				opts = []ecs.ComponentOption{ecs.TrackChanges()}
			}
			w, _, _ := bcSpawn(bcScanN, opts...)
			q := ecs.NewQuery1[bcPos](w, filters...)
			b.ReportAllocs()
			for b.Loop() {
				bcIncChunks(q)
			}
			perEntity(b, bcScanN)
		})
	}
}

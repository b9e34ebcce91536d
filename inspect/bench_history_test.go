package inspect_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// BenchmarkHistorySave measures what History costs a tick on the
// 100,000-particle world: Inspector.Tick around a step that does nothing,
// so the time is the inspector's own, the ring's Save of the world
// included (compare with BenchmarkIdleOverhead). The ring is warm: its
// snapshots' buffers are grown.
func BenchmarkHistorySave(b *testing.B) {
	sc, err := scenario.NewParticle(scenario.Config{N: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	sc.Tick()
	in := inspect.New(sc.World(), inspect.Scheduler(sc.Scheduler()), inspect.History(ecs.NewSnapshotRing(8)))
	for range 16 {
		inspectedTick(in, noTick{})
	}
	b.ReportAllocs()
	for b.Loop() {
		inspectedTick(in, noTick{})
	}
}

// BenchmarkReadAtPastTick measures one GET /api/entities/{id}?at=TICK on
// the 100,000-particle world, against a plain GET of the same entity:
// the read of the past saves the live state, restores the past and the
// live state again.
func BenchmarkReadAtPastTick(b *testing.B) {
	sc, err := scenario.NewParticle(scenario.Config{N: 100_000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer sc.Close()
	ring := ecs.NewSnapshotRing(4)
	for tick := range uint64(3) {
		sc.Tick()
		ring.Save(sc.World(), tick)
	}
	var mu sync.Mutex
	in := inspect.New(sc.World(), inspect.Scheduler(sc.Scheduler()), inspect.Locker(&mu), inspect.History(ring))
	e, _ := sc.World().Reflect().EntityAt(100)
	for _, c := range []struct{ name, query string }{{"live", ""}, {"past", "?at=1"}} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/api/entities/"+e.String()+c.query, nil)
			for b.Loop() {
				rec := httptest.NewRecorder()
				in.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

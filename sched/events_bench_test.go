package sched

import (
	"fmt"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// benchEvent is the event BenchmarkEventsSend sends: small, no pointers,
// like most game events ("A hit B for 5").
type benchEvent struct {
	From, To ecs.Entity
	Damage   int32
}

// BenchmarkEventsSend measures one tick of events through an
// EventSender: S systems of one stage send N events in all with
// EventSender.Send (N/S each), the stage's sync hands them to the world's
// queue, and one reader reads them. Send and sync are called directly on
// one goroutine, without the scheduler's stage machinery, as in
// BenchmarkOutputMerge.
func BenchmarkEventsSend(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		for _, systems := range []int{1, 4, 16} {
			b.Run(fmt.Sprintf("N=%d/S=%d", n, systems), func(b *testing.B) {
				s := New(ecs.NewWorld(), Workers(1))
				b.Cleanup(s.Close)
				ev := NewEventSender[benchEvent](s)
				r := ev.NewReader()
				stage := oneStage(b, s, "send", systems, SendsEvents[benchEvent]())
				read := 0
				tick := func() {
					for j, x := range stage {
						ctx := &x.ctx
						for i := j; i < n; i += systems {
							ev.Send(ctx, benchEvent{Damage: int32(i)})
						}
					}
					ev.sync(stage)
					read += len(r.Read())
				}
				tick() // warm: buffers and the queue at their working size
				b.ReportAllocs()
				for b.Loop() {
					tick()
				}
				if read != n*(b.N+1) {
					b.Fatalf("read %d events, want %d", read, n*(b.N+1))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/event")
			})
		}
	}
}

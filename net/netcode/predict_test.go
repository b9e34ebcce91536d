package netcode

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// A tiny deterministic game for prediction: ships with integer positions
// and velocities, steered by their owner's thrust.
type (
	pPos    struct{ X, Y int32 }
	pVel    struct{ X, Y int32 }
	pOwner  struct{ Client ClientID }
	pThrust struct{ DX, DY int8 }
)

func predictRules(t testing.TB) *Rules {
	r := NewRules()
	for _, err := range []error{Replicate[pPos](r), Replicate[pVel](r), Replicate[pOwner](r), UseInput[pThrust](r)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// steer sets the velocity of c's ship from its thrust.
func steer(w *ecs.World, c ClientID, in pThrust) {
	vel := ecs.NewMap[pVel](w)
	for r := range ecs.NewQuery1[pOwner](w).All() {
		if r.A.Client == c {
			vel.Set(r.Entity, pVel{int32(in.DX), int32(in.DY)})
		}
	}
}

// move advances every ship by its velocity.
func move(w *ecs.World) {
	for r := range ecs.NewQuery2[pPos, pVel](w).All() {
		r.A.X += r.B.X
		r.A.Y += r.B.Y
	}
}

// script is the input a client plays at tick t.
func script(t uint64) pThrust {
	return pThrust{DX: int8(t/7%3) - 1, DY: int8(t/5%2)*2 - 1}
}

// TestPredictionMatchesTheServer runs a client that predicts its ship a
// few ticks ahead: its first prediction of each tick equals what the
// server computes for that tick, the world rolls back and re-simulates
// as States arrive, and once the server stops, the client holds the
// server's world.
func TestPredictionMatchesTheServer(t *testing.T) {
	rules := predictRules(t)
	w := ecs.NewWorld()
	inputs := ecs.EventsOf[Input[pThrust]](w).NewReader()
	ships := map[ClientID]ecs.Entity{}
	var srv *Server
	serverPos := map[uint64]pPos{}
	var mu sync.Mutex
	step := func() {
		for _, id := range srv.Clients() {
			if _, ok := ships[id]; !ok {
				e := w.Spawn()
				ecs.NewMap[Replicated](w).Add(e, Replicated{})
				ecs.NewMap[pPos](w).Add(e, pPos{})
				ecs.NewMap[pVel](w).Add(e, pVel{})
				ecs.NewMap[pOwner](w).Add(e, pOwner{id})
				ships[id] = e
			}
		}
		for _, in := range inputs.Read() {
			steer(w, in.Client, in.Value)
		}
		move(w)
		for _, e := range ships {
			mu.Lock()
			serverPos[srv.Tick()+1] = *ecs.NewMap[pPos](w).Get(e)
			mu.Unlock()
		}
	}
	l := newLoopback(t, w, rules, Options{TickRate: 50, ChecksumEvery: 1}, step)
	srv = l.srv

	cw := ecs.NewWorld()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, l.url, cw, rules, ClientOptions{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := NewPrediction(c, cw, func(tick uint64, in pThrust) {
		steer(cw, c.ID(), in)
		move(cw)
	}, 4, 16)
	if err != nil {
		t.Fatal(err)
	}
	predicted := map[uint64]pPos{}
	done := make(chan struct{})
	stop := make(chan struct{})
	var playing atomic.Bool
	playing.Store(true)
	go func() { // the client's game loop
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				p.Update()
				return
			case <-tick.C:
				if _, err := p.Update(); err != nil {
					t.Error(err)
					return
				}
				if !playing.Load() {
					continue
				}
				next := p.Tick() + 1
				if ok, _ := p.Advance(script(next)); ok {
					if _, seen := predicted[p.Tick()]; !seen {
						for r := range ecs.NewQuery2[pPos, pOwner](cw).All() {
							if r.B.Client == c.ID() {
								predicted[p.Tick()] = *r.A
							}
						}
					}
				}
			}
		}
	}()
	l.run(150, 50)
	playing.Store(false)
	if !l.quiet([]ClientID{c.ID()}, 5*time.Second) {
		t.Fatal("the client did not catch up")
	}
	close(stop)
	<-done
	// The server runs on, still, until its ticks pass the last predicted
	// one: the client then shows the server's world, not its prediction.
	for deadline := time.Now().Add(3 * time.Second); c.Tick() <= p.Tick() && time.Now().Before(deadline); {
		l.srv.Update()
		time.Sleep(5 * time.Millisecond)
		p.Update()
	}
	want, _ := l.srv.ViewChecksum(c.ID())
	if got := c.Checksum(); got != want {
		for r := range ecs.NewQuery2[pPos, pOwner](cw).All() {
			t.Logf("client: %v %+v %+v", r.Entity, *r.A, *r.B)
		}
		for r := range ecs.NewQuery2[pPos, pOwner](w).All() {
			t.Logf("server: %v %+v %+v", r.Entity, *r.A, *r.B)
		}
		t.Logf("mirror sum %x, tick %d, predicted %d, len %d", c.mirror.sum, c.Tick(), p.Tick(), cw.Len())
		t.Fatalf("after the server stopped, the client's checksum is %x, the server's %x", got, want)
	}
	right, compared := 0, 0
	mu.Lock()
	for tick, pp := range predicted {
		if sp, ok := serverPos[tick]; ok && tick > 20 {
			compared++
			if sp == pp {
				right++
			}
		}
	}
	mu.Unlock()
	rb, rs := p.Rollbacks()
	st := l.srv.Stats()
	t.Logf("late %d early %d", st.LateInputs, st.EarlyInputs)
	var bad []uint64
	for tick, pp := range predicted {
		if sp, ok := serverPos[tick]; ok && tick > 20 && sp != pp {
			bad = append(bad, tick)
		}
	}
	slices.Sort(bad)
	t.Logf("mispredicted ticks: %v", bad)
	t.Logf("%d of %d predicted ticks matched the server; %d rollbacks, %d ticks re-simulated", right, compared, rb, rs)
	if compared < 50 || right < compared*9/10 {
		t.Fatalf("%d of %d predicted ticks matched the server", right, compared)
	}
	if rb == 0 {
		t.Fatal("the client never rolled back")
	}
}

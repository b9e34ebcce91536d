//go:build !race

package ecs_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// Two goroutines using one event queue outside a parallel section used to
// lose events silently (2,000,000 sent, about half counted) and read them
// out of order. The queue's check is best-effort, like the structural
// one, so each case allows many rounds and requires that some round is
// caught. (Built
// without -race: the race detector reports the misuse itself.)
//
// Two goroutines that pass the check at the same instant may then corrupt
// the queue's memory, which no recover catches, so the misuse runs in a
// child process (this test binary again), up to three times.
func TestConcurrentEventUseIsDetected(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two goroutines running at once (GOMAXPROCS >= 2)")
	}
	if os.Getenv(eventMisuseEnv) == "1" {
		concurrentEventUse(t)
		return
	}
	var out []byte
	for range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentEventUseIsDetected$", "-test.count=1")
		cmd.Env = append(os.Environ(), eventMisuseEnv+"=1")
		var err error
		if out, err = cmd.CombinedOutput(); err == nil {
			return
		}
		if strings.Contains(string(out), "--- FAIL") {
			break // the child's own verdict, not a crash
		}
	}
	t.Fatalf("the misuse run failed:\n%s", out)
}

// eventMisuseEnv marks the child process of TestConcurrentEventUseIsDetected.
const eventMisuseEnv = "TESSERA_TEST_EVENT_MISUSE"

// concurrentEventUse is TestConcurrentEventUseIsDetected's misuse, run in
// the child process.
func concurrentEventUse(t *testing.T) {
	const perGoroutine = 200000
	cases := map[string]func(q *ecs.Events[Hit], r *ecs.EventReader[Hit], g int){
		"Send and Send": func(q *ecs.Events[Hit], _ *ecs.EventReader[Hit], _ int) {
			for i := range perGoroutine {
				q.Send(Hit{Amount: i})
			}
		},
		"Send and Read": func(q *ecs.Events[Hit], r *ecs.EventReader[Hit], g int) {
			for i := range perGoroutine {
				if g == 0 {
					q.Send(Hit{Amount: i})
				} else {
					r.Read()
				}
			}
		},
		"SendAll and NewReader/Close": func(q *ecs.Events[Hit], _ *ecs.EventReader[Hit], g int) {
			batch := []Hit{{Amount: 1}, {Amount: 2}}
			for range perGoroutine / 2 {
				if g == 0 {
					q.SendAll(batch)
				} else {
					q.NewReader().Close()
				}
			}
		},
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			caught := ""
			for round := 0; round < 50 && caught == ""; round++ {
				w := ecs.NewWorld()
				q := ecs.EventsOf[Hit](w)
				r := q.NewReader()
				msgs := panicsOfTwo(func(g int) { body(q, r, g) })
				for _, m := range msgs {
					switch {
					case strings.Contains(m, "concurrent use"):
						caught = m
					case m != "":
						// Best-effort: two goroutines may pass the check at
						// the same instant and then trip over each other.
						t.Logf("round %d: a panic other than the detector's: %s", round, m)
					}
				}
			}
			if caught == "" {
				t.Fatal("two goroutines used one queue for 50 rounds and the detector never fired")
			}
			if !strings.Contains(caught, "Events[ecs_test.Hit].") || !strings.Contains(caught, "not safe for concurrent use") {
				t.Errorf("message %q does not name the queue and the rule", caught)
			}
		})
	}
}

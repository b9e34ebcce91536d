//go:build !race

package ecs_test

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// TestConcurrentStructuralChangesAreDetected runs two goroutines that spawn,
// add, remove and despawn on one World outside a parallel section, the
// misuse that used to corrupt the world silently. The check is best-effort
// (two stores per mutation, like the Go runtime's concurrent map writes
// check), so the test allows many rounds for the goroutines to overlap and
// requires that some round is caught. (Built without -race: the race
// detector reports the misuse itself.)
func TestConcurrentStructuralChangesAreDetected(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two goroutines running at once (GOMAXPROCS >= 2)")
	}
	caught := ""
	for round := 0; round < 50 && caught == ""; round++ {
		w := ecs.NewWorld()
		pos := ecs.NewMap[Position](w)
		vel := ecs.NewMap[Velocity](w)
		msgs := panicsOfTwo(func(int) {
			var mine []ecs.Entity
			for i := range 20000 {
				e := pos.Spawn(Position{float64(i), 0})
				vel.Add(e, Velocity{})
				mine = append(mine, e)
				if i%3 == 0 {
					vel.Remove(mine[0])
					w.Despawn(mine[0])
					mine = mine[1:]
				}
			}
		})
		for _, m := range msgs {
			if strings.Contains(m, "concurrent structural change") {
				caught = m
			} else if m != "" && caught == "" {
				t.Logf("round %d: a panic other than the detector's: %s", round, m)
			}
		}
	}
	if caught == "" {
		t.Fatal("two goroutines changed one World for 50 rounds and the detector never fired")
	}
	if !strings.Contains(caught, "not safe for concurrent use") || !strings.Contains(caught, "World.Parallel().Begin") {
		t.Errorf("message %q does not explain the rule", caught)
	}
}

// panicsOfTwo runs f(0) and f(1) on two goroutines at once and returns the
// message each one's panic carried ("" for none, "non-string panic" for a
// value that is not a string): the misuse the concurrency checks catch.
func panicsOfTwo(f func(g int)) [2]string {
	var msgs [2]string
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					msgs[g], _ = r.(string)
					if msgs[g] == "" {
						msgs[g] = "non-string panic"
					}
				}
			}()
			f(g)
		}()
	}
	wg.Wait()
	return msgs
}

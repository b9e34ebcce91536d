package arena

import (
	"testing"

	"github.com/tessera-ecs/tessera/sched"
)

// TestArenaUnderSyncTest plays the scripted game under a sync test: after
// every frame the world rolls back 3 frames and plays them again, and
// every part of the world (entities, each component type, the hierarchy,
// resources, event queues) must come out as it did the first time. Any
// game state kept outside the world, or any order that depends on the
// workers, fails here with the frame, the type, its systems and the field.
func TestArenaUnderSyncTest(t *testing.T) {
	for _, workers := range []int{1, 2} {
		g := New(Config{Seed: 11, Rocks: 300, Workers: workers})
		st := sched.NewSyncTest(g.S, 3)
		// The game's own Step also saves into its rewind ring, whose ticks
		// must increase: the sync test steps the systems alone.
		step := func() { g.tick([]PlayerInput{{Player: LocalPlayer, Input: Script(int(g.score.Tick))}}) }
		for range 240 {
			if err := st.Step(step); err != nil {
				t.Fatalf("%d workers: %v", workers, err)
			}
		}
		if g.score.Tick != 240 {
			t.Fatalf("%d workers: tick %d after 240 frames", workers, g.score.Tick)
		}
		if g.score.Hits == 0 && g.score.Kills == 0 {
			t.Fatalf("%d workers: nothing happened in 240 frames: %+v", workers, *g.score)
		}
		g.Close()
	}
}

package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// Damage is an event: Target lost Amount health.
type Damage struct {
	Target ecs.Entity
	Amount int
}

// One part of a tick sends events, others read them when they run: each
// reader gets every event sent after it was made, once, however rarely it
// reads, and an event is dropped once every reader has read it.
func ExampleEventsOf() {
	type Health struct{ HP int }
	w := ecs.NewWorld()
	health := ecs.NewMap[Health](w)
	damage := ecs.EventsOf[Damage](w)
	apply := damage.NewReader()  // reads every tick
	logger := damage.NewReader() // reads every second tick

	orc := health.Spawn(Health{HP: 10})
	for tick := 1; tick <= 3; tick++ {
		damage.Send(Damage{Target: orc, Amount: tick}) // a combat system's hit
		for _, d := range apply.Read() {
			health.Get(d.Target).HP -= d.Amount
		}
		if tick%2 == 0 {
			fmt.Println("tick", tick, "log:", logger.Read())
		}
	}
	fmt.Println("HP:", health.Get(orc).HP, "unread by the logger:", logger.Len(), "kept:", damage.Len())
	// Output:
	// tick 2 log: [{1v0 1} {1v0 2}]
	// HP: 4 unread by the logger: 1 kept: 1
}

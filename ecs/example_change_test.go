package ecs_test

import (
	"fmt"

	"github.com/tessera-ecs/tessera/ecs"
)

// HitPoints is the component of the change detection example.
type HitPoints struct{ N int }

// A health bar redraws only the entities whose hit points changed since
// its last pass; a second query keeps its own last pass and sees the same
// changes again. A write through a Get pointer counts once marked.
func ExampleChanged() {
	w := ecs.NewWorld()
	ecs.Register[HitPoints](w, ecs.TrackChanges())
	hp := ecs.NewMap[HitPoints](w)
	orc, elf, imp := hp.Spawn(HitPoints{30}), hp.Spawn(HitPoints{20}), hp.Spawn(HitPoints{5})
	names := map[ecs.Entity]string{orc: "orc", elf: "elf", imp: "imp"}

	bars := ecs.NewQuery1[HitPoints](w, ecs.Changed[HitPoints]())
	log := ecs.NewQuery1[HitPoints](w, ecs.Changed[HitPoints]())
	redraw := func(q *ecs.Query1[HitPoints]) {
		for r := range q.All() {
			fmt.Printf(" %s=%d", names[r.Entity], r.A.N)
		}
		fmt.Println()
	}
	fmt.Print("first pass:")
	redraw(bars)
	fmt.Print("nothing changed:")
	redraw(bars)

	hp.Set(elf, HitPoints{12})
	hp.Get(imp).N-- // a write through a pointer: seen once marked
	hp.MarkChanged(imp)
	fmt.Print("bars:")
	redraw(bars)
	fmt.Print("log, first pass:")
	redraw(log)
	fmt.Print("log:")
	redraw(log)
	// Output:
	// first pass: orc=30 elf=20 imp=5
	// nothing changed:
	// bars: elf=12 imp=4
	// log, first pass: orc=30 elf=12 imp=4
	// log:
}

// A query that declares MarksChanged marks what it visits, so a pass that
// changes values in place is seen by the Changed queries of other systems.
func ExampleMarksChanged() {
	w := ecs.NewWorld()
	ecs.Register[HitPoints](w, ecs.TrackChanges())
	hp := ecs.NewMap[HitPoints](w)
	hp.SpawnBatch(3, HitPoints{10})
	changed := ecs.NewQuery1[HitPoints](w, ecs.Changed[HitPoints]())
	regen := ecs.NewQuery1[HitPoints](w, ecs.MarksChanged[HitPoints]())
	fmt.Println("changed at first:", changed.Count())
	for range changed.All() {
	}
	fmt.Println("after a pass:", changed.Count())
	for c := range regen.Chunks() {
		for i := range c.A {
			c.A[i].N++
		}
	}
	fmt.Println("after the regeneration pass:", changed.Count())
	// Output:
	// changed at first: 3
	// after a pass: 0
	// after the regeneration pass: 3
}

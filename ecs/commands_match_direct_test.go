package ecs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// A buffer applied must leave the world as the same changes made directly,
// one after another, would: TestCommandsMatchDirectChanges records random
// command sequences (single-type and Map2/Map3 verbs, spawns, despawns)
// into a buffer of one world and makes the same changes directly on a twin
// world, then compares the two. Half the changes target the entity of the
// change before, so a buffer often holds remove-then-add, add-then-remove,
// spawn-then-despawn and despawn-then-add on one entity, pending or live.

// twinOp is one recorded change, replayed on the twin.
type twinOp struct {
	kind   int
	target int // index into the round's targets
	pos    Position
	vel    Velocity
	mass   Mass
}

const (
	twinSpawn = iota
	twinSpawn2
	twinDespawn
	twinAddPos
	twinAddVel
	twinAddMass
	twinRemovePos
	twinRemoveMass
	twinAdd2
	twinRemove2
	twinAdd3
	twinRemove3
	twinSpawnMass // Map.SpawnCmd: one type, sparse in half the seeds
	twinKinds
)

type twinWorld struct {
	w    *ecs.World
	pos  *ecs.Map[Position]
	vel  *ecs.Map[Velocity]
	mass *ecs.Map[Mass]
	pv   *ecs.Map2[Position, Velocity]
	pvm  *ecs.Map3[Position, Velocity, Mass]
}

func newTwinWorld(sparseMass bool) *twinWorld {
	w := ecs.NewWorld()
	if sparseMass {
		ecs.Register[Mass](w, ecs.Sparse())
	}
	return &twinWorld{w: w, pos: ecs.NewMap[Position](w), vel: ecs.NewMap[Velocity](w), mass: ecs.NewMap[Mass](w),
		pv: ecs.NewMap2[Position, Velocity](w), pvm: ecs.NewMap3[Position, Velocity, Mass](w)}
}

// record records op into c for target e; a spawn appends its pending entity
// to targets.
func (t *twinWorld) record(c *ecs.Commands, op twinOp, targets *[]ecs.Entity) {
	e := (*targets)[op.target]
	switch op.kind {
	case twinSpawn:
		*targets = append(*targets, c.Spawn())
	case twinSpawn2:
		*targets = append(*targets, t.pv.SpawnCmd(c, op.pos, op.vel))
	case twinSpawnMass:
		*targets = append(*targets, t.mass.SpawnCmd(c, op.mass))
	case twinDespawn:
		c.Despawn(e)
	case twinAddPos:
		t.pos.SetCmd(c, e, op.pos)
	case twinAddVel:
		t.vel.SetCmd(c, e, op.vel)
	case twinAddMass:
		t.mass.SetCmd(c, e, op.mass)
	case twinRemovePos:
		t.pos.RemoveCmd(c, e)
	case twinRemoveMass:
		t.mass.RemoveCmd(c, e)
	case twinAdd2:
		t.pv.SetCmd(c, e, op.pos, op.vel)
	case twinRemove2:
		t.pv.RemoveCmd(c, e)
	case twinAdd3:
		t.pvm.SetCmd(c, e, op.pos, op.vel, op.mass)
	case twinRemove3:
		t.pvm.RemoveCmd(c, e)
	}
}

// direct makes op at once, with the buffer's rules: a change to a dead
// entity is dropped, an add overwrites, a remove of a missing type does
// nothing.
func (t *twinWorld) direct(op twinOp, targets *[]ecs.Entity) {
	e := (*targets)[op.target]
	alive := t.w.Alive(e)
	set := func(add func()) {
		if alive {
			add()
		}
	}
	switch op.kind {
	case twinSpawn:
		*targets = append(*targets, t.w.Spawn())
	case twinSpawn2:
		*targets = append(*targets, t.pv.Spawn(op.pos, op.vel))
	case twinSpawnMass:
		*targets = append(*targets, t.mass.Spawn(op.mass))
	case twinDespawn:
		set(func() { t.w.Despawn(e) })
	case twinAddPos:
		set(func() { t.pos.Set(e, op.pos) })
	case twinAddVel:
		set(func() { t.vel.Set(e, op.vel) })
	case twinAddMass:
		set(func() { t.mass.Set(e, op.mass) })
	case twinRemovePos, twinRemove2, twinRemove3:
		set(func() {
			if t.pos.Has(e) {
				t.pos.Remove(e)
			}
			if op.kind != twinRemovePos && t.vel.Has(e) {
				t.vel.Remove(e)
			}
			if op.kind == twinRemove3 && t.mass.Has(e) {
				t.mass.Remove(e)
			}
		})
	case twinRemoveMass:
		set(func() {
			if t.mass.Has(e) {
				t.mass.Remove(e)
			}
		})
	case twinAdd2, twinAdd3:
		set(func() {
			t.pos.Set(e, op.pos)
			t.vel.Set(e, op.vel)
			if op.kind == twinAdd3 {
				t.mass.Set(e, op.mass)
			}
		})
	}
}

// state describes every live entity and its components, sorted by entity.
func (t *twinWorld) state(ids []ecs.Entity) []string {
	var rows []string
	for _, e := range ids {
		if !t.w.Alive(e) {
			continue
		}
		p, _ := t.pos.TryGet(e)
		v, _ := t.vel.TryGet(e)
		m, _ := t.mass.TryGet(e)
		rows = append(rows, fmt.Sprintf("%v pos=%v vel=%v mass=%v", e, p, v, m))
	}
	slices.Sort(rows)
	return rows
}

func TestCommandsMatchDirectChanges(t *testing.T) {
	seeds, rounds := 60, 12
	if testing.Short() {
		seeds = 15
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 77))
		sparse := seed%2 == 1
		buffered, twin := newTwinWorld(sparse), newTwinWorld(sparse)
		// The same entities in both worlds: equal ids, but each handle
		// carries its world's tag.
		var live, twinLive []ecs.Entity
		for range 6 {
			live = append(live, buffered.w.Spawn())
			twinLive = append(twinLive, twin.w.Spawn())
		}
		c := buffered.w.NewCommands()
		for round := range rounds {
			targets := slices.Clone(live)
			twinTargets := slices.Clone(twinLive)
			var ops []twinOp
			prev := rng.IntN(len(targets))
			for range 4 + rng.IntN(24) {
				op := twinOp{kind: rng.IntN(twinKinds), target: prev,
					pos: Position{float64(rng.IntN(9)), 1}, vel: Velocity{float64(rng.IntN(9)), 2}, mass: Mass{float64(rng.IntN(9))}}
				if rng.IntN(2) == 0 { // else the same target as the change before
					op.target = rng.IntN(len(targets))
				}
				buffered.record(c, op, &targets)
				ops = append(ops, op)
				if op.kind == twinSpawn || op.kind == twinSpawn2 || op.kind == twinSpawnMass {
					prev = len(targets) - 1 // the next change often targets the new entity
				} else {
					prev = op.target
				}
			}
			buffered.w.Apply(c)
			for _, op := range ops {
				twin.direct(op, &twinTargets)
			}
			// Pending entities resolve to the entities the direct spawns made.
			for i := len(live); i < len(targets); i++ {
				got, ok := c.Resolve(targets[i])
				if !ok || got.Index() != twinTargets[i].Index() || got.Generation() != twinTargets[i].Generation() {
					t.Fatalf("seed %d round %d: pending %v resolved to %v (%v), want %v\nops %+v", seed, round, targets[i], got, ok, twinTargets[i], ops)
				}
			}
			resolved := slices.Clone(targets)
			for i := len(live); i < len(targets); i++ {
				resolved[i], _ = c.Resolve(targets[i])
			}
			if a, b := buffered.state(resolved), twin.state(twinTargets); !slices.Equal(a, b) || buffered.w.Len() != twin.w.Len() {
				t.Fatalf("seed %d round %d (sparse %v): ops %+v\nbuffered %q\ndirect   %q", seed, round, sparse, ops, a, b)
			}
			live, twinLive = live[:0], twinLive[:0]
			for i, e := range twinTargets {
				if twin.w.Alive(e) && !slices.Contains(twinLive, e) {
					live = append(live, resolved[i])
					twinLive = append(twinLive, e)
				}
			}
			if len(live) == 0 {
				live = append(live, buffered.w.Spawn())
				twinLive = append(twinLive, twin.w.Spawn())
			}
		}
	}
}

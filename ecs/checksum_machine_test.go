package ecs_test

import (
	"math"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// sumWords holds the kinds whose size is the machine's word: 4 bytes on 386
// and 32-bit arm, 8 on amd64, arm64 and wasm.
type sumWords struct {
	I int
	U uint
	P uintptr
	S int8
}

// sumMixed is plain bytes on 386 (12 bytes, B at offset 4) and padded on
// amd64 (16 bytes, B at offset 8): its checksum must not depend on which.
type sumMixed struct {
	A uint32
	B uint64
}

// sumState is a resource with a word-sized field, as a game's tick counter
// or random source index often is.
type sumState struct {
	Next int
	Seed uint64
}

// machineWorld builds the same world on any machine: tables, a sparse
// set, a resource, word-sized integers (negative ones too), floats, strings
// and entities inside values, and a free list.
func machineWorld() *ecs.World {
	w := ecs.NewWorld()
	ecs.Register[sumLife](w, ecs.Sparse())
	words := ecs.NewMap2[sumWords, sumPos](w)
	named := ecs.NewMap2[sumName, sumTarget](w)
	life := ecs.NewMap[sumLife](w)
	var es []ecs.Entity
	for i := range 64 {
		e := words.Spawn(sumWords{I: -i * 1000003, U: uint(i) * 7919, P: uintptr(i), S: int8(-i)},
			sumPos{X: float64(i) / 3, Y: -float64(i) * math.Pi})
		es = append(es, e)
		if i%3 == 0 {
			life.Add(e, sumLife{Left: int32(i)})
		}
	}
	for i := range 16 {
		named.Spawn(sumName{S: string(rune('a' + i))}, sumTarget{E: es[i*2]})
	}
	// Plain float32 columns (NaNs of other payloads count as one), an odd
	// number of float32s in all, and a padded type: the runs a checksum
	// hashes in bulk, and the values it gathers one by one.
	vel, pad, mixed := ecs.NewMap[sumVel](w), ecs.NewMap[sumPadded](w), ecs.NewMap[sumMixed](w)
	for i, e := range es {
		if i%5 == 0 {
			nan := math.Float32frombits(0x7FC00000 | uint32(i))
			vel.Add(e, sumVel{X: float32(i) * 0.1, Y: nan})
		}
		if i%7 == 0 {
			pad.Add(e, sumPadded{A: uint8(i), B: uint64(i) << 33})
		}
		if i%4 == 1 {
			mixed.Add(e, sumMixed{A: uint32(i) * 2654435761, B: uint64(i) << 40})
		}
	}
	for _, e := range es[10:20] {
		w.Despawn(e)
	}
	ecs.AddResource(w, &sumState{Next: -3, Seed: 1 << 40})
	ecs.AddResource(w, &sumMixed{A: 7, B: 1 << 50})
	ev := ecs.EventsOf[sumMixed](w)
	ev.NewReader()
	ev.Send(sumMixed{A: 1, B: 2})
	return w
}

// goldenMachineChecksum is machineWorld's checksum on amd64. CI runs this
// test on 386 and arm64 under qemu-user and on wasm under Node: every
// machine must give it.
const goldenMachineChecksum = 0xf0f770d90fa5917d

func TestChecksumIsTheSameOnEveryMachine(t *testing.T) {
	if got := machineWorld().Checksum(); got != goldenMachineChecksum {
		t.Errorf("Checksum of the fixed world = %#x, want %#x (the amd64 result): this machine hashes differently", got, uint64(goldenMachineChecksum))
	}
}

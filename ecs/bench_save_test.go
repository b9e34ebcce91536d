package ecs_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// particleTarget is a new world ready to load a particle save: the
// particle scenario's types and state resource, no entities.
func particleTarget() *ecs.World {
	w := ecs.NewWorld()
	ecs.NewMap[scenario.Emitter](w)
	ecs.NewMap4[scenario.Position, scenario.Velocity, scenario.Color, scenario.Lifetime](w)
	ecs.AddResource(w, &scenario.ParticleState{})
	return w
}

// binaryColumns are the columns of particleColumns as encoding/binary
// takes them: the entity handles as uint64s (Entity's fields are not
// exported, so encoding/binary cannot read them into an Entity).
func binaryColumns(c *particleColumns) []any {
	return []any{c.pos, c.vel, c.col, c.life, make([]uint64, len(c.ents)), c.index}
}

//go:noinline
func binaryWriteFloor(buf *bytes.Buffer, cols []any) {
	buf.Reset()
	for _, v := range cols {
		if err := binary.Write(buf, binary.LittleEndian, v); err != nil {
			panic(err)
		}
	}
}

//go:noinline
func binaryReadFloor(r *bytes.Reader, cols []any) {
	for _, v := range cols {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			panic(err)
		}
	}
}

//go:noinline
func saveInto(buf *bytes.Buffer, w *ecs.World) {
	buf.Reset()
	if err := w.Save(buf); err != nil {
		panic(err)
	}
}

//go:noinline
func loadFrom(data []byte) *ecs.World {
	w := particleTarget()
	if err := w.Load(bytes.NewReader(data)); err != nil {
		panic(err)
	}
	return w
}

// BenchmarkSaveLoad times World.Save and World.Load of the demo's
// 100,000-particle world against encoding/binary writing and reading the
// same columns as plain slices, in one run; MB/s counts the bytes of each
// side's own output (benchstat -col .name gives the ratios).
func BenchmarkSaveLoad(b *testing.B) {
	const n = 100_000
	w, done := particleWorld(b, n)
	defer done()
	var file bytes.Buffer
	saveInto(&file, w)
	data := bytes.Clone(file.Bytes())
	c := binaryColumns(newParticleColumns(n))
	var floor bytes.Buffer
	binaryWriteFloor(&floor, c)
	floorData := bytes.Clone(floor.Bytes())

	b.Run("name=binary.Write", func(b *testing.B) {
		var buf bytes.Buffer
		b.SetBytes(int64(len(floorData)))
		for b.Loop() {
			binaryWriteFloor(&buf, c)
		}
	})
	b.Run("name=save", func(b *testing.B) {
		var buf bytes.Buffer
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			saveInto(&buf, w)
		}
	})
	b.Run("name=binary.Read", func(b *testing.B) {
		b.SetBytes(int64(len(floorData)))
		for b.Loop() {
			binaryReadFloor(bytes.NewReader(floorData), c)
		}
	})
	b.Run("name=load", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			loadFrom(data)
		}
	})
}

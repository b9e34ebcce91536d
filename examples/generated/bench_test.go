package main

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// The reflection twins of the generated types: the same fields and
// stable names, none of the generated methods, so Save and Load use their
// reflection codec.
type (
	plainPosition  Position
	plainVelocity  Velocity
	plainData      Data
	plainPlayer    Player
	plainHealth    Health
	plainDamage    Damage
	plainSprite    Sprite
	plainInventory Inventory
)

// registerPlain registers the twins under the generated types' names.
func registerPlain(w *ecs.World) {
	ecs.Register[plainPosition](w, ecs.Name(nameOf[Position]()))
	ecs.Register[plainVelocity](w, ecs.Name(nameOf[Velocity]()))
	ecs.Register[plainData](w, ecs.Name(nameOf[Data]()))
	ecs.Register[plainPlayer](w, ecs.Name(nameOf[Player]()))
	ecs.Register[plainHealth](w, ecs.Name(nameOf[Health]()))
	ecs.Register[plainDamage](w, ecs.Name(nameOf[Damage]()))
	ecs.Register[plainSprite](w, ecs.Name(nameOf[Sprite]()))
	ecs.Register[plainInventory](w, ecs.Name(nameOf[Inventory]()), ecs.Sparse())
}

// nameOf is the stable name Register gives T.
func nameOf[T any]() string {
	w := ecs.NewWorld()
	Register(w)
	for _, c := range w.Reflect().Components() {
		if c.GoType == reflect.TypeFor[T]() {
			return c.Name
		}
	}
	panic("not registered")
}

func saveOf(w *ecs.World) []byte {
	var b bytes.Buffer
	saveInto(&b, w)
	return b.Bytes()
}

//go:noinline
func saveInto(b *bytes.Buffer, w *ecs.World) {
	b.Reset()
	if err := w.Save(b); err != nil {
		panic(err)
	}
}

//go:noinline
func loadGenerated(file []byte) *ecs.World {
	w := ecs.NewWorld()
	Register(w)
	if err := w.Load(bytes.NewReader(file)); err != nil {
		panic(err)
	}
	return w
}

//go:noinline
func loadPlain(file []byte) *ecs.World {
	w := ecs.NewWorld()
	registerPlain(w)
	if err := w.Load(bytes.NewReader(file)); err != nil {
		panic(err)
	}
	return w
}

// BenchmarkSaveLoad times World.Save and World.Load of the game world
// (10,000 entities after 10 ticks) with the generated codecs and with the
// reflection codec, on the same file, in one run (benchstat
// -col /codec gives the ratios). Position, Velocity, Damage, Sprite and
// Rand32 are plain numbers without padding, saved as memory either way;
// Data, Player, Health (a bool or padding) and Inventory (a slice) go
// through the codecs.
func BenchmarkSaveLoad(b *testing.B) {
	w := newWorld(10_000, 1)
	g := newGame(w)
	for range 10 {
		g.tick()
	}
	file := saveOf(w)
	// Both sides save a world loaded from the same file, so their tables
	// were built the same way.
	sides := []struct {
		name  string
		world *ecs.World
		load  func([]byte) *ecs.World
	}{{"generated", loadGenerated(file), loadGenerated}, {"reflection", loadPlain(file), loadPlain}}
	for _, s := range sides {
		b.Run("op=save/codec="+s.name, func(b *testing.B) {
			var buf bytes.Buffer
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				saveInto(&buf, s.world)
			}
		})
	}
	for _, s := range sides {
		b.Run("op=load/codec="+s.name, func(b *testing.B) {
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				s.load(file)
			}
		})
	}
}

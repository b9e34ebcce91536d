// Package scenario has the shape of Tessera's particle scenario
// (internal/scenario/particle.go): Move adds velocity times the fixed step
// to every position.
package scenario

import (
	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/sched"
)

type (
	Position struct{ X, Y float32 }
	Velocity struct{ X, Y float32 }
	Lifetime struct{ Left float32 }
)

// DT is the fixed time step, in seconds.
const DT = 1.0 / 60

var _ *ecs.World
var _ *sched.Context

// gravity accelerates every velocity of v downwards for one tick.
func gravity(v []Velocity) {
	for i := range v {
		v[i].Y -= 9.81 * DT // a constant product: computed exactly at compile time
	}
}

// move advances every position of p by its velocity in v for one tick.
func move(p []Position, v []Velocity) {
	v = v[:len(p)] // one bounds check for the loop
	for i := range p {
		p[i].X += v[i].X * DT // want `^fma: the product v\[i\]\.X \* DT is added to p\[i\]\.X by \+=: .*; wrap the product in an explicit conversion, which rounds it \(the spec: a conversion prevents fusion\): float32\(v\[i\]\.X \* DT\)$`
		p[i].Y += v[i].Y * DT // want `^fma: the product v\[i\]\.Y \* DT is added to p\[i\]\.Y by \+=`
	}
}

// age shortens every lifetime of l by one tick.
func age(l []Lifetime) int {
	dead := 0
	for i := range l {
		left := l[i].Left - DT // a difference, not a product
		l[i].Left = left
		if left <= 0 {
			dead++
		}
	}
	return dead
}

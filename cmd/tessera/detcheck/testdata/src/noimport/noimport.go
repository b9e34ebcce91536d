// Package noimport cannot reach a Tessera world (it imports neither ecs nor
// sched), so nothing in it is reported.
package noimport

import (
	"math"
	"math/rand/v2"
	"time"
)

func anything(m map[string]float64, x, y, z float64) float64 {
	r := x*y + z
	for _, v := range m {
		r += v
	}
	r += rand.Float64() + math.Sin(x)
	_ = time.Now()
	return r
}

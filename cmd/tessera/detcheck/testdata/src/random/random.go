// Package random draws from global random sources (reported) and from
// seeded generators (not reported).
package random

import (
	crand "crypto/rand"
	"hash/maphash"
	oldrand "math/rand"
	"math/rand/v2"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

type Pos struct{ X, Y float64 }

func spawn(w *ecs.World, buf []byte) {
	_ = rand.IntN(10)                           // want `random: rand.IntN draws from the global random source, which is seeded randomly at start-up, so every run differs; draw from a seeded generator kept in the world as a resource: rand.New\(rand.NewPCG\(seed, 0\)\)`
	_ = rand.Float64()                          // want `random: rand.Float64 draws from the global random source`
	_ = rand.N(10 * time.Second)                // want `random: rand.N draws`
	rand.Shuffle(3, func(i, j int) {})          // want `random: rand.Shuffle draws`
	_ = rand.Perm(4)                            // want `random: rand.Perm draws`
	oldrand.Seed(1)                             // want `random: rand.Seed draws from the global random source, which is seeded randomly at start-up \(rand.Seed does not seed it: since Go 1.24 it does nothing\)`
	_ = oldrand.Intn(3)                         // want `random: rand.Intn draws`
	pick := rand.Uint64                         // want `random: rand.Uint64 draws`
	_, _ = crand.Read(buf)                      // want `random: rand.Read reads the operating system's entropy`
	_ = crand.Reader                            // want `random: rand.Reader reads the operating system's entropy`
	_ = maphash.String(maphash.MakeSeed(), "x") // want `random: maphash.MakeSeed uses a random seed chosen per process`
	var h maphash.Hash                          // want `random: maphash.Hash uses a random seed`
	_, _ = h, pick
}

// Near misses: seeded generators and their methods.
func seeded(seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0))
	_ = r.IntN(10)
	_ = r.Float64()
	c := rand.New(rand.NewChaCha8([32]byte{}))
	_ = c.Perm(3)
	z := rand.NewZipf(r, 1.5, 2, 10)
	_ = z.Uint64()
	o := oldrand.New(oldrand.NewSource(int64(seed)))
	_ = o.Intn(3)
	var pcg rand.PCG
	pcg.Seed(seed, 1)
	_ = pcg.Uint64()
}

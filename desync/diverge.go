package desync

import (
	"fmt"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
)

// Divergence is where two logs part: the first tick both logs hold whose
// frames differ.
type Divergence struct {
	Tick           uint64
	WorldA, WorldB uint64
	// Parts are the parts whose checksums differ at Tick (see
	// [ecs.DiffChecksums]), with A's sums; empty when the logs hold world
	// checksums alone.
	Parts []ecs.PartChecksum
	// Index is the frame's position in log A (from 0).
	Index int
}

// String formats d: "tick 137: world 1f..≠2e..; component game.Position, resource ...".
func (d Divergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "first divergent tick %d: world checksum %016x in A, %016x in B", d.Tick, d.WorldA, d.WorldB)
	if len(d.Parts) > 0 {
		b.WriteString("; parts that differ:")
		for i, p := range d.Parts {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " %v %s", p.Kind, p.Name)
		}
	}
	return b.String()
}

// FirstDivergence compares two logs tick by tick (ticks that only one log
// holds are skipped; both logs must list their ticks in increasing order)
// and returns the first tick whose world checksums or parts differ, and
// true; or false when every tick both hold agrees. Complexity:
// O(frames x parts).
func FirstDivergence(a, b []Frame) (Divergence, bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch fa, fb := &a[i], &b[j]; {
		case fa.Tick < fb.Tick:
			i++
		case fb.Tick < fa.Tick:
			j++
		default:
			parts := ecs.DiffChecksums(fa.Parts, fb.Parts)
			if len(fa.Parts) == 0 || len(fb.Parts) == 0 {
				parts = nil // a log without parts: the world checksum decides
			}
			if fa.World != fb.World || len(parts) > 0 {
				return Divergence{Tick: fa.Tick, WorldA: fa.World, WorldB: fb.World, Parts: parts, Index: i}, true
			}
			i++
			j++
		}
	}
	return Divergence{}, false
}

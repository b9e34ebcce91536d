package ecs

import (
	"fmt"
	"sync/atomic"
)

// An Entity's gen field, and the gen field of its record, hold two things:
// the tag of the world that made the handle in the top 8 bits and the
// generation of the index in the low 24. A world stores its own tag in every
// record it hands out, so the comparison entityIndex.lookup already makes
// (record gen against handle gen) turns away handles of another world
// without an instruction more: the tag costs lookups nothing, and spawns of
// a fresh index one store.
const (
	genBits = 24
	genMask = 1<<genBits - 1 // the generation bits of a gen field
)

// worldCount counts the worlds made in this process; it gives each its tag.
var worldCount atomic.Uint32

// nextWorldTag returns the tag of a new world, shifted into the top 8 bits
// of a gen field: the number of worlds made before it, modulo 256 (the
// shift drops the rest), so the first world of a process has tag 0.
func nextWorldTag() uint32 {
	return (worldCount.Add(1) - 1) << genBits
}

// foreign reports whether e, not the zero Entity nor a pending entity of a
// Commands buffer, was made by another world: its tag is not w's. Off the
// fast path: only the panic messages ask.
func (w *World) foreign(e Entity) bool {
	return e.index != 0 && e.gen&^genMask != w.entities.tag
}

// deadMessage is the panic message for e, which is not alive in w, naming
// the operation op and the type info describes (if any): "belongs to
// another world" when e carries another world's tag, "is not alive"
// otherwise.
func (w *World) deadMessage(op string, e Entity, info *componentInfo) string {
	if w.foreign(e) {
		return fmt.Sprintf("ecs: %s: entity %v belongs to another world", opName(op, info), e)
	}
	return fmt.Sprintf("ecs: %s: entity %v is not alive", opName(op, info), e)
}

package ecs

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// TypeSet is a fixed set of component types of one world, made once and
// reused: the types an Exchange takes away ([Map.Exchange],
// [Map2.Exchange] and the like). Make one with [NewTypeSet]; the zero
// value is invalid.
type TypeSet struct {
	w     *World
	ids   []componentID
	infos []*componentInfo
}

// NewTypeSet returns the set of the given types in w, registering them on
// their first use. Panics if a type is listed twice or the zero
// ComponentType is given, or inside a parallel section (make sets once,
// outside systems). Complexity: O(len(types)).
func NewTypeSet(w *World, types ...ComponentType) *TypeSet {
	w.mustNotMakeShared("NewTypeSet", "handle")
	s := &TypeSet{w: w}
	for _, c := range types {
		if c.id == nil {
			panic("ecs: NewTypeSet: the zero ComponentType; make one with ecs.C")
		}
		id := c.id(&w.reg)
		s.ids = append(s.ids, id)
		s.infos = append(s.infos, w.reg.infos[id])
	}
	checkDistinct(w, "NewTypeSet", s.ids)
	return s
}

// String names the set's types, as "[main.Idle,main.Run]".
func (s *TypeSet) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, info := range s.infos {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(info.typ.String())
	}
	b.WriteByte(']')
	return b.String()
}

// exchange begins an Exchange: e loses the types of rm it has and gains
// every type of the bundle, in one table move; p receives where the values
// go. The OnRemove hooks of the removed types run first, while e still
// has them, with the world locked until the exchange ends; while changes
// are deferred the exchange is judged as an Add of the bundle's types and
// queued as one change.
func (b *bundle) exchange(e Entity, rm *TypeSet, p []unsafe.Pointer) put {
	w := b.w
	op := handleOp(b.handle, b.infos, "Exchange")
	b.checkExchange("Exchange", rm)
	r := w.checkAliveN(b.handle, b.infos, "Exchange", e)
	if w.lock > 0 {
		w.mustNotShare("Exchange", b.infos[0])
		for _, info := range b.infos {
			w.judgeAdd(e, r, info, false)
		}
		off := b.stageExchange(&w.cmds, rm, p)
		w.queue(command{kind: cmdExchangeN, e: e, id: componentID(len(b.ids)), slot: off})
		return put{e: e}
	}
	for _, info := range b.infos {
		if w.hasComponent(e, r, info) {
			panic(fmt.Sprintf("ecs: %s: entity %v already has %v; use Set to overwrite", op, e, info.typ))
		}
	}
	dst, row, locked := w.exchangeMove(e, r, rm.ids, b.ids, 1)
	for i, info := range b.infos {
		p[i] = putSlot(e, dst, row, dst.column(info.id), info, false)
	}
	return put{e: e, mode: putMoved, unlock: locked}
}

// checkExchange panics, naming the handle and op, if rm is nil or of
// another world, or holds one of the bundle's types.
func (b *bundle) checkExchange(op string, rm *TypeSet) {
	if rm == nil || rm.w != b.w {
		panic(fmt.Sprintf("ecs: %s: the TypeSet is nil or belongs to another world", handleOp(b.handle, b.infos, op)))
	}
	for _, info := range b.infos {
		if slices.Contains(rm.ids, info.id) {
			panic(fmt.Sprintf("ecs: %s: %v is both removed (TypeSet %v) and added; use Set to overwrite it", handleOp(b.handle, b.infos, op), info.typ, rm))
		}
	}
}

// stageExchange appends to buf.multi the entries of an exchange (the
// number of types removed, their ids, then a component id and staging
// slot per type added), fills p with the added values' staging slots and
// returns the entries' offset.
func (b *bundle) stageExchange(buf *commandBuffer, rm *TypeSet, p []unsafe.Pointer) uint32 {
	off := uint32(len(buf.multi))
	buf.multi = append(buf.multi, componentID(len(rm.ids)))
	buf.multi = append(buf.multi, rm.ids...)
	b.stage(buf, p)
	return off
}

// exchangeMove takes from the live entity e (record r) the types rm it
// has, after their OnRemove hooks ran, and gives it the table types among
// every stride-th id of adds, in one move; the caller writes the added
// values (sparse ones through putSlot) and fires their OnAdd hooks. It
// returns e's table and row, and whether the hooks left the world locked
// (the caller unlocks once the adds' hooks ran, so the changes the hooks
// made wait for the whole exchange).
func (w *World) exchangeMove(e Entity, r *record, rm, adds []componentID, stride int) (*table, uint32, bool) {
	locked := false
	if w.hooked {
		w.removingE, w.removingIDs = e, w.removingIDs[:0]
		for _, id := range rm {
			if w.hasComponent(e, r, w.reg.infos[id]) {
				w.removingIDs = append(w.removingIDs, id)
			}
		}
		for _, id := range w.removingIDs {
			info := w.reg.infos[id]
			if h := info.hooks; h != nil && len(h.onRemove) > 0 {
				if !locked {
					w.lock++
					locked = true
				}
				// The record is read again for each hook (see addedAll).
				if r := w.entities.at(e.index); w.hasComponent(e, r, info) {
					w.runHooks(hookOnRemove, info, h.onRemove, e, w.componentAt("Remove", e, r, info))
				}
			}
		}
		w.removingE = Entity{}
		r = w.entities.at(e.index) // the hooks may have spawned: the index may have moved
	}
	src := w.tableOf(r)
	dst := src
	for _, id := range rm {
		if s := w.reg.infos[id].sparse; s != nil {
			w.enter("Exchange")
			s.remove(e)
			w.leave()
		} else if dst.column(id) >= 0 {
			dst = w.withoutComponent(dst, id)
		}
	}
	for i := 0; i < len(adds); i += stride {
		if w.reg.infos[adds[i]].sparse == nil {
			dst = w.withComponent(dst, adds[i])
		}
	}
	row := r.row
	if dst != src {
		row = w.move(e, r, dst)
	}
	return dst, row, locked
}

// exchangeMany applies a cmdExchangeN of b (entries: the number of types
// removed, their ids, then a component id and staging slot per type added)
// to the live entity e, as bundle.exchange applies one now.
func (w *World) exchangeMany(e Entity, r *record, b *commandBuffer, entries []componentID) {
	nrm := uint32(entries[0])
	rm, pairs := entries[1:1+nrm], entries[1+nrm:]
	var had uint16 // a queued batch may have given e an added type: overwritten
	for i := 0; i < len(pairs); i += 2 {
		if w.hasComponent(e, r, w.reg.infos[pairs[i]]) {
			had |= 1 << (i / 2)
		}
	}
	dst, row, locked := w.exchangeMove(e, r, rm, pairs, 2)
	for i := 0; i < len(pairs); i += 2 {
		info := w.reg.infos[pairs[i]]
		p := putSlot(e, dst, row, dst.column(info.id), info, had&(1<<(i/2)) != 0)
		info.copy1(p, b.staging[info.id].col.at(uint32(pairs[i+1])))
	}
	if w.notify {
		if w.hooked {
			w.addedMany(e, pairs, had)
		}
		w.settle()
	}
	if locked {
		w.unlock()
	}
}

// exchangeEntries returns the entries of a cmdExchangeN of b.
func (b *commandBuffer) exchangeEntries(c *command) []componentID {
	nrm := uint32(b.multi[c.slot])
	return b.multi[c.slot : c.slot+1+nrm+2*uint32(c.id)]
}

package ecs

import "reflect"

// report tells the world's access checker of a change of the given kind
// recorded in c by op, and info the type it adds or removes (nil for a
// despawn). A despawn of a live entity is reported with every component
// type the entity has, table and sparse, so that a scheduler can check that
// the system declared what its despawns take away.
func (c *Commands) report(kind AccessKind, op string, e Entity, info *componentInfo) {
	w := c.w
	if kind == DespawnAccess {
		w.checker.CheckAccess(DespawnAccess, nil, true, op)
		r := w.entities.lookup(e)
		if r == nil {
			return // a pending entity: its components are reported as they are added
		}
		for _, id := range w.tableOf(r).ids {
			w.checker.CheckAccess(DespawnAccess, w.reg.infos[id].typ, true, op)
		}
		for _, s := range w.sparse {
			if s.has(e) {
				w.checker.CheckAccess(DespawnAccess, s.info.typ, true, op)
			}
		}
		return
	}
	w.checker.CheckAccess(kind, typeOf(info), true, op)
}

func typeOf(info *componentInfo) reflect.Type {
	if info == nil {
		return nil
	}
	return info.typ
}

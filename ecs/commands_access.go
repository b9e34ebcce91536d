package ecs

import "reflect"

// report tells the world's access checker of a change recorded in c: op
// is Despawn, AddCmd or RemoveCmd, and info the type it adds or removes
// (nil for Despawn). A despawn of a live entity is reported with every
// component type the entity has, table and sparse, so that a scheduler can
// check that the system declared what its despawns take away.
func (c *Commands) report(op string, e Entity, info *componentInfo) {
	w := c.w
	switch op {
	case "Despawn":
		w.checker.CheckAccess(DespawnAccess, nil, true, op)
		r := w.entities.lookup(e)
		if r == nil {
			return // a pending entity: its components are reported as they are added
		}
		for _, id := range r.table.ids {
			w.checker.CheckAccess(DespawnAccess, w.reg.infos[id].typ, true, op)
		}
		for _, s := range w.sparse {
			if s.has(e) {
				w.checker.CheckAccess(DespawnAccess, s.info.typ, true, op)
			}
		}
	case "RemoveCmd":
		w.checker.CheckAccess(RemoveAccess, typeOf(info), true, op)
	default:
		w.checker.CheckAccess(AddAccess, typeOf(info), true, op)
	}
}

func typeOf(info *componentInfo) reflect.Type {
	if info == nil {
		return nil
	}
	return info.typ
}

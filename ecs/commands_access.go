package ecs

import "reflect"

// report tells the world's access checker of a change of the given kind
// recorded in c by op, and info the type it adds or removes (nil for a
// despawn). A despawn of a live entity is reported with every component
// type the entity has, table and sparse (a relation's types among them),
// and with those of every entity its despawn would take away with it,
// through the relations whose policy is DespawnSources, so that a
// scheduler can check that the system declared what its despawns take
// away.
func (c *Commands) report(kind AccessKind, op string, e Entity, info *componentInfo) {
	w := c.w
	if kind != DespawnAccess {
		w.checker.CheckAccess(kind, typeOf(info), true, op)
		return
	}
	w.checker.CheckAccess(DespawnAccess, nil, true, op)
	if w.entities.lookup(e) == nil {
		return // a pending entity: its components are reported as they are added
	}
	w.reportTypesOf(e, op)
	// The cascade, as the world finds it now (applying the buffer walks it
	// again): each entity once, even through a cycle a file left.
	var seen map[Entity]bool
	var via []string // op for the entities reached through each relation
	stack := []Entity{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, r := range w.relations {
			if r.policy != DespawnSources {
				continue
			}
			for _, s := range r.sources(x) {
				if seen == nil {
					seen = map[Entity]bool{e: true}
				}
				if seen[s] {
					continue
				}
				seen[s] = true
				if via == nil {
					via = make([]string, len(w.relations))
				}
				if via[r.index] == "" {
					via[r.index] = op + " of " + e.String() + ", cascading through " + r.name()
				}
				w.reportTypesOf(s, via[r.index])
				stack = append(stack, s)
			}
		}
	}
}

// reportTypesOf reports every component type e, a live entity, has to the
// checker as a despawn's.
func (w *World) reportTypesOf(e Entity, op string) {
	for _, id := range w.tableOf(w.entities.lookup(e)).ids {
		w.checker.CheckAccess(DespawnAccess, w.reg.infos[id].typ, true, op)
	}
	for _, s := range w.sparse {
		if s.has(e) {
			w.checker.CheckAccess(DespawnAccess, s.info.typ, true, op)
		}
	}
}

func typeOf(info *componentInfo) reflect.Type {
	if info == nil {
		return nil
	}
	return info.typ
}

package ecs

import (
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Reflection is the type-erased view of a world, for tools such as the
// inspector (package inspect), debug consoles and editors: what they need
// to list types, find entities and read or decode values without the type
// parameters that game code uses. Get one with [World.Reflect]; it is a
// small value holding the world, free to make and copy, and valid as long
// as the world. Its calls box values and allocate; game code uses Map and
// queries instead. Writes go through a [Commands] buffer
// ([Commands.SetValue], [Commands.RemoveValue]).
type Reflection struct{ w *World }

// Reflect returns w's type-erased view for tools (see [Reflection]).
// Keeping those calls behind it leaves World's own methods to game code
// and persistence. Complexity: O(1), no allocation. (Ark puts its id-level
// API behind World.Unsafe in the same way.)
func (w *World) Reflect() Reflection { return Reflection{w} }

// ComponentInfo describes one component type a world knows, for tools such
// as the inspector (package inspect), debug consoles and editors: the
// reflection a type-erased caller needs, without the type parameter.
type ComponentInfo struct {
	Type    ComponentType // for Value, Entities, Commands.SetValue and filters
	Name    string        // the stable name: the Name option, or package path and type name
	GoType  reflect.Type  // the Go type
	Storage Storage       // TableStorage or SparseStorage
	Tracked bool          // the type keeps change ticks (TrackChanges)
	Count   int           // entities that have it
}

// Components describes every component type the world knows (used or
// registered), in id order: the order the world first met them. The types
// relations keep their pairs in are left out (use the Relation's own
// calls). Meant for tools, not hot loops: it allocates the slice.
// Complexity: O(types + tables).
func (r Reflection) Components() []ComponentInfo {
	w := r.w
	counts := make([]int, len(w.reg.infos))
	for _, t := range w.tables {
		for _, id := range t.ids {
			counts[id] += len(t.entities)
		}
	}
	var out []ComponentInfo
	for i, info := range w.reg.infos {
		if info.relation {
			continue
		}
		c := ComponentInfo{Type: info.ct, Name: info.name, GoType: info.typ, Tracked: info.track, Count: counts[i]}
		if info.sparse != nil {
			c.Storage = SparseStorage
			c.Count = info.sparse.len()
		}
		out = append(out, c)
	}
	return out
}

// ComponentNamed returns the component type the world knows by the stable
// name name (see [Name]), or false. Complexity: O(types).
func (r Reflection) ComponentNamed(name string) (ComponentType, bool) {
	if info := r.w.reg.named(name); info != nil && !info.relation {
		return info.ct, true
	}
	return ComponentType{}, false
}

// known returns the info of c in w, or nil when w has not met c's type
// (never registering it, unlike the typed paths) or when it is a type a
// relation keeps its pairs in.
func (w *World) known(c ComponentType) *componentInfo {
	id, ok := w.reg.byType[c.typ]
	if !ok || w.reg.infos[id].relation {
		return nil
	}
	return w.reg.infos[id]
}

// EntityAt returns the living entity with index index and its current
// generation, or false when no living entity has that index: how a tool
// turns a number a user typed into a handle. Complexity: O(1).
func (r Reflection) EntityAt(index uint32) (Entity, bool) {
	x := &r.w.entities
	if index == 0 || uint64(index) >= uint64(len(x.recs)) || x.recs[index].slot == deadSlot {
		return Entity{}, false
	}
	return Entity{index, x.recs[index].gen}, true
}

// ComponentsOf appends to dst the component types e has: its table's in id
// order, then its sparse ones in registration order, without the types
// relations keep their pairs in. Panics if e is not
// alive (check with [World.Alive]). Complexity: O(its table's types +
// sparse types).
func (x Reflection) ComponentsOf(e Entity, dst []ComponentType) []ComponentType {
	w := x.w
	r := w.entities.lookup(e)
	if r == nil {
		panic(w.deadMessage("Reflection.ComponentsOf", e, nil))
	}
	for _, col := range w.tableOf(r).columns {
		if !col.info.relation {
			dst = append(dst, col.info.ct)
		}
	}
	for _, s := range w.sparse {
		if !s.info.relation && s.has(e) {
			dst = append(dst, s.info.ct)
		}
	}
	return dst
}

// Value returns a copy of e's component of type c, boxed in an any whose
// dynamic type is the component type, or false when e is not alive or has
// none (or the world has never met the type). Boxing allocates; use
// [Map.Get] in systems. Complexity: O(1) plus the copy.
func (x Reflection) Value(e Entity, c ComponentType) (any, bool) {
	w := x.w
	info := w.known(c)
	r := w.entities.lookup(e)
	if info == nil || r == nil {
		return nil, false
	}
	var p unsafe.Pointer
	if info.sparse != nil {
		p = info.sparse.get(e)
	} else if col := w.tableOf(r).column(info.id); col >= 0 {
		p = w.tableOf(r).columns[col].at(r.row)
	}
	if p == nil {
		return nil, false
	}
	return reflect.NewAt(info.typ, p).Elem().Interface(), true
}

// Entities returns the living entities that have every type of with and
// none of without, in table order (tables in creation order, rows in table
// order: the order of a query whose types are all table-stored). Types the
// world has never met match no entity in with and every entity in without.
// Structural changes made in the loop body wait until the loop ends, as in
// a query loop. A tool that pages through a large world skips and takes
// from the sequence (package inspect does). Complexity: O(tables) to find
// the matching ones, plus O(1) per entity yielded, plus a sparse lookup per
// row of the matching tables for each sparse type of with and without.
func (r Reflection) Entities(with, without []ComponentType) iter.Seq[Entity] {
	w := r.w
	var all, none bitset
	var sparseAll, sparseNone []*sparseSet
	for _, c := range with {
		info := w.known(c)
		if info == nil {
			return func(func(Entity) bool) {}
		}
		if info.sparse != nil {
			sparseAll = append(sparseAll, info.sparse)
		} else {
			all.set(info.id)
		}
	}
	for _, c := range without {
		if info := w.known(c); info != nil && info.sparse != nil {
			sparseNone = append(sparseNone, info.sparse)
		} else if info != nil {
			none.set(info.id)
		}
	}
	return func(yield func(Entity) bool) {
		defer w.unlockPass(w.lockPass(nil))
		for _, t := range w.tables {
			if len(t.entities) == 0 || !t.mask.containsAll(all) || t.mask.intersects(none) {
				continue
			}
			for _, e := range t.entities {
				if slices.ContainsFunc(sparseAll, func(s *sparseSet) bool { return !s.has(e) }) ||
					slices.ContainsFunc(sparseNone, func(s *sparseSet) bool { return s.has(e) }) {
					continue
				}
				if !yield(e) {
					return
				}
			}
		}
	}
}

// ResourceInfo describes one resource of a world, for tools.
type ResourceInfo struct {
	Name   string       // package path and type name, as in save files
	GoType reflect.Type // the resource's type T
	Value  any          // a *T pointing at the world's value: read or write it between ticks only
}

// Resources describes every resource the world holds, sorted by name.
// Meant for tools: it allocates. Complexity: O(resources log resources).
func (r Reflection) Resources() []ResourceInfo {
	var out []ResourceInfo
	for t, slot := range r.w.resources {
		if p := slot.(resourceHolder).pointer(); p != nil {
			out = append(out, ResourceInfo{typeName(t), t, reflect.NewAt(t, p).Interface()})
		}
	}
	slices.SortFunc(out, func(a, b ResourceInfo) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// SetValue records giving e the component v, whose dynamic type is the
// component type (as [Reflection.Value] returns it or
// [Reflection.DecodeValue] makes it): the type-erased twin of [Map.SetCmd]
// for tools, with the same effect when the buffer is applied (an add, or an
// overwrite that fires OnSet). Panics if v's type is not a component type of
// the buffer's world (one it has met, and not one a relation keeps its pairs
// in), or as SetCmd does. Complexity: as SetCmd, plus boxing.
func (c *Commands) SetValue(e Entity, v any) {
	info := c.w.known(ComponentType{typ: reflect.TypeOf(v)})
	if v == nil || info == nil {
		panic(fmt.Sprintf("ecs: SetValue: entity %v: %T is not a component type of this world", e, v))
	}
	c.check(AddAccess, "SetValue", e, c.w, info)
	s := c.buf.stagingFor(info)
	slot := s.n
	if slot == s.capacity {
		s.grow()
	}
	s.n++
	val := reflect.ValueOf(v)
	tmp := reflect.New(info.typ)
	tmp.Elem().Set(val)
	info.copy1(s.col.at(slot), tmp.UnsafePointer())
	c.push(command{kind: cmdAdd, e: e, id: info.id, slot: slot})
}

// RemoveValue records taking the component of type t away from e: the
// type-erased twin of [Map.RemoveCmd]. Panics if w has never met t, or as
// RemoveCmd does.
func (c *Commands) RemoveValue(e Entity, t ComponentType) {
	info := c.w.known(t)
	if info == nil {
		panic(fmt.Sprintf("ecs: RemoveValue: entity %v: %v is not a component type of this world", e, t))
	}
	c.check(RemoveAccess, "RemoveValue", e, c.w, info)
	c.push(command{kind: cmdRemove, e: e, id: info.id})
}

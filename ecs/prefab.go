package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Prefab is an entity template, a root and its tree of children through
// [ChildOf], from which instances are spawned, one at a time or in
// batches (flecs' prefabs, Unity's and Bevy's scenes). [NewPrefab] copies
// the tree's components, its entities' relation pairs and its shape out of
// the world once; the prefab owns those copies, so the template entities
// can be despawned, or changed, without changing the prefab, and changing
// the prefab (through [PrefabValue]) leaves the instances spawned before
// alone: an instance is a copy, not a link (unlike flecs' IsA).
//
// Each instance gets new entities, one per node of the tree, in the same
// tables as the template's, with copies of the values (by the rules of
// [World.CopyEntity]: a Cloner's Clone method per instance). Entity values
// inside the copies that name a node of the tree, in fields, arrays and
// the slices of Cloner types, are rewritten to the instance's entity for
// that node, so a turret that aims at its own ship's radar aims at its
// own instance's. Relation pairs are copied for each node as a source:
// pairs inside the tree point inside the instance (the children's
// ChildOf pairs make the instance's tree); pairs to entities outside the
// tree point at the same entities, and are left out when those have died
// since. The root's own ChildOf pair is left out: an instance starts as a
// root (use [Hierarchy.SetParent] to attach it).
//
// The spawn plan (tables, where each value goes, which values hold
// entities) is built once, so a batch of n instances costs about n batch
// spawns of the same entities: each node's rows are made in one pass per
// table. A Prefab belongs to its world and, like the world, is not safe
// for concurrent use.
type Prefab struct {
	w     *World
	nodes []prefabNode
	index map[Entity]int // the template's entities, by node
	walks map[*componentInfo]*entityWalk
	inst  []Entity // one instance's entities, reused by init calls
	// fanIn and each node's fixes and deep are the spawn plan (see
	// plan), valid while planned.
	fanIn   []prefabFanIn
	planned bool
	// fanFirst holds per node 1 + the position in fanIn of the node's
	// latest entry (0: none); fanNext holds per entry of fanIn 1 + the
	// position of the same node's entry before it (0: none): a node's
	// entries, one per relation, are a short chain (see countFanIn).
	fanFirst, fanNext []int32
}

// prefabNode is one entity of the template: its table, one stored value
// per column (nil where the column's values are empty) and its sparse
// values, relations' sides included.
type prefabNode struct {
	template Entity
	table    *table
	cols     []unsafe.Pointer
	sparse   []prefabValue
	infos    []*componentInfo // every type, table ones first, for hooks
	fixes    []prefabFix      // entities in the values that name nodes
	deep     []int            // slots whose slices hold entities (see prefabFix.slot)
}

// prefabValue is one stored value of a sparse type.
type prefabValue struct {
	set *sparseSet
	v   unsafe.Pointer
}

// NewPrefab makes a prefab of root and, when the world has a [ChildOf]
// relation, every entity below root, in the order of
// [Hierarchy.Descendants] (node 0 is the root). The targets' side of each
// relation is not copied: a node's sources outside the tree stay with
// the template. Panics if root is not alive or belongs to another world,
// inside a parallel section, and, naming the type, when a component
// cannot be copied by the rules of [World.Snapshot] (see [World.CopyEntity]).
// Complexity: O(components and pairs of the tree).
func NewPrefab(w *World, root Entity) *Prefab {
	w.mustNotShare("NewPrefab", nil)
	if w.entities.lookup(root) == nil {
		panic(w.deadMessage("NewPrefab", root, nil))
	}
	p := &Prefab{w: w, index: map[Entity]int{}, walks: map[*componentInfo]*entityWalk{}}
	tree := []Entity{root}
	childOf := w.relationOf[reflect.TypeFor[ChildOf]()]
	if childOf != nil {
		for e := range (&Hierarchy{rel: &Relation[ChildOf]{childOf}}).Descendants(root) {
			tree = append(tree, e)
		}
	}
	for i, e := range tree {
		w.mustClone("NewPrefab", e, w.entities.lookup(e))
		p.index[e] = i
	}
	w.beginMethods("NewPrefab") // Clone methods run
	defer w.endMethods()
	for _, e := range tree {
		p.nodes = append(p.nodes, p.capture(e, e == root, childOf))
	}
	return p
}

// capture copies e's values into a new node.
func (p *Prefab) capture(e Entity, root bool, childOf *relation) prefabNode {
	w := p.w
	r := w.entities.at(e.index)
	t := w.tableOf(r)
	// The instances start in the table of the template's component types
	// alone and move to their targets' tables after (placeSplit): the
	// template's table may be one of its split relations' target.
	n := prefabNode{template: e, table: w.tableFor(t.ids), cols: make([]unsafe.Pointer, len(t.columns))}
	for i := range t.columns {
		col := &t.columns[i]
		n.infos = append(n.infos, col.info)
		p.walk(col.info)
		if col.size != 0 {
			n.cols[i] = col.info.alloc(1)
			copyByPolicy(col.info, n.cols[i], col.at(r.row), 1)
		}
	}
	for _, s := range w.sparse {
		src := s.get(e)
		if src == nil || s.relIn || (root && s.rel == childOf && childOf != nil) {
			continue
		}
		v := s.info.alloc(1)
		copyByPolicy(s.info, v, src, 1)
		n.sparse = append(n.sparse, prefabValue{s, v})
		n.infos = append(n.infos, s.info)
		p.walk(s.info)
	}
	return n
}

// walk records the entity walk of info's type, once.
func (p *Prefab) walk(info *componentInfo) {
	if _, ok := p.walks[info]; !ok {
		p.walks[info] = entityWalkOf(info.typ)
	}
}

// Len returns the number of entities in each instance: the root and its
// descendants when the prefab was made.
func (p *Prefab) Len() int { return len(p.nodes) }

// Node returns the node number of a template entity (0 for the root), the
// index of that entity's instance in the slice SpawnBatchFunc's init
// receives, and whether the entity was in the template.
func (p *Prefab) Node(template Entity) (int, bool) {
	i, ok := p.index[template]
	return i, ok
}

// PrefabValue returns a pointer to the prefab's stored value of type T
// for node (0 for the root), through which the prefab can be changed:
// instances spawned afterwards get the new value, those spawned before
// keep theirs. It returns nil when the node has no T. Panics when node is
// out of range or T is not a registered component type of the prefab's
// world. Complexity: O(the node's components).
func PrefabValue[T any](p *Prefab, node int) *T {
	if node < 0 || node >= len(p.nodes) {
		panic(fmt.Sprintf("ecs: PrefabValue[%v]: node %d out of range [0, %d)", reflect.TypeFor[T](), node, len(p.nodes)))
	}
	id, ok := p.w.reg.byType[reflect.TypeFor[T]()]
	if !ok {
		panic(fmt.Sprintf("ecs: PrefabValue[%v]: not a component type of this world", reflect.TypeFor[T]()))
	}
	p.planned = false // the caller may change an Entity in the value
	n := &p.nodes[node]
	if c := n.table.column(id); c >= 0 {
		if n.cols[c] == nil {
			return new(T) // an empty type: nothing stored to change
		}
		// SAFETY: n.cols[c] holds one value of column c's type in n.table,
		// T's id.
		return (*T)(n.cols[c])
	}
	for _, v := range n.sparse {
		if v.set.info.id == id {
			// SAFETY: v.v holds one value of v.set's type, which is T's id.
			return (*T)(v.v)
		}
	}
	return nil
}

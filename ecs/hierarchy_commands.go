package ecs

import "fmt"

// SetParentCmd records SetParent(child, parent) in c, for [World.Apply]:
// the [Relation.SetCmd] of the hierarchy's ChildOf relation. child and
// parent may be pending entities of c (from [Commands.Spawn], a SpawnCmd
// or [Prefab.SpawnCmdNodes]), so a buffer can build a whole tree before
// any of it exists. When applied it reparents child as SetParent does,
// and does nothing if either entity is dead by then. Panics now when
// child is parent (a cycle, whatever the buffer holds), when either is
// neither alive nor pending in c, and when c belongs to another world.
// Other cycles depend on the tree at Apply time, which the changes
// recorded before (in c and in buffers applied earlier) may change, so
// they are refused when applied: World.Apply panics, naming both
// entities, as SetParent does, and the changes recorded after it in c are
// dropped with the rest of c, as when a hook panics. Complexity: O(1) to
// record, allocating a small closure; applied as SetParent, O(depth of
// parent + children of the old parent). (Deferred reparenting: Bevy's
// EntityCommands::set_parent, flecs' deferred mode.)
func (h *Hierarchy) SetParentCmd(c *Commands, child, parent Entity) {
	r := h.rel.r
	if child == parent && r.acyclic && c.w == r.w && c.valid(child) {
		panic(fmt.Sprintf("ecs: Hierarchy.SetParentCmd: making %v its own parent would close a cycle (acyclic relation)", child))
	}
	h.rel.SetCmd(c, child, parent, ChildOf{})
}

// RemoveParentCmd records RemoveParent(child) in c: the
// [Relation.RemoveTargetsCmd] of the ChildOf relation. child may be a
// pending entity of c. When applied it makes child a root, and does
// nothing if child is a root or dead by then. Panics now when child is
// neither alive nor pending in c, and when c belongs to another world.
// Complexity: O(1) to record, allocating a small closure; applied in
// O(children of the parent).
func (h *Hierarchy) RemoveParentCmd(c *Commands, child Entity) {
	h.rel.RemoveTargetsCmd(c, child)
}

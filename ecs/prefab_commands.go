package ecs

// SpawnCmd records the spawn of one instance of the prefab in c, for
// [World.Apply], and returns the instance's root as a pending entity of c:
// further changes recorded on it (a Map.SetCmd that overrides a value)
// apply after the instance is filled. The instance's entities are spawned
// empty where the spawn is recorded in the buffer's order and receive
// their components and pairs from the prefab as it is when the buffer is
// applied, with the hooks and observers of [Prefab.Spawn]; if one of them
// was despawned or given a component before that, the instance stays as
// it is. This is how a system under package sched, which records into a
// Commands buffer, spawns prefabs: the spawn reports to the access checker
// a spawn and an add of every component type and relation of the prefab.
// [Prefab.SpawnCmdNodes] hands out every node's pending entity, for
// overrides below the root. Panics if c belongs to another world.
// Complexity: O(nodes) to record, allocating a closure.
func (p *Prefab) SpawnCmd(c *Commands) Entity { return p.spawnCmd(c, "Prefab.SpawnCmd") }

// SpawnCmdNodes records the spawn of one instance as [Prefab.SpawnCmd]
// does, and appends the pending entities of all its nodes to dst, in node
// order (the root first; [Prefab.Node] gives the node of a template
// entity), returning the extended slice: [Prefab.Len] entities, the same
// shape as the slice [Prefab.SpawnBatchFunc]'s init receives. Changes
// recorded in c on those entities afterwards, with the usual Cmd verbs
// ([Map.SetCmd] to override a node's value, [Relation.SetCmd], a
// despawn), apply after the instance is filled: the OnAdd hooks of the
// instance see the prefab's values, an override of a type the node has
// fires OnSet with the new value as any Map.SetCmd does, and enter
// observers and pair hooks, settled once at the end of the Apply, see the
// final values. Panics if c belongs to another world. Complexity:
// O(nodes) to record, allocating a closure, and dst's growth when it has
// no room. (The pending entities are Bevy's Commands::spawn ids,
// reserved ahead of the spawn, one per node of the instance.)
func (p *Prefab) SpawnCmdNodes(c *Commands, dst []Entity) []Entity {
	root := p.spawnCmd(c, "Prefab.SpawnCmdNodes")
	for i := range p.nodes {
		dst = append(dst, Entity{0, root.gen + uint32(i)})
	}
	return dst
}

// spawnCmd records one instance's spawn in c, naming op in panics and
// reports, and returns the root's pending entity; the other nodes' are
// the numbers that follow it.
func (p *Prefab) spawnCmd(c *Commands, op string) Entity {
	if c.w != p.w {
		panic("ecs: " + op + ": the Commands buffer belongs to another world")
	}
	for i := range p.nodes {
		c.checkN(SpawnAccess, op, nil, c.w, "Prefab", p.nodes[i].infos)
	}
	k := len(p.nodes)
	var root Entity
	for i := range k {
		e := c.pending() // consecutive numbers: root.gen+i for node i
		if i == 0 {
			root = e
		}
		c.push(command{kind: cmdSpawn, e: e})
	}
	c.recordFunc(func(b *commandBuffer) {
		inst := make([]Entity, k)
		for i := range inst {
			inst[i] = b.resolve(Entity{0, root.gen + uint32(i)})
		}
		p.fillLater(inst, 0, nil)
	})
	return root
}

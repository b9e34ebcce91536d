package ecs

// SpawnCmd records the spawn of one instance of the prefab in c, for
// [World.Apply], and returns the instance's root as a pending entity of c:
// further changes recorded on it (a Map.AddCmd that overrides a value)
// apply after the instance is filled. The instance's entities are spawned
// empty where the spawn is recorded in the buffer's order and receive
// their components and pairs from the prefab as it is when the buffer is
// applied, with the hooks and observers of [Prefab.Spawn]; if one of them
// was despawned or given a component before that, the instance stays as
// it is. This is how a system under package sched, which records into a
// Commands buffer, spawns prefabs: the spawn reports to the access checker
// a spawn and an add of every component type and relation of the prefab.
// Panics if c belongs to another world. Complexity: O(nodes) to record,
// allocating the instance's list of pending entities and a closure.
func (p *Prefab) SpawnCmd(c *Commands) Entity {
	if c.w != p.w {
		panic("ecs: Prefab.SpawnCmd: the Commands buffer belongs to another world")
	}
	for i := range p.nodes {
		c.checkN(SpawnAccess, "Prefab.SpawnCmd", nil, c.w, "Prefab", p.nodes[i].infos)
	}
	pending := make([]Entity, len(p.nodes))
	for i := range pending {
		pending[i] = c.pending()
		c.push(command{kind: cmdSpawn, e: pending[i]})
	}
	c.recordFunc(func(b *commandBuffer) {
		inst := make([]Entity, len(pending))
		for i, e := range pending {
			inst[i] = b.resolve(e)
		}
		p.fillLater(inst, 0, nil)
	})
	return pending[0]
}

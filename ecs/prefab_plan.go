package ecs

import (
	"slices"
	"unsafe"
)

// The spawn plan of a prefab: what finish does besides copying values,
// worked out once from the stored values (again after PrefabValue hands
// out a pointer, which may change an Entity in them).

// prefabFix is one Entity held directly by a node's value (a field or an
// array element) that names a node of the tree: each instance's copy is
// pointed at the instance's entity for that node.
type prefabFix struct {
	slot int // the table column, or -1-i for the node's i-th sparse value
	off  uintptr
	node int
}

// prefabFanIn is a node that is the target of count pairs of rel from
// inside the tree: each instance's list of its sources is allocated with
// room for them, from one block per batch.
type prefabFanIn struct {
	rel   *relation
	node  int
	count int
}

// plan works out each node's fixes and deep values and the prefab's
// fan-in. Complexity: O(the tree's values and pairs).
func (p *Prefab) plan() {
	p.resetFanIn()
	for j := range p.nodes {
		nd := &p.nodes[j]
		nd.fixes, nd.deep = nd.fixes[:0], nd.deep[:0]
		for c, v := range nd.cols {
			p.planValue(nd, c, nd.table.columns[c].info, v)
		}
		for i, sv := range nd.sparse {
			p.planValue(nd, -1-i, sv.set.info, sv.v)
			if r := sv.set.rel; r != nil {
				for _, t := range storedTargets(r, sv.v) {
					if k, ok := p.index[t]; ok {
						p.countFanIn(r, k)
					}
				}
			}
		}
	}
	p.planned = true
}

// planValue records the fixes of the stored value v (of node nd's slot),
// and the slot as deep when its slices hold entities to rewrite.
func (p *Prefab) planValue(nd *prefabNode, slot int, info *componentInfo, v unsafe.Pointer) {
	wk := p.walks[info]
	if wk == nil || v == nil {
		return
	}
	for _, off := range wk.at {
		// SAFETY: the walk was built from info's type: an Entity lies at off.
		if k, ok := p.index[*(*Entity)(unsafe.Add(v, off))]; ok {
			nd.fixes = append(nd.fixes, prefabFix{slot, off, k})
		}
	}
	if len(wk.slices) > 0 && info.snap == cloneValues {
		nd.deep = append(nd.deep, slot)
	}
}

// resetFanIn empties the fan-in and the chains that find a node's
// entries in it (see Prefab.fanFirst).
func (p *Prefab) resetFanIn() {
	p.fanIn = p.fanIn[:0]
	p.fanNext = p.fanNext[:0]
	p.fanFirst = slices.Grow(p.fanFirst[:0], len(p.nodes))[:len(p.nodes)]
	clear(p.fanFirst)
}

// countFanIn counts one more pair of r whose target is node k, in time
// independent of how many nodes are targets: it walks node k's chain of
// entries, one per relation.
func (p *Prefab) countFanIn(r *relation, k int) {
	for at := p.fanFirst[k]; at != 0; at = p.fanNext[at-1] {
		if f := &p.fanIn[at-1]; f.rel == r {
			f.count++
			return
		}
	}
	p.fanIn = append(p.fanIn, prefabFanIn{r, k, 1})
	p.fanNext = append(p.fanNext, p.fanFirst[k])
	p.fanFirst[k] = int32(len(p.fanIn))
}

// storedTargets returns the targets in a stored pair value of r.
func storedTargets(r *relation, v unsafe.Pointer) []Entity {
	if r.exclusive {
		// SAFETY: v points to a relOne[T], whose first field is an Entity.
		return unsafe.Slice((*Entity)(v), 1)
	}
	// SAFETY: v points to a relMany[T], whose first field is a []Entity.
	return *(*[]Entity)(v)
}

// reserveSources gives node f.node of each of the n instances (ents) an
// empty list of sources of f.rel with room for the pairs the tree makes,
// the lists cut from one allocation.
func reserveSources(f prefabFanIn, ents [][]Entity, n int) {
	block := make([]Entity, n*f.count)
	for i, t := range ents[f.node][:n] {
		p, added := f.rel.in.insert(t)
		if added {
			// SAFETY: p points to t's relIn[T], whose one field is a []Entity.
			*(*[]Entity)(p) = block[i*f.count : i*f.count : (i+1)*f.count]
		}
	}
}

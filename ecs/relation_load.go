package ecs

import "unsafe"

// checkImageRelations checks the pairs of w's relations in a decoded save
// file before Load or Merge applies it, so that a file (corrupt, edited,
// or written by a program with other relations) cannot give a world whose
// two sides disagree, a pair with a dead entity, or a cycle in an acyclic
// relation: every target of a source lists it as a source and the other
// way round, once, and both are living entities of the file. state holds
// per file index 2 for a living entity.
func (w *World) checkImageRelations(d *decoder, img *loadImage, state []byte) {
	if len(w.relations) == 0 {
		return
	}
	lists := func(info *componentInfo) map[uint32][]Entity {
		out := map[uint32][]Entity{}
		for _, ls := range img.sparse {
			if ls.info != info {
				continue
			}
			for k, i := range ls.ents {
				// SAFETY: ls.values holds len(ls.ents) values of info's
				// type, a relOne (an Entity first) or a relMany or relIn
				// (a []Entity first).
				p := unsafe.Add(ls.values, uintptr(k)*info.size)
				if isRelOne(w, info) {
					out[i] = []Entity{*(*Entity)(p)}
				} else {
					out[i] = *(*[]Entity)(p)
				}
			}
		}
		return out
	}
	living := func(e Entity) bool {
		return e.index >= 1 && int(e.index) < len(state) && state[e.index] == 2 && img.gens[e.index-1] == e.gen&genMask
	}
	for _, r := range w.relations {
		targets, sources := lists(r.out.info), lists(r.in.info)
		pairs := 0
		for i, ts := range targets {
			if len(ts) == 0 {
				d.fail("%s: entity index %d holds an empty list of targets", r.name(), i)
				return
			}
			for k, t := range ts {
				if !living(t) || !containsIndex(sources[t.index], i) || containsEntity(ts[:k], t) {
					d.fail("%s: the pair (index %d, %v) is not a pair of two living entities listed on both sides once", r.name(), i, t)
					return
				}
			}
			pairs += len(ts)
		}
		for j, ss := range sources {
			for k, s := range ss {
				if !living(s) || containsEntity(ss[:k], s) {
					d.fail("%s: entity index %d lists a source %v that is not a living entity, or lists it twice", r.name(), j, s)
					return
				}
			}
			pairs -= len(ss)
		}
		if pairs != 0 {
			d.fail("%s: the targets' lists of sources and the sources' targets disagree", r.name())
			return
		}
		if r.acyclic {
			for i := range targets {
				x, n := i, 0
				for ts, ok := targets[x]; ok; ts, ok = targets[x] {
					if x = ts[0].index; x == i || n > len(targets) {
						d.fail("%s: entity index %d is its own ancestor (a cycle in an acyclic relation)", r.name(), i)
						return
					}
					n++
				}
			}
		}
	}
}

// isRelOne reports whether info is the source side of an exclusive
// relation of w.
func isRelOne(w *World, info *componentInfo) bool {
	for _, r := range w.relations {
		if r.out.info == info {
			return r.exclusive
		}
	}
	return false
}

// containsIndex reports whether es holds an entity of index i.
func containsIndex(es []Entity, i uint32) bool {
	for _, e := range es {
		if e.index == i {
			return true
		}
	}
	return false
}

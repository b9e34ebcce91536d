package ecs

import "unsafe"

// checkImageRelations checks the pairs of w's relations in a decoded save
// file before Load or Merge applies it, so that a file (corrupt, edited,
// or written by a program with other relations) cannot give a world whose
// two sides disagree, a pair with a dead entity, a Multi pair without its
// value, or a cycle in an acyclic relation: every target of a source
// lists it as a source and the other way round, once, both are living
// entities of the file, and a Multi source holds one value per target.
// state holds per file index 2 for a living entity. Complexity: O(entity
// indices + pairs) per relation, whatever the shape of the trees (a
// chain a million deep, a root with a million children).
func (w *World) checkImageRelations(d *decoder, img *loadImage, state []byte) {
	c := imagePairs{img: img, state: state} // its buffers serve every relation
	for _, r := range w.relations {
		if !c.check(d, r) {
			return
		}
	}
}

// imagePairs checks one relation of a decoded save file (see
// checkImageRelations).
type imagePairs struct {
	img   *loadImage
	state []byte
	// mark holds, per file index, the index of the entity whose list
	// last named it: a second mention in one list is a duplicate.
	mark []uint32
	// bySource holds the sources of the targets' side of the file's
	// pairs, grouped by target: target j's are
	// bySource[end[j-1]:end[j]].
	bySource []uint32
	end      []int
}

// check checks r's pairs and reports whether they are sound; if not, it
// fails d.
func (c *imagePairs) check(d *decoder, r *relation) bool {
	outs, ins := c.sparseOf(r.out.info), c.sparseOf(r.in.info)
	if outs == nil && ins == nil {
		return true
	}
	if n := len(c.state); c.mark == nil {
		c.mark, c.end = make([]uint32, n), make([]int, n+1)
	} else {
		clear(c.mark)
		clear(c.end)
	}
	pairs, ok := c.checkTargets(d, r, outs)
	if !ok {
		return false
	}
	c.groupBySource(r, outs, pairs)
	if !c.checkSources(d, r, ins, pairs) {
		return false
	}
	return !r.acyclic || c.checkAcyclic(d, r, outs)
}

// sparseOf returns the file's sparse values of info, or nil.
func (c *imagePairs) sparseOf(info *componentInfo) *loadSparse {
	for k := range c.img.sparse {
		if c.img.sparse[k].info == info {
			return &c.img.sparse[k]
		}
	}
	return nil
}

// pairList returns the entities of the k-th value of ls: the one target of a
// relOne when one, else the list of a relMany or relIn.
func pairList(ls *loadSparse, k int, one bool) []Entity {
	// SAFETY: ls.values holds len(ls.ents) values of ls.info's type, a
	// relOne (an Entity first) when one, else a relMany or relIn (a
	// []Entity first).
	p := unsafe.Add(ls.values, uintptr(k)*ls.info.size)
	if one {
		return unsafe.Slice((*Entity)(p), 1)
	}
	return *(*[]Entity)(p)
}

// valuesLen returns the number of values in the k-th value of ls, a
// relMany.
func valuesLen(ls *loadSparse, k int) int {
	// SAFETY: ls.values holds len(ls.ents) relMany values, whose Values
	// field, a slice whatever the pair type, lies at the same offset.
	p := unsafe.Add(ls.values, uintptr(k)*ls.info.size+unsafe.Offsetof(relMany[struct{}]{}.Values))
	return len(*(*[]struct{})(p))
}

// living reports whether e is a living entity of the file.
func (c *imagePairs) living(e Entity) bool {
	return e.index >= 1 && int(e.index) < len(c.state) && c.state[e.index] == 2 && c.img.gens[e.index-1] == e.gen&genMask
}

// checkTargets checks the sources' lists of targets (outs, may be nil):
// none empty, each target living and named once in its list; it counts
// the pairs per target in end[j+1] and returns the number of pairs.
func (c *imagePairs) checkTargets(d *decoder, r *relation, outs *loadSparse) (int, bool) {
	if outs == nil {
		return 0, true
	}
	pairs := 0
	for k, i := range outs.ents {
		ts := pairList(outs, k, r.exclusive)
		if len(ts) == 0 {
			d.fail("%s: entity index %d holds an empty list of targets", r.name(), i)
			return 0, false
		}
		if !r.exclusive && valuesLen(outs, k) != len(ts) {
			d.fail("%s: entity index %d holds %d targets and %d values", r.name(), i, len(ts), valuesLen(outs, k))
			return 0, false
		}
		for _, t := range ts {
			if !c.living(t) || c.mark[t.index] == i {
				d.fail("%s: the pair (index %d, %v) is not a pair of two living entities listed on both sides once", r.name(), i, t)
				return 0, false
			}
			c.mark[t.index] = i
			c.end[t.index+1]++
		}
		pairs += len(ts)
	}
	return pairs, true
}

// groupBySource fills bySource and end from the counts checkTargets left
// in end (a counting sort of the pairs by target).
func (c *imagePairs) groupBySource(r *relation, outs *loadSparse, pairs int) {
	for j := 1; j < len(c.end); j++ {
		c.end[j] += c.end[j-1]
	}
	// end[j] is now where target j's sources start; each placed source
	// moves it on, so that it ends where they end.
	c.bySource = make([]uint32, pairs)
	if outs == nil {
		return
	}
	for k, i := range outs.ents {
		for _, t := range pairList(outs, k, r.exclusive) {
			c.bySource[c.end[t.index]] = i
			c.end[t.index]++
		}
	}
}

// checkSources checks the targets' lists of sources (ins, may be nil):
// each source living and named once in its list, and each list the
// sources whose lists of targets name that target, so that both sides
// hold the same pairs.
func (c *imagePairs) checkSources(d *decoder, r *relation, ins *loadSparse, pairs int) bool {
	clear(c.mark)
	if ins != nil {
		for k, j := range ins.ents {
			ss := pairList(ins, k, false)
			for _, s := range ss {
				if !c.living(s) || c.mark[s.index] == j {
					d.fail("%s: entity index %d lists a source %v that is not a living entity, or lists it twice", r.name(), j, s)
					return false
				}
				c.mark[s.index] = j
			}
			// j is alive, so j >= 1.
			group := c.bySource[c.end[j-1]:c.end[j]]
			if len(group) != len(ss) {
				d.fail("%s: entity index %d lists %d sources, and %d entities name it as their target", r.name(), j, len(ss), len(group))
				return false
			}
			for _, i := range group {
				if c.mark[i] != j {
					d.fail("%s: the pair (index %d, index %d) is not a pair of two living entities listed on both sides once", r.name(), i, j)
					return false
				}
			}
			pairs -= len(ss)
		}
	}
	if pairs != 0 {
		d.fail("%s: the targets' lists of sources and the sources' targets disagree", r.name())
		return false
	}
	return true
}

// checkAcyclic checks that no entity is its own ancestor through the
// exclusive relation r, whose pairs checkSources found sound: each chain
// of targets is walked once, up to an entity known to reach a root, in
// one pass without recursion.
func (c *imagePairs) checkAcyclic(d *decoder, r *relation, outs *loadSparse) bool {
	if outs == nil {
		return true
	}
	target := c.mark // index 0: no target
	clear(target)
	for k, i := range outs.ents {
		target[i] = pairList(outs, k, true)[0].index
	}
	// Per file index: 0 not seen, 1 on the walk under way, 2 reaches a
	// root. Index 0 stands for "no target", the end of every chain.
	walk := make([]byte, len(target))
	walk[0] = 2
	for _, i := range outs.ents {
		x := i
		for walk[x] == 0 {
			walk[x] = 1
			x = target[x]
		}
		if walk[x] == 1 {
			d.fail("%s: entity index %d is its own ancestor (a cycle in an acyclic relation)", r.name(), x)
			return false
		}
		for x = i; walk[x] == 1; x = target[x] {
			walk[x] = 2
		}
	}
	return true
}

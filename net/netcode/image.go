package netcode

import "github.com/tessera-ecs/tessera/ecs"

// image is the replicated part of a server's world after one tick: per
// entity index the generation of the replicated entity there, and per rule
// the encoded value of each entity that has the component. It is built
// once a tick and read by every client's encoder, so the world is walked
// once however many clients there are.
type image struct {
	tick  uint64
	gens  []uint32 // generation + 1 of the replicated entity at each index; 0: none
	rules []ruleImage
}

// ruleImage holds one rule's encoded values by entity index.
type ruleImage struct {
	size int      // bytes per value, or -1 when they vary
	has  []uint64 // bit per index: the entity there has the component
	data []byte   // size >= 0: value i at data[i*size:]
	vals [][]byte // size < 0: value i
}

// grow makes room for index idx.
func (ri *ruleImage) grow(idx int) {
	if w := idx>>6 + 1; w > len(ri.has) {
		ri.has = append(ri.has, make([]uint64, w-len(ri.has))...)
	}
	if ri.size >= 0 {
		if n := (idx + 1) * ri.size; n > len(ri.data) {
			ri.data = append(ri.data, make([]byte, n-len(ri.data))...)
		}
	} else if idx >= len(ri.vals) {
		ri.vals = append(ri.vals, make([][]byte, idx+1-len(ri.vals))...)
	}
}

// value returns the bytes of index idx's value, or false when the entity
// there lacks the component.
func (ri *ruleImage) value(idx int) ([]byte, bool) {
	if idx>>6 >= len(ri.has) || ri.has[idx>>6]&(1<<(idx&63)) == 0 {
		return nil, false
	}
	if ri.size >= 0 {
		return ri.data[idx*ri.size : (idx+1)*ri.size], true
	}
	return ri.vals[idx], true
}

// capture rebuilds img from the world: O(replicated entities x rules).
func (img *image) capture(w *ecs.World, marks *ecs.Query1[Replicated], bound []boundRule, tick uint64) {
	img.tick = tick
	clear(img.gens)
	for ch := range marks.Chunks() {
		for _, e := range ch.Entities {
			idx := int(e.Index())
			if idx >= len(img.gens) {
				img.gens = append(img.gens, make([]uint32, idx+1-len(img.gens))...)
			}
			img.gens[idx] = e.Generation() + 1
		}
	}
	for r := range img.rules {
		clear(img.rules[r].has)
		bound[r].capture(&img.rules[r])
	}
}

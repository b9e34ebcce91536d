package netcode

import (
	"bytes"
	"math/bits"
)

// State flags.
const (
	flagReset    byte = 1 << iota // the client drops its view before applying
	flagChecksum                  // a view checksum follows the updates
	flagComplete                  // nothing relevant is left unsent
)

// view is what the server knows one client holds: the entities in its
// view, the baselines of their values, and the priority of what waits.
type view struct {
	inView []uint32 // generation + 1 of the entity the client holds at each index
	want   []uint32 // this tick's relevant entities, by index
	rules  []baselines
	acc    []float32 // priority accumulators: the waiting grows an entity's claim
	cands  []candidate
	order  []int32 // scratch: candidates by priority
	coder  updateCoder
	set    []uint32
	// pending counts the candidates the last State left out for the budget.
	pending int
	msg     []byte // the State encoded this tick
}

// candidate is an entity with something to send: it enters the view, or
// the values of the rules in mask changed.
type candidate struct {
	idx   uint32
	mask  uint64
	enter bool
	taken bool
	cost  int32
}

func newView(rules []rule) *view {
	v := &view{rules: make([]baselines, len(rules))}
	for i, r := range rules {
		v.rules[i] = newBaselines(r)
	}
	return v
}

func (v *view) grow(n int) {
	if n > len(v.inView) {
		k := n - len(v.inView)
		v.inView = append(v.inView, make([]uint32, k)...)
		v.want = append(v.want, make([]uint32, k)...)
		v.acc = append(v.acc, make([]float32, k)...)
	}
	for i := range v.rules {
		v.rules[i].grow(len(v.inView))
	}
}

// reset forgets the whole view, as the client does on a reset State.
func (v *view) reset() {
	clear(v.inView)
	clear(v.acc)
	for i := range v.rules {
		v.rules[i].reset()
	}
}

// encodeState appends to dst the State that brings the client from what
// it holds to img, for the entities in v.want, within budget bytes (0: no
// limit; despawns and leaves are always sent). It updates the view and
// baselines to what the State carries.
func (v *view) encodeState(dst []byte, img *image, prev uint64, budget int, reset, withSum bool) []byte {
	tick := img.tick
	if reset {
		v.reset()
	}
	dst = append(dst, kindState)
	dst = appendUvarint(dst, tick)
	dst = appendUvarint(dst, prev)
	flagsAt := len(dst)
	dst = append(dst, 0)
	var flags byte
	if reset {
		flags |= flagReset
	}

	// Despawns and leaves: every entity held that is not wanted as it is.
	v.set = v.set[:0]
	for idx, g := range v.inView {
		if g != 0 && v.want[idx] != g {
			v.set = append(v.set, uint32(idx))
			v.inView[idx] = 0
			v.acc[idx] = 0
			for r := range v.rules {
				v.rules[r].drop(idx)
			}
		}
	}
	dst = appendIndexGaps(dst, v.set)

	v.collect(img)
	v.pending = v.choose(budget)
	if v.pending == 0 {
		flags |= flagComplete
	}
	dst = v.appendEnters(dst, img)
	for r := range v.rules {
		dst = v.appendUpdates(dst, img, r)
	}
	if withSum && v.pending == 0 {
		flags |= flagChecksum
		dst = appendUint64(dst, v.checksum(img))
	}
	dst[flagsAt] = flags
	return dst
}

// collect lists the candidates: wanted entities not held, and held ones
// whose values differ from their baselines.
func (v *view) collect(img *image) {
	v.cands = v.cands[:0]
	for idx, g := range v.want {
		if g == 0 {
			continue
		}
		if v.inView[idx] == 0 {
			cost := 3
			for r := range img.rules {
				if b, ok := img.rules[r].value(idx); ok {
					cost += len(b)
				}
			}
			v.cands = append(v.cands, candidate{idx: uint32(idx), enter: true, cost: int32(cost)})
			continue
		}
		var mask uint64
		cost := 0
		for r := range img.rules {
			cur, has := img.rules[r].value(idx)
			old, had := v.rules[r].last(idx)
			if has != had || has && !bytes.Equal(cur, old) {
				mask |= 1 << r
				if n := len(v.rules[r].widths); n > 0 {
					cost += 1 + n/2
				} else {
					cost += 1 + len(cur)
				}
			}
		}
		if mask != 0 {
			v.cands = append(v.cands, candidate{idx: uint32(idx), mask: mask, cost: int32(cost)})
		}
	}
}

// choose marks the candidates this State carries and returns how many it
// leaves: all of them when they fit the budget, else the most important
// first. Importance is a priority accumulator (as in Glenn Fiedler's
// "State Synchronization" and Unity's Netcode for Entities importance
// scaling): each tick an entity waits adds one to its claim, two for one
// entering the view, so nothing waits for ever. Candidates are ranked in
// 64 logarithmic buckets (a counting sort, O(n)), in index order within a
// bucket, so the choice is the same on every run.
func (v *view) choose(budget int) int {
	total := 0
	for i := range v.cands {
		total += int(v.cands[i].cost)
	}
	if budget <= 0 || total <= budget {
		for i := range v.cands {
			c := &v.cands[i]
			c.taken = true
			v.acc[c.idx] = 0
		}
		return 0
	}
	var counts [65]int32
	bucket := func(c *candidate) int {
		return 63 - min(bits.Len32(uint32(v.acc[c.idx]*4)), 63)
	}
	for i := range v.cands {
		c := &v.cands[i]
		if c.enter {
			v.acc[c.idx] += 2
		} else {
			v.acc[c.idx]++
		}
		counts[bucket(c)+1]++
	}
	for b := 1; b < len(counts); b++ {
		counts[b] += counts[b-1]
	}
	if cap(v.order) < len(v.cands) {
		v.order = make([]int32, len(v.cands))
	}
	v.order = v.order[:len(v.cands)]
	for i := range v.cands {
		b := bucket(&v.cands[i])
		v.order[counts[b]] = int32(i)
		counts[b]++
	}
	spent, left := 0, 0
	for k, i := range v.order {
		c := &v.cands[i]
		if k > 0 && spent+int(c.cost) > budget {
			left++
			continue
		}
		spent += int(c.cost)
		c.taken = true
		v.acc[c.idx] = 0
	}
	return left
}

// appendEnters writes the entering entities whole and records them.
func (v *view) appendEnters(dst []byte, img *image) []byte {
	v.set = v.set[:0]
	for i := range v.cands {
		if c := &v.cands[i]; c.taken && c.enter {
			v.set = append(v.set, c.idx)
		}
	}
	dst = appendUvarint(dst, uint64(len(v.set)))
	last := -1
	for _, idx32 := range v.set {
		idx := int(idx32)
		dst = appendUvarint(dst, uint64(idx-last-1))
		last = idx
		g := v.want[idx]
		dst = appendUvarint(dst, uint64(g-1))
		var mask uint64
		for r := range img.rules {
			if _, ok := img.rules[r].value(idx); ok {
				mask |= 1 << r
			}
		}
		dst = appendUvarint(dst, mask)
		for r := range img.rules {
			if b, ok := img.rules[r].value(idx); ok {
				dst = append(dst, b...)
				v.rules[r].push(idx, b, img.tick)
			}
		}
		v.inView[idx] = g
	}
	return dst
}

// appendUpdates writes rule r's changed values: the entities, then the
// values in the cheapest coding (update_coding.go).
func (v *view) appendUpdates(dst []byte, img *image, r int) []byte {
	v.set = v.set[:0]
	for i := range v.cands {
		if c := &v.cands[i]; c.taken && !c.enter && c.mask&(1<<r) != 0 {
			v.set = append(v.set, c.idx)
		}
	}
	dst = appendIndexSet(dst, v.set)
	if len(v.set) == 0 {
		return dst
	}
	return v.coder.appendValues(dst, &v.rules[r], &img.rules[r], v.set, img.tick)
}

// checksum is the view checksum of what the client should hold once it
// applied this State: see viewSum.
func (v *view) checksum(img *image) uint64 {
	var sum uint64
	for idx, g := range v.want {
		if g == 0 {
			continue
		}
		for r := range img.rules {
			if b, ok := img.rules[r].value(idx); ok {
				sum += viewSum(uint32(idx), g-1, r, b)
			}
		}
	}
	return sum
}

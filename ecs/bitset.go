package ecs

// bitset is a set of component ids, one bit per id, used for archetype masks
// and query terms (the aspects of Artemis as bitsets, as in the dissertation
// "optimisations for the Entity Component System pattern"). Its length grows
// with the largest id it holds, so worlds are not limited to a fixed number
// of types.
type bitset []uint64

func (b *bitset) set(i componentID) {
	w := int(i >> 6)
	for len(*b) <= w {
		*b = append(*b, 0)
	}
	(*b)[w] |= 1 << (i & 63)
}

// containsAll reports whether every bit of o is set in b.
func (b bitset) containsAll(o bitset) bool {
	for i, w := range o {
		if w == 0 {
			continue
		}
		if i >= len(b) || b[i]&w != w {
			return false
		}
	}
	return true
}

// intersects reports whether b and o share a bit.
func (b bitset) intersects(o bitset) bool {
	n := min(len(b), len(o))
	for i := range n {
		if b[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// key returns a string that identifies the set, ignoring trailing zero words.
func (b bitset) key() string {
	n := len(b)
	for n > 0 && b[n-1] == 0 {
		n--
	}
	buf := make([]byte, 0, n*8)
	for _, w := range b[:n] {
		for s := 0; s < 64; s += 8 {
			buf = append(buf, byte(w>>s))
		}
	}
	return string(buf)
}

func (b bitset) test(i componentID) bool {
	w := int(i >> 6)
	return w < len(b) && b[w]&(1<<(i&63)) != 0
}

func (b bitset) unset(i componentID) {
	if w := int(i >> 6); w < len(b) {
		b[w] &^= 1 << (i & 63)
	}
}

package netcode

import "math/bits"

// An update section carries one rule's changed values after its index
// set:
//
//	modes   one byte when every entry has the same mode, else 4 and two
//	        bits per entry (modePredicted, modeDelta, modeWhole, modeRemoved)
//	width   bits per residual code: 2 or 4
//	fields  a mask of the numbers of the layout that have codes: a number
//	        whose residual is zero in every entry (a maximum health that
//	        never changes) takes none
//	codes   length, then the residual codes, packed
//	escapes length, then a varint per code at its maximum
//	whole   length, then the whole values, in entry order
//
// The encoder codes each rule's values four ways (predicted where the
// baselines allow it or always as deltas, in 2- or 4-bit codes) and as
// whole values, and sends the shortest: positions under steady motion
// predict to residuals of -1, 0 and +1, two bits each; counters that jump
// (health through damage and respawn) do better as deltas or whole.
type updateCoder struct {
	modes, alt []byte   // the modes of the predicting and the delta coding
	zz, zzAlt  []uint64 // their zigzagged residuals
	codes      nibbles
	whole      []byte
}

// appendValues writes the values of the entries in set (ascending
// indices, each with a changed value) and updates the baselines.
func (u *updateCoder) appendValues(dst []byte, b *baselines, ri *ruleImage, set []uint32, tick uint64) []byte {
	u.modes, u.alt = u.modes[:0], u.alt[:0]
	u.zz, u.zzAlt = u.zz[:0], u.zzAlt[:0]
	wholeBytes, present := 0, 0
	for _, idx32 := range set {
		idx := int(idx32)
		cur, has := ri.value(idx)
		if !has {
			u.modes = append(u.modes, modeRemoved)
			u.alt = append(u.alt, modeRemoved)
			continue
		}
		present++
		wholeBytes += len(cur)
		m := b.modeFor(idx, tick)
		u.modes = append(u.modes, m)
		if m == modePredicted {
			u.alt = append(u.alt, modeDelta)
		} else {
			u.alt = append(u.alt, m)
		}
		if m != modeWhole {
			u.zz = b.residuals(idx, cur, m, u.zz)
			u.zzAlt = b.residuals(idx, cur, modeDelta, u.zzAlt)
		}
	}

	// The cost of each coding, in bytes.
	nw := len(b.widths)
	best, bestCost, width := 0, int(^uint(0)>>1), uint(2)
	var masks [2]uint64
	for k, zz := range [2][]uint64{u.zz, u.zzAlt} {
		modes := u.modes
		if k == 1 {
			modes = u.alt
		}
		masks[k] = fieldMask(zz, nw)
		fixed := modesCost(modes) + wholeOf(modes, set, ri) + uvarintLen(masks[k])
		for _, w := range [2]uint{2, 4} {
			if c := fixed + codesCost(zz, nw, masks[k], w); c < bestCost {
				best, bestCost, width = k, c, w
			}
		}
	}
	allWhole := b.size >= 0 && present == len(set)
	if allWhole && 1+wholeBytes < bestCost {
		best = 2
	}

	modes, zz, mask := u.modes, u.zz, masks[0]
	switch best {
	case 1:
		modes, zz, mask = u.alt, u.zzAlt, masks[1]
	case 2:
		for i := range u.alt {
			u.alt[i] = modeWhole
		}
		modes, zz, mask = u.alt, nil, 0
	}
	u.codes.reset(width)
	for i, z := range zz {
		if coded(mask, i%nw) {
			u.codes.put(z)
		}
	}
	u.whole = u.whole[:0]
	for i, idx32 := range set {
		idx := int(idx32)
		if modes[i] == modeRemoved {
			b.drop(idx)
			continue
		}
		cur, _ := ri.value(idx)
		if modes[i] == modeWhole {
			u.whole = append(u.whole, cur...)
		}
		b.push(idx, cur, tick)
	}
	dst = appendModes(dst, modes)
	dst = append(dst, byte(width))
	dst = appendUvarint(dst, mask)
	dst = appendUvarint(dst, uint64(len(u.codes.nib)))
	dst = append(dst, u.codes.nib...)
	dst = appendUvarint(dst, uint64(len(u.codes.esc)))
	dst = append(dst, u.codes.esc...)
	dst = appendUvarint(dst, uint64(len(u.whole)))
	return append(dst, u.whole...)
}

// modesCost is the bytes appendModes writes for modes.
func modesCost(modes []byte) int {
	for _, m := range modes {
		if m != modes[0] {
			return 1 + (len(modes)+3)/4
		}
	}
	return 1
}

// wholeOf is the bytes of the entries sent whole.
func wholeOf(modes []byte, set []uint32, ri *ruleImage) int {
	n := 0
	for i, m := range modes {
		if m == modeWhole {
			v, _ := ri.value(int(set[i]))
			n += len(v)
		}
	}
	return n
}

// fieldMask returns the mask of the first 64 numbers of a layout of nw
// numbers that have a non-zero residual in some entry of zz.
func fieldMask(zz []uint64, nw int) uint64 {
	var m uint64
	for i, z := range zz {
		if z != 0 {
			if f := i % nw; f < 64 {
				m |= 1 << f
			}
		}
	}
	return m
}

// coded reports whether number f of a layout has codes under mask:
// numbers past the 64th always do.
func coded(mask uint64, f int) bool { return f >= 64 || mask&(1<<f) != 0 }

// codesCost is the bytes of the codes of zz (entries of nw numbers) for
// the numbers in mask, w bits each, with their escapes.
func codesCost(zz []uint64, nw int, mask uint64, w uint) int {
	top := uint64(1)<<w - 1
	k, n := 0, 0
	for i, z := range zz {
		if !coded(mask, i%nw) {
			continue
		}
		k++
		if z >= top {
			n += uvarintLen(z - top)
		}
	}
	return n + (k*int(w)+7)/8
}

func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

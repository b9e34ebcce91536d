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
	stats      []fieldStats
}

// fieldStats describe one number of a layout over a section's entries:
// whether any residual is not zero, and the escape bytes its codes take
// at 2 and at 4 bits.
type fieldStats struct {
	nonzero bool
	esc     [2]int
}

// fieldStatsOf returns the stats of each of the nw numbers of the
// entries in zz, in one pass.
func fieldStatsOf(dst []fieldStats, zz []uint64, nw int) []fieldStats {
	for range nw {
		dst = append(dst, fieldStats{})
	}
	for e := 0; e < len(zz); e += nw {
		for f, z := range zz[e : e+nw] {
			if z == 0 {
				continue
			}
			st := &dst[f]
			st.nonzero = true
			if z >= 3 {
				st.esc[0] += uvarintLen(z - 3)
			}
			if z >= 15 {
				st.esc[1] += uvarintLen(z - 15)
			}
		}
	}
	return dst
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
			u.zz, u.zzAlt = b.residualsBoth(idx, cur, m, u.zz, u.zzAlt)
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
		u.stats = fieldStatsOf(u.stats[:0], zz, nw)
		masks[k] = 0
		var esc [2]int
		fields := 0
		for f, st := range u.stats {
			if st.nonzero || f >= 64 {
				if f < 64 {
					masks[k] |= 1 << f
				}
				fields++
				esc[0] += st.esc[0]
				esc[1] += st.esc[1]
			}
		}
		codes := fields * (len(zz) / max(nw, 1))
		fixed := modesCost(modes) + wholeOf(modes, set, ri) + uvarintLen(masks[k])
		for i, w := range [2]uint{2, 4} {
			if c := fixed + esc[i] + (codes*int(w)+7)/8; c < bestCost {
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
	for e := 0; e < len(zz); e += nw {
		for f, z := range zz[e : e+nw] {
			if coded(mask, f) {
				u.codes.put(z)
			}
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

// coded reports whether number f of a layout has codes under mask:
// numbers past the 64th always do.
func coded(mask uint64, f int) bool { return f >= 64 || mask&(1<<f) != 0 }

func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

package netcode

import "encoding/binary"

// Value modes: how an update carries a value, two bits per entry.
const (
	// modePredicted: each number as the residual from the linear
	// extrapolation 2*x1 - x2 of the last two values sent, when they were
	// sent as far apart as the newest is from this tick. A number moving by
	// a steady step (a position under a constant velocity) costs a nibble.
	modePredicted byte = iota
	// modeDelta: each number as the residual from the last value sent.
	modeDelta
	// modeWhole: the value's bytes as ecs.SaveCodec wrote them.
	modeWhole
	// modeRemoved: the entity lost the component.
	modeRemoved
)

// baselines are, for one rule and one client, the last two values the
// server sent for each entity index and the ticks it sent them at (0: not
// sent). The server and the client keep equal copies: the server updates
// its copy when it encodes a value, the client when it applies one, and
// the transport (TCP under WebSocket) loses and reorders nothing, so both
// predict the same number from the same bytes.
type baselines struct {
	size   int     // bytes per value, or -1 when they vary
	widths []uint8 // fixed layouts: the byte width of each number
	b1, b2 []byte  // fixed layouts: value i at [i*size:]
	v1     [][]byte
	t1, t2 []uint64
}

func newBaselines(r rule) baselines {
	return baselines{size: r.fixedSize(), widths: r.numberWidths()}
}

// grow makes room for n indices.
func (b *baselines) grow(n int) {
	if n <= len(b.t1) {
		return
	}
	k := n - len(b.t1)
	b.t1 = append(b.t1, make([]uint64, k)...)
	b.t2 = append(b.t2, make([]uint64, k)...)
	if b.size >= 0 {
		b.b1 = append(b.b1, make([]byte, k*b.size)...)
		b.b2 = append(b.b2, make([]byte, k*b.size)...)
	} else {
		b.v1 = append(b.v1, make([][]byte, k)...)
	}
}

// last returns the last value sent for idx, or false.
func (b *baselines) last(idx int) ([]byte, bool) {
	if b.t1[idx] == 0 {
		return nil, false
	}
	if b.size >= 0 {
		return b.b1[idx*b.size : (idx+1)*b.size], true
	}
	return b.v1[idx], true
}

// modeFor returns the mode a present value of idx takes at tick.
func (b *baselines) modeFor(idx int, tick uint64) byte {
	t1, t2 := b.t1[idx], b.t2[idx]
	switch {
	case b.size < 0 || t1 == 0:
		return modeWhole
	case t2 != 0 && tick-t1 == t1-t2:
		return modePredicted
	default:
		return modeDelta
	}
}

// push records v as the value sent for idx at tick.
func (b *baselines) push(idx int, v []byte, tick uint64) {
	if b.size >= 0 {
		lo, hi := idx*b.size, (idx+1)*b.size
		copy(b.b2[lo:hi], b.b1[lo:hi])
		copy(b.b1[lo:hi], v)
	} else {
		b.v1[idx] = append(b.v1[idx][:0], v...)
	}
	b.t2[idx], b.t1[idx] = b.t1[idx], tick
}

// drop forgets idx: its entity left, or lost the component.
func (b *baselines) drop(idx int) {
	b.t1[idx], b.t2[idx] = 0, 0
	if b.size < 0 {
		b.v1[idx] = b.v1[idx][:0]
	}
}

// reset forgets every index.
func (b *baselines) reset() {
	clear(b.t1)
	clear(b.t2)
	for i := range b.v1 {
		b.v1[i] = b.v1[i][:0]
	}
}

// residualsBoth appends the residuals of cur in mode (modePredicted or
// modeDelta) to pred and its residuals as a delta to delta, reading each
// number once.
func (b *baselines) residualsBoth(idx int, cur []byte, mode byte, pred, delta []uint64) ([]uint64, []uint64) {
	x1 := b.b1[idx*b.size : (idx+1)*b.size]
	x2 := b.b2[idx*b.size : (idx+1)*b.size]
	off := 0
	for _, w := range b.widths {
		x, p := readLE(cur[off:], w), readLE(x1[off:], w)
		d := zigzag(signExtend(x-p, w))
		delta = append(delta, d)
		if mode == modePredicted {
			d = zigzag(signExtend(x-2*p+readLE(x2[off:], w), w))
		}
		pred = append(pred, d)
		off += int(w)
	}
	return pred, delta
}

// rebuild writes into out the value whose residuals against idx's
// baselines in mode n holds next (zero for the numbers not in mask);
// false when n runs out.
func (b *baselines) rebuild(idx int, mode byte, mask uint64, n *nibbleReader, out []byte) bool {
	x1 := b.b1[idx*b.size : (idx+1)*b.size]
	x2 := b.b2[idx*b.size : (idx+1)*b.size]
	off := 0
	for f, w := range b.widths {
		var zz uint64
		if coded(mask, f) {
			var ok bool
			if zz, ok = n.next(); !ok {
				return false
			}
		}
		p := readLE(x1[off:], w)
		if mode == modePredicted {
			p = 2*p - readLE(x2[off:], w)
		}
		writeLE(out[off:], w, p+uint64(unzigzag(zz)))
		off += int(w)
	}
	return true
}

// readLE reads a little-endian number of w bytes (1, 2, 4 or 8).
func readLE(b []byte, w uint8) uint64 {
	switch w {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	default:
		return binary.LittleEndian.Uint64(b)
	}
}

// writeLE writes the low w bytes of x, little-endian.
func writeLE(b []byte, w uint8, x uint64) {
	switch w {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	default:
		binary.LittleEndian.PutUint64(b, x)
	}
}

// signExtend reads the low w bytes of x as a signed number: residuals
// wrap at the number's width, as the numbers do.
func signExtend(x uint64, w uint8) int64 {
	s := 64 - 8*uint(w)
	return int64(x<<s) >> s
}

// nibbles packs residual codes of width bits (2 or 4) each: a code below
// its maximum stands for itself (zigzagged residuals: 0, -1, +1, ...),
// and the maximum escapes to a varint of the rest in a column of its own.
type nibbles struct {
	nib   []byte
	used  int // codes in nib
	width uint
	esc   []byte
}

func (n *nibbles) reset(width uint) { n.nib, n.used, n.width, n.esc = n.nib[:0], 0, width, n.esc[:0] }

func (n *nibbles) put(zz uint64) {
	top := uint64(1)<<n.width - 1
	v := byte(min(zz, top))
	if zz >= top {
		n.esc = appendUvarint(n.esc, zz-top)
	}
	per := 8 / int(n.width)
	if n.used%per == 0 {
		n.nib = append(n.nib, v)
	} else {
		n.nib[len(n.nib)-1] |= v << (int(n.width) * (n.used % per))
	}
	n.used++
}

// nibbleReader reads what nibbles wrote.
type nibbleReader struct {
	nib   []byte
	pos   int // in codes
	width uint
	esc   reader
}

func (n *nibbleReader) next() (uint64, bool) {
	per := 8 / int(n.width)
	if n.pos/per >= len(n.nib) {
		return 0, false
	}
	top := uint64(1)<<n.width - 1
	v := uint64(n.nib[n.pos/per]>>(int(n.width)*(n.pos%per))) & top
	n.pos++
	if v < top {
		return v, true
	}
	x := n.esc.uvarint()
	if n.esc.err != nil || x > ^uint64(0)-top {
		return 0, false
	}
	return x + top, true
}

// exhausted reports whether every code and escape was read: a section
// holds exactly what its entries need.
func (n *nibbleReader) exhausted() bool {
	per := 8 / int(n.width)
	return n.esc.left() == 0 && (n.pos+per-1)/per == len(n.nib)
}

package ecs

import (
	"encoding/binary"
	"math"
)

// valuePlan is a schema of a file, with what reading its values without
// a Go type needs at hand: each node's saved size, and whether its values
// must be read one by one (they hold bools, whose bytes are checked).
type valuePlan struct {
	s      *schema
	fixed  int  // s.fixedSize(): the bytes a value takes, or -1
	check  bool // a value holds a bool, or its size varies
	elem   *valuePlan
	fields []planField // sStruct, in the file's order
}

type planField struct {
	name string
	p    *valuePlan
}

// newValuePlan returns s's plan, in time linear in s's nodes.
func newValuePlan(s *schema) *valuePlan {
	p := &valuePlan{s: s}
	switch s.kind {
	case sBool:
		p.fixed, p.check = 1, true
	case sString, sSlice:
		p.fixed, p.check = -1, true
		if s.kind == sSlice {
			p.elem = newValuePlan(s.elem)
		}
	case sArray:
		p.elem = newValuePlan(s.elem)
		switch e := p.elem.fixed; {
		case s.n == 0:
			p.fixed = 0
		case e < 0:
			p.fixed = -1
		case e > 0 && s.n > math.MaxInt/e:
			p.fixed = math.MaxInt
		default:
			p.fixed = e * s.n
		}
		p.check = s.n > 0 && p.elem.check
	case sStruct:
		for _, f := range s.fields {
			fp := newValuePlan(f.s)
			p.fields = append(p.fields, planField{f.name, fp})
			switch {
			case p.fixed < 0:
			case fp.fixed < 0:
				p.fixed = -1
			default:
				p.fixed = min(p.fixed, math.MaxInt-fp.fixed) + fp.fixed
			}
			p.check = p.check || fp.check
		}
	default:
		p.fixed = s.fixedSize()
	}
	return p
}

// valueSpans locates n values of one plan in a file's bytes: value i
// starts at start+i*fixed, or at offs[i] when their size varies.
type valueSpans struct {
	p     *valuePlan
	data  []byte
	start int
	offs  []int // n+1 offsets, when p.fixed < 0
}

// at returns the bytes of value i.
func (v *valueSpans) at(i int) []byte {
	if v.p.fixed >= 0 {
		o := v.start + i*v.p.fixed
		return v.data[o : o+v.p.fixed]
	}
	return v.data[v.offs[i]:v.offs[i+1]]
}

// readSpans reads past n values of plan p, checking them, and returns
// where they lie. It allocates an offset per value when their size
// varies, each value taking a byte of the file at least.
func readSpans(d *decoder, p *valuePlan, n int) valueSpans {
	v := valueSpans{p: p, data: d.data, start: d.pos}
	if d.err != nil {
		return v
	}
	if p.fixed < 0 {
		if n > d.left() {
			d.fail("truncated: %d values of at least a byte do not fit", n)
			return v
		}
		v.offs = make([]int, n+1)
		for i := range n {
			v.offs[i] = d.pos
			skipValue(d, p)
			if d.err != nil {
				return v
			}
		}
		v.offs[n] = d.pos
		return v
	}
	skipValues(d, p, n)
	return v
}

// skipValues reads past n values of p, checking their bools: at once when
// there is nothing to check, else value by value, each taking a byte at
// least.
func skipValues(d *decoder, p *valuePlan, n int) {
	if d.err != nil {
		return
	}
	if p.fixed == 0 {
		return
	}
	if p.fixed > 0 && n > d.left()/p.fixed || p.fixed < 0 && n > d.left() {
		d.fail("truncated: %d values do not fit in the %d bytes left", n, d.left())
		return
	}
	if !p.check {
		d.bytes(n * p.fixed)
		return
	}
	for range n {
		if d.err != nil {
			return
		}
		skipValue(d, p)
	}
}

// skipValue reads past one value of p, checking it as Load does.
func skipValue(d *decoder, p *valuePlan) {
	if !p.check {
		d.bytes(p.fixed)
		return
	}
	switch p.s.kind {
	case sBool:
		if b := d.bytes(1); d.err == nil && b[0] > 1 {
			d.fail("a bool of value %d", b[0])
		}
	case sString:
		d.bytes(d.count(1))
	case sSlice:
		minBytes := p.elem.fixed
		if minBytes < 0 {
			minBytes = 1
		}
		skipValues(d, p.elem, d.count(minBytes))
	case sArray:
		skipValues(d, p.elem, p.s.n)
	case sStruct:
		for _, f := range p.fields {
			if d.err != nil {
				return
			}
			skipValue(d, f.p)
		}
	}
}

// splitValue returns the bytes of the value of p at the start of b, a
// value readSpans checked, and the bytes after it.
func splitValue(p *valuePlan, b []byte) (value, rest []byte) {
	n := valueLen(p, b)
	return b[:n], b[n:]
}

// valueLen returns the length of the checked value of p at the start of b.
func valueLen(p *valuePlan, b []byte) int {
	if p.fixed >= 0 {
		return p.fixed
	}
	switch p.s.kind {
	case sString:
		x, k := binary.Uvarint(b)
		return k + int(x)
	case sSlice:
		x, k := binary.Uvarint(b)
		return k + elemsLen(p.elem, b[k:], int(x))
	case sArray:
		return elemsLen(p.elem, b, p.s.n)
	case sStruct:
		n := 0
		for _, f := range p.fields {
			n += valueLen(f.p, b[n:])
		}
		return n
	}
	return 0
}

// elemsLen returns the length of n checked values of p at the start of b.
func elemsLen(p *valuePlan, b []byte, n int) int {
	if p.fixed >= 0 {
		return n * p.fixed
	}
	k := 0
	for range n {
		k += valueLen(p, b[k:])
	}
	return k
}

// sliceLen returns a checked slice value's length and its elements' bytes.
func sliceLen(b []byte) (int, []byte) {
	x, k := binary.Uvarint(b)
	return int(x), b[k:]
}

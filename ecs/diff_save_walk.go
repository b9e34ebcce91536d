package ecs

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// fieldWalk compares two saved values of one schema, field by field, as
// walkFields does two Go values, and reports each differing leaf as a
// copy of x. The path of a leaf, and both its values, are formatted only
// when the report keeps the difference, so a value of many differing
// leaves costs little past the limit.
type fieldWalk struct {
	s    *saveDiffer
	x    Difference
	path []pathStep
}

// pathStep is a step of a field's path: a field's name, or an element's
// index when name is "".
type pathStep struct {
	name  string
	index int
}

// pathString formats the path with a last step name (none when ""), as
// join and walkFields do: "Vel.X", "Items[2]", "Items.len".
func (w *fieldWalk) pathString(last string) string {
	var b strings.Builder
	for _, st := range w.path {
		if st.name == "" {
			b.WriteString("[")
			b.WriteString(strconv.Itoa(st.index))
			b.WriteString("]")
			continue
		}
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString(st.name)
	}
	if last != "" {
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString(last)
	}
	return b.String()
}

// emit reports the leaf at the path, of plan p, with values a and b.
func (w *fieldWalk) emit(p *valuePlan, a, b []byte) {
	x := w.x
	if w.s.keeps() {
		x.Field, x.A, x.B = w.pathString(""), formatLeafSaved(p, a), formatLeafSaved(p, b)
	}
	w.s.add(x)
}

// walk compares values a and b of p and reports each differing leaf; it
// returns how many it reported.
func (w *fieldWalk) walk(p *valuePlan, a, b []byte) int {
	if bytes.Equal(a, b) || p.fixed == 0 {
		return 0
	}
	switch p.s.kind {
	case sStruct:
		n := 0
		for _, f := range p.fields {
			var fa, fb []byte
			fa, a = splitValue(f.p, a)
			fb, b = splitValue(f.p, b)
			if f.p.fixed == 0 {
				continue
			}
			w.path = append(w.path, pathStep{name: f.name})
			n += w.walk(f.p, fa, fb)
			w.path = w.path[:len(w.path)-1]
		}
		return n
	case sArray:
		return w.elems(p.elem, a, b, p.s.n)
	case sSlice:
		la, ea := sliceLen(a)
		lb, eb := sliceLen(b)
		n := 0
		if la != lb {
			x := w.x
			if w.s.keeps() {
				x.Field, x.A, x.B = w.pathString("len"), strconv.Itoa(la), strconv.Itoa(lb)
			}
			w.s.add(x)
			n++
		}
		return n + w.elems(p.elem, ea, eb, min(la, lb))
	case sEntity:
		ia, ga := binary.LittleEndian.Uint32(a), binary.LittleEndian.Uint32(a[4:])
		ib, gb := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
		if ia == ib && ga&genMask == gb&genMask {
			return 0
		}
	case sFloat32:
		if sameFloat(float64(leafFloat32(a)), float64(leafFloat32(b)), 32) {
			return 0
		}
	case sFloat64:
		if sameFloat(leafFloat64(a), leafFloat64(b), 64) {
			return 0
		}
	case sComplex64:
		if sameFloat(float64(leafFloat32(a)), float64(leafFloat32(b)), 32) &&
			sameFloat(float64(leafFloat32(a[4:])), float64(leafFloat32(b[4:])), 32) {
			return 0
		}
	case sComplex128:
		if sameFloat(leafFloat64(a), leafFloat64(b), 64) && sameFloat(leafFloat64(a[8:]), leafFloat64(b[8:]), 64) {
			return 0
		}
	case sString:
		if bytes.Equal(stringBytes(a), stringBytes(b)) {
			return 0 // a length written in more bytes than it needs
		}
	}
	w.emit(p, a, b)
	return 1
}

// elems compares the first n elements of plan p at the starts of a and b,
// none when they take no bytes.
func (w *fieldWalk) elems(p *valuePlan, a, b []byte, n int) int {
	if p.fixed == 0 {
		return 0
	}
	k := 0
	for i := range n {
		var ea, eb []byte
		ea, a = splitValue(p, a)
		eb, b = splitValue(p, b)
		if bytes.Equal(ea, eb) {
			continue
		}
		w.path = append(w.path, pathStep{index: i})
		k += w.walk(p, ea, eb)
		w.path = w.path[:len(w.path)-1]
	}
	return k
}

func leafFloat32(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }
func leafFloat64(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

// stringBytes returns a saved string's bytes, without its length.
func stringBytes(b []byte) []byte {
	_, k := binary.Uvarint(b)
	return b[k:]
}

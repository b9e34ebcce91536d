package ecs

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// diffFields reports, through emit, each field in which the values of
// type t at pa and pb differ: its path ("Vel.X", "Cells[3]", "Targets.len")
// and both values. Fields compare as the checksum hashes them (floats by
// bits with NaNs as one, pointer kinds skipped), except that slices are
// compared element by element, so a difference inside a Checksummer's
// slice is located. When no field differs as far as reflection sees (a
// Checksummer whose state lies behind a pointer or a map), the whole
// values are reported, with an empty path.
func diffFields(t reflect.Type, pa, pb unsafe.Pointer, emit func(field, a, b string)) {
	va, vb := reflect.NewAt(t, pa).Elem(), reflect.NewAt(t, pb).Elem()
	if walkFields(va, vb, "", emit) == 0 {
		emit("", formatValue(t, pa), formatValue(t, pb))
	}
}

// walkFields compares va and vb, of one type, and reports each differing
// leaf under path; it returns how many it reported.
func walkFields(va, vb reflect.Value, path string, emit func(field, a, b string)) int {
	t := va.Type()
	if t == entityType {
		// SAFETY: t is entityType, so va and vb hold Entity values, and they
		// are addressable (see addrOf).
		ea, eb := *(*Entity)(addrOf(va)), *(*Entity)(addrOf(vb))
		if ea.index == eb.index && ea.gen&genMask == eb.gen&genMask {
			return 0
		}
		emit(path, ea.String(), eb.String())
		return 1
	}
	switch t.Kind() {
	case reflect.Struct:
		n := 0
		for i := range t.NumField() {
			if t.Field(i).Type.Size() == 0 {
				continue
			}
			n += walkFields(va.Field(i), vb.Field(i), join(path, t.Field(i).Name), emit)
		}
		return n
	case reflect.Array:
		n := 0
		for i := range t.Len() {
			n += walkFields(va.Index(i), vb.Index(i), path+"["+strconv.Itoa(i)+"]", emit)
		}
		return n
	case reflect.Slice:
		n := 0
		la, lb := va.Len(), vb.Len()
		if la != lb {
			emit(join(path, "len"), strconv.Itoa(la), strconv.Itoa(lb))
			n++
		}
		for i := range min(la, lb) {
			n += walkFields(va.Index(i), vb.Index(i), path+"["+strconv.Itoa(i)+"]", emit)
		}
		return n
	case reflect.Float32, reflect.Float64:
		if sameFloat(va.Float(), vb.Float(), t.Bits()) {
			return 0
		}
	case reflect.Complex64, reflect.Complex128:
		ca, cb := va.Complex(), vb.Complex()
		bits := t.Bits() / 2
		if sameFloat(real(ca), real(cb), bits) && sameFloat(imag(ca), imag(cb), bits) {
			return 0
		}
	case reflect.Bool:
		if va.Bool() == vb.Bool() {
			return 0
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if va.Int() == vb.Int() {
			return 0
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if va.Uint() == vb.Uint() {
			return 0
		}
	case reflect.String:
		if va.String() == vb.String() {
			return 0
		}
	default:
		// Pointers, maps, channels, functions and interfaces: what they
		// reference is not state the checksum sees.
		return 0
	}
	emit(path, formatLeaf(va), formatLeaf(vb))
	return 1
}

// sameFloat reports whether two floats of the given bit size are the same
// to the checksum: equal bits, or both NaN.
func sameFloat(a, b float64, bits int) bool {
	if a != a && b != b {
		return true
	}
	if bits == 32 {
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// addrOf returns the address of an addressable value, also one reached
// through unexported fields.
func addrOf(v reflect.Value) unsafe.Pointer {
	// SAFETY: v is addressable (reached from reflect.NewAt through fields
	// and elements), so UnsafeAddr is the address of live memory, used at
	// once.
	return unsafe.Pointer(v.UnsafeAddr())
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// formatLeaf formats a number, bool or string as Go prints it, floats in
// the shortest form that reads back exactly.
func formatLeaf(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, v.Type().Bits())
	case reflect.Complex64, reflect.Complex128:
		return strconv.FormatComplex(v.Complex(), 'g', -1, v.Type().Bits())
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	}
	return fmt.Sprint(v)
}

// maxFormatted bounds a whole value's formatted length in a Difference.
const maxFormatted = 200

// formatValue formats the whole value of type t at p as %+v does, cut to
// maxFormatted bytes.
func formatValue(t reflect.Type, p unsafe.Pointer) string {
	if t.Size() == 0 {
		return "{}"
	}
	s := fmt.Sprintf("%+v", reflect.NewAt(t, p).Elem())
	if len(s) > maxFormatted {
		cut := maxFormatted
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // not inside a character
		}
		s = s[:cut] + "..."
	}
	return s
}

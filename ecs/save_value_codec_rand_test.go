package ecs_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"unsafe"

	"github.com/tessera-ecs/tessera/ecs"
)

// codecRand makes random values of the types a save holds, for the
// SaveCodec tests: numbers at their edges and at random, NaN and
// infinities, empty and long strings (not always UTF-8), nil, short and
// long slices, and entities, zero or picked from ents.
type codecRand struct {
	r    *rand.Rand
	ents []ecs.Entity
	// budget is what strings and slices of one value may still take, in
	// bytes and elements: a value with deep slices stays small.
	budget int
}

var entityType = reflect.TypeFor[ecs.Entity]()

// value returns a new random value of T.
func codecRandValue[T any](g *codecRand, budget int) T {
	var v T
	g.budget = budget
	g.fill(reflect.ValueOf(&v).Elem())
	return v
}

// fill sets v, which is addressable, to a random value.
func (g *codecRand) fill(v reflect.Value) {
	if !v.CanSet() {
		// SAFETY: v is an addressable unexported field; its address and
		// type give a settable view of the same memory.
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	t := v.Type()
	if t == entityType || (t.Kind() == reflect.Struct && t.ConvertibleTo(entityType)) {
		var e ecs.Entity
		if len(g.ents) > 0 && g.r.IntN(4) != 0 {
			e = g.ents[g.r.IntN(len(g.ents))]
		}
		v.Set(reflect.ValueOf(e).Convert(t))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(g.int64())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(g.int64()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(g.float())
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(complex(g.float(), g.float()))
	case reflect.String:
		v.SetString(g.str())
	case reflect.Array:
		for i := range v.Len() {
			g.fill(v.Index(i))
		}
	case reflect.Slice:
		n := g.length()
		if n < 0 {
			return // nil
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			g.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if t.Field(i).Name != "_" {
				g.fill(v.Field(i))
			}
		}
	default:
		panic(fmt.Sprintf("codecRand: a %v", t))
	}
}

func (g *codecRand) int64() int64 {
	switch g.r.IntN(6) {
	case 0:
		return 0
	case 1:
		return -1
	case 2:
		return math.MinInt64
	case 3:
		return math.MaxInt64
	}
	return int64(g.r.Uint64())
}

func (g *codecRand) float() float64 {
	switch g.r.IntN(8) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(-1)
	case 2:
		return math.Copysign(0, -1)
	case 3:
		return math.MaxFloat32
	}
	return g.r.NormFloat64() * 1e3
}

// length returns a slice's length: -1 for nil (often), a few, 0, or now
// and then a long one, within the budget.
func (g *codecRand) length() int {
	n := -1
	switch k := g.r.IntN(10); {
	case k < 3:
	case k < 4:
		n = 0
	case k < 9:
		n = 1 + g.r.IntN(4)
	default:
		n = 100 + g.r.IntN(1500)
	}
	n = min(n, g.budget)
	g.budget -= max(n, 1)
	return n
}

func (g *codecRand) str() string {
	n := 0
	switch k := g.r.IntN(10); {
	case k < 3: // empty
	case k < 9:
		n = 1 + g.r.IntN(12)
	default:
		n = 200 + g.r.IntN(3000)
	}
	n = max(min(n, g.budget), 0)
	g.budget -= max(n, 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.Uint32())
	}
	return string(b)
}

// codecDiff returns where a and b, of one type, differ, or "" when they
// do not: floats compare by their bits, a nil slice equals an empty one
// (a save writes both as length 0), blank fields are left out, and
// unexported fields and entities are compared like the rest.
func codecDiff(a, b reflect.Value, path string) string {
	t := a.Type()
	switch t.Kind() {
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return path
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return path
		}
	case reflect.Float32:
		if math.Float32bits(float32(a.Float())) != math.Float32bits(float32(b.Float())) {
			return path
		}
	case reflect.Float64:
		if math.Float64bits(a.Float()) != math.Float64bits(b.Float()) {
			return path
		}
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if math.Float64bits(real(x)) != math.Float64bits(real(y)) || math.Float64bits(imag(x)) != math.Float64bits(imag(y)) {
			return path
		}
	case reflect.String:
		if a.String() != b.String() {
			return path
		}
	case reflect.Array, reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s (length %d, %d)", path, a.Len(), b.Len())
		}
		if t.Elem().Size() == 0 {
			return "" // elements of no size are all alike, however many
		}
		for i := range a.Len() {
			if d := codecDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := t.Field(i); f.Name != "_" {
				if d := codecDiff(a.Field(i), b.Field(i), path+"."+f.Name); d != "" {
					return d
				}
			}
		}
	default:
		return path + " (a " + t.String() + ")"
	}
	return ""
}

// sameCodecValue returns where a and b differ, or "".
func sameCodecValue[T any](a, b *T) string {
	return codecDiff(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "v")
}

// codecEntities returns a world with live entities and stale handles of
// several generations, all of them, and a map from each one's index and
// generation to it: what a mapEntity of the tests looks entities up in.
func codecEntities(r *rand.Rand) (*ecs.World, []ecs.Entity, map[[2]uint32]ecs.Entity) {
	w := ecs.NewWorld()
	var all []ecs.Entity
	for range 12 {
		all = append(all, w.Spawn())
	}
	for range 6 {
		i := r.IntN(len(all))
		if w.Alive(all[i]) {
			w.Despawn(all[i]) // all[i] stays, as a stale handle
			all = append(all, w.Spawn())
		}
	}
	byKey := map[[2]uint32]ecs.Entity{}
	for _, e := range all {
		byKey[[2]uint32{e.Index(), e.Generation()}] = e
	}
	return w, all, byKey
}

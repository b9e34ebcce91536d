package gentest

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// randomDeep returns a Deep with random contents at every level, entities
// taken from live.
func randomDeep(r *rand.Rand, live []ecs.Entity) Deep {
	var d Deep
	n := func() int { return 1 + r.IntN(2) }
	d.Cube = make([][][][][]int16, n())
	for i := range d.Cube {
		d.Cube[i] = make([][][][]int16, n())
		for j := range d.Cube[i] {
			d.Cube[i][j] = make([][][]int16, n())
			for k := range d.Cube[i][j] {
				d.Cube[i][j][k] = make([][]int16, n())
				for l := range d.Cube[i][j][k] {
					for range r.IntN(3) {
						d.Cube[i][j][k][l] = append(d.Cube[i][j][k][l], int16(r.Uint32()))
					}
				}
			}
		}
	}
	for i := range d.Nest {
		d.Nest[i] = make([][1][]Stack, n())
		for j := range d.Nest[i] {
			for range r.IntN(3) {
				d.Nest[i][j][0] = append(d.Nest[i][j][0], Stack{Item: "x", Count: uint16(r.Uint32()), Labels: []string{"a", "b"}[:r.IntN(3)]})
			}
		}
	}
	d.Voids = [][][][][0]int8{{{make([][0]int8, r.IntN(3))}}}
	for range r.IntN(3) {
		e := ecs.Entity{}
		if len(live) > 0 {
			e = live[r.IntN(len(live))]
		}
		d.Refs[0][0][0][0] = append(d.Refs[0][0][0][0], e)
	}
	return d
}

// TestDeepClone: Clone copies a type nested past the generated code's
// inline loops (its deeper levels are closures) deeply, at every level.
func TestDeepClone(t *testing.T) {
	a := randomDeep(rand.New(rand.NewPCG(3, 4)), nil)
	a.Cube[0][0][0][0] = append(a.Cube[0][0][0][0], 5)
	a.Nest[1][0][0] = append(a.Nest[1][0][0], Stack{Labels: []string{"l"}})
	a.Refs[0][0][0][0] = append(a.Refs[0][0][0][0], ecs.Entity{})
	b := a.Clone()
	if a.String() != b.String() { // (Clone makes an empty slice nil)
		t.Fatalf("the clone differs:\n%v\n%v", a, b)
	}
	last := len(a.Nest[1][0][0]) - 1
	b.Cube[0][0][0][0][0] = -1
	b.Nest[1][0][0][last].Labels[0] = "changed"
	b.Refs[0][0][0][0][0] = ecs.NewWorld().Spawn()
	if a.Cube[0][0][0][0][0] == -1 || a.Nest[1][0][0][last].Labels[0] == "changed" || a.Refs[0][0][0][0][0] != (ecs.Entity{}) {
		t.Fatal("Clone shares memory with its source at a deep level")
	}
}

// TestLongDefaults: values that take a component's long defaults get
// them from DefaultTuning, with the fields they set on top.
func TestLongDefaults(t *testing.T) {
	base := DefaultTuning()
	if base.Level != 3 || base.Gains[7] != 1 || base.Label == "" {
		t.Fatalf("DefaultTuning() = %v", base)
	}
	with := func(change func(*Tuning)) Tuning {
		v := base
		change(&v)
		return v
	}
	rig := DefaultRig()
	want := Rig{
		Main:  base,
		Spare: with(func(v *Tuning) { v.Level = 9 }),
		Bank:  [3]Tuning{base, with(func(v *Tuning) { v.Label, v.Level = "b", 1 })},
	}
	if rig != want {
		t.Errorf("DefaultRig() =\n%v, want\n%v", rig, want)
	}
	w := ecs.NewWorld()
	Register(w)
	e := NewWorkshop(w).Spawn()
	if got := *ecs.NewMap[Tuning](w).Get(e); got != with(func(v *Tuning) { v.Level = 7 }) {
		t.Errorf("a workshop's tuning %v, want the defaults with Level 7", got)
	}
	if got := *ecs.NewMap[Rig](w).Get(e); got != want {
		t.Errorf("a workshop's rig %v, want DefaultRig()", got)
	}
}

// TestDeepestRoundTrip: a value nested as deep as compgen allows saves
// through the generated codec to the bytes the reflection codec writes,
// and loads back both ways: ecs reads types of MaxTypeDepth levels.
func TestDeepestRoundTrip(t *testing.T) {
	// Build a Deepest whose 63 nested slices each hold one element, down
	// to the bytes 1, 2, 3 at the bottom.
	v := reflect.ValueOf([]uint8{1, 2, 3})
	for v.Type() != reflect.TypeFor[Deepest]().Field(0).Type {
		s := reflect.MakeSlice(reflect.SliceOf(v.Type()), 1, 1)
		s.Index(0).Set(v)
		v = s
	}
	var d Deepest
	reflect.ValueOf(&d).Elem().Field(0).Set(v)

	type plainDeepest Deepest
	gen, plain := ecs.NewWorld(), ecs.NewWorld()
	Register(gen)
	ecs.Register[plainDeepest](plain, ecs.Name(stableName[Deepest]()))
	ecs.NewMap[Deepest](gen).Spawn(d)
	ecs.NewMap[plainDeepest](plain).Spawn(plainDeepest(d))
	file := save(t, gen)
	if other := save(t, plain); !bytes.Equal(file, other) {
		t.Fatalf("the generated codec saves %d bytes, reflection %d, and they differ", len(file), len(other))
	}
	back := ecs.NewWorld()
	Register(back)
	if err := back.Load(bytes.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	all := slices.Collect(back.Reflect().Entities([]ecs.ComponentType{ecs.C[Deepest]()}, nil))
	n := len(all)
	if n != 1 || ecs.NewMap[Deepest](back).Get(all[0]).String() != d.String() {
		t.Fatalf("loaded %d values, want %v", n, d)
	}
	twin := ecs.NewWorld()
	ecs.Register[plainDeepest](twin, ecs.Name(stableName[Deepest]()))
	if err := twin.Load(bytes.NewReader(file)); err != nil {
		t.Fatalf("reflection load: %v", err)
	}
}

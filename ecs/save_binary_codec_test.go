package ecs_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// codecPart is a nested struct of codecBag.
type codecPart struct {
	On    bool
	Owner ecs.Entity
}

// codecBag has a field of every kind a BinaryCodec writes, and writes and
// reads itself by hand; plainBag has the same fields and no methods, so
// it goes through the reflection codec.
type codecBag struct {
	B   bool
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	I   int
	U   uint
	F32 float32
	F64 float64
	S   string
	E   ecs.Entity
	A   [2]codecPart
	L   []codecPart
	N   []string
}

type plainBag codecBag

func (c *codecBag) EncodeSave(e *ecs.SaveEncoder) {
	e.Bool(c.B)
	e.Int8(c.I8)
	e.Int16(c.I16)
	e.Int32(c.I32)
	e.Int64(c.I64)
	e.Uint8(c.U8)
	e.Uint16(c.U16)
	e.Uint32(c.U32)
	e.Uint64(c.U64)
	e.Int(c.I)
	e.Uint(c.U)
	e.Float32(c.F32)
	e.Float64(c.F64)
	e.String(c.S)
	e.Entity(c.E)
	for i := range c.A {
		c.A[i].encode(e)
	}
	e.Len(len(c.L))
	for i := range c.L {
		c.L[i].encode(e)
	}
	e.Len(len(c.N))
	for _, s := range c.N {
		e.String(s)
	}
}

func (p *codecPart) encode(e *ecs.SaveEncoder) {
	e.Bool(p.On)
	e.Entity(p.Owner)
}

func (c *codecBag) DecodeSave(d *ecs.SaveDecoder) {
	c.B = d.Bool()
	c.I8 = d.Int8()
	c.I16 = d.Int16()
	c.I32 = d.Int32()
	c.I64 = d.Int64()
	c.U8 = d.Uint8()
	c.U16 = d.Uint16()
	c.U32 = d.Uint32()
	c.U64 = d.Uint64()
	c.I = d.Int()
	c.U = d.Uint()
	c.F32 = d.Float32()
	c.F64 = d.Float64()
	c.S = d.String()
	d.Entity(&c.E)
	for i := range c.A {
		c.A[i].decode(d)
	}
	c.L = ecs.MakeSaveSlice[codecPart](d, 9)
	for i := range c.L {
		c.L[i].decode(d)
	}
	c.N = ecs.MakeSaveSlice[string](d, 1)
	for i := range c.N {
		c.N[i] = d.String()
	}
}

func (p *codecPart) decode(d *ecs.SaveDecoder) {
	p.On = d.Bool()
	d.Entity(&p.Owner)
}

// randomBag returns a bag of random values, with entities from live.
func randomBag(r *rand.Rand, live []ecs.Entity) codecBag {
	pick := func() ecs.Entity {
		if len(live) == 0 || r.IntN(4) == 0 {
			return ecs.Entity{}
		}
		return live[r.IntN(len(live))]
	}
	b := codecBag{B: r.IntN(2) == 0, I8: int8(r.Int()), I16: int16(r.Int()), I32: r.Int32() - 1<<30, I64: r.Int64() - 1<<62,
		U8: uint8(r.Uint32()), U16: uint16(r.Uint32()), U32: r.Uint32(), U64: r.Uint64(), I: int(r.Int32()), U: uint(r.Uint32()),
		F32: r.Float32() * 100, F64: r.NormFloat64(), S: strings.Repeat("x", r.IntN(5)), E: pick()}
	b.A[r.IntN(2)] = codecPart{true, pick()}
	for range r.IntN(4) {
		b.L = append(b.L, codecPart{r.IntN(2) == 0, pick()})
	}
	for range r.IntN(3) {
		b.N = append(b.N, fmt.Sprint(r.IntN(100)))
	}
	return b
}

// bagWorlds builds the same random world twice, once with codecBag (its
// BinaryCodec) and once with plainBag (reflection), both under the stable
// name "bag", in table or sparse storage, with n to 2n entities.
func bagWorlds(seed uint64, sparse bool, n int) (codec, plain *ecs.World) {
	build := func(useCodec bool) *ecs.World {
		w := ecs.NewWorld()
		opts := []ecs.ComponentOption{ecs.Name("bag")}
		if sparse {
			opts = append(opts, ecs.Sparse())
		}
		if useCodec {
			ecs.Register[codecBag](w, opts...)
		} else {
			ecs.Register[plainBag](w, opts...)
		}
		r := rand.New(rand.NewPCG(seed, 3))
		var live []ecs.Entity
		for range n + r.IntN(n) {
			e := w.Spawn()
			live = append(live, e)
			if r.IntN(5) == 0 {
				continue // an entity without a bag
			}
			b := randomBag(r, live)
			if useCodec {
				ecs.NewMap[codecBag](w).Add(e, b)
			} else {
				ecs.NewMap[plainBag](w).Add(e, plainBag(b))
			}
		}
		return w
	}
	return build(true), build(false)
}

// TestBinaryCodecWritesTheReflectionBytes: a world saved through a
// BinaryCodec is byte for byte the same file as the same world saved by
// reflection, in either storage, and each loads into the other's type
// with the same values; the codec's load gives the world's tag to every
// entity, nested and in slices included.
func TestBinaryCodecWritesTheReflectionBytes(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		for seed := range uint64(20) {
			codec, plain := bagWorlds(seed, sparse, 40)
			a, b := saveOf(t, codec), saveOf(t, plain)
			if !bytes.Equal(a, b) {
				t.Fatalf("sparse %v seed %d: the codec saves %d bytes, reflection %d, and they differ", sparse, seed, len(a), len(b))
			}
			for _, file := range [][]byte{a, b} {
				back := ecs.NewWorld()
				opts := []ecs.ComponentOption{ecs.Name("bag")}
				if sparse {
					opts = append(opts, ecs.Sparse())
				}
				ecs.Register[codecBag](back, opts...)
				if err := back.Load(bytes.NewReader(file)); err != nil {
					t.Fatal(err)
				}
				if again := saveOf(t, back); !bytes.Equal(again, a) {
					t.Fatalf("sparse %v seed %d: loaded through the codec, the world saves to other bytes", sparse, seed)
				}
				bags := ecs.NewMap[codecBag](back)
				for _, e := range allEntities(back) {
					v, ok := bags.TryGet(e)
					if !ok {
						continue
					}
					for _, ref := range append([]ecs.Entity{v.E, v.A[0].Owner, v.A[1].Owner}, partOwners(v.L)...) {
						if !ref.IsZero() && !back.Alive(ref) {
							t.Fatalf("sparse %v seed %d: entity %v read by the codec is not alive in the loading world (its tag was not given)", sparse, seed, ref)
						}
					}
				}
			}
		}
	}
}

func partOwners(ps []codecPart) []ecs.Entity {
	var out []ecs.Entity
	for _, p := range ps {
		out = append(out, p.Owner)
	}
	return out
}

// allEntities lists w's live entities.
func allEntities(w *ecs.World) []ecs.Entity {
	return slices.Collect(w.Reflect().Entities(nil, nil))
}

// bagV0 is an older codecBag: fewer fields, another order. A file saved
// with it loads into codecBag by reflection, fields matched by name.
type bagV0 struct {
	S string
	B bool
	X int64 // dropped since
}

func TestBinaryCodecFallsBackForAnOlderSchema(t *testing.T) {
	old := ecs.NewWorld()
	ecs.Register[bagV0](old, ecs.Name("bag"))
	e := ecs.NewMap[bagV0](old).Spawn(bagV0{S: "kept", B: true, X: 7})
	w := ecs.NewWorld()
	ecs.Register[codecBag](w, ecs.Name("bag"))
	if err := w.Load(bytes.NewReader(saveOf(t, old))); err != nil {
		t.Fatal(err)
	}
	e, _ = w.Reflect().EntityAt(e.Index()) // the loading world's handle
	got := *ecs.NewMap[codecBag](w).Get(e)
	if got.S != "kept" || !got.B || got.I64 != 0 || got.L != nil {
		t.Fatalf("an older file loaded into %+v", got)
	}
}

// TestBinaryCodecMerge: Merge rewrites the entities a codec reads to the
// new ids it gives the file's entities.
func TestBinaryCodecMerge(t *testing.T) {
	src := ecs.NewWorld()
	ecs.Register[codecBag](src, ecs.Name("bag"))
	a := src.Spawn()
	b := ecs.NewMap[codecBag](src).Spawn(codecBag{E: a, L: []codecPart{{true, a}}, A: [2]codecPart{{Owner: a}}})
	dst := ecs.NewWorld()
	ecs.Register[codecBag](dst, ecs.Name("bag"))
	for range 5 {
		dst.Spawn() // so the merged ids differ from the file's
	}
	m, err := dst.Merge(bytes.NewReader(saveOf(t, src)))
	if err != nil {
		t.Fatal(err)
	}
	na, _ := m.Get(a)
	nb, _ := m.Get(b)
	got := ecs.NewMap[codecBag](dst).Get(nb)
	if got.E != na || got.L[0].Owner != na || got.A[0].Owner != na || na == a {
		t.Fatalf("merged bag refers to %v, %v, %v; the merged entity is %v (was %v)", got.E, got.L[0].Owner, got.A[0].Owner, na, a)
	}
}

// longCodec writes a byte too many, and badRead reads one too many, but
// only for values that are not zero: their zero values pass the check of
// the first use. (A type saved as its memory, two int32s say, never runs
// its codec.)
type longCodec struct {
	A int32
	B bool
}

func (c *longCodec) EncodeSave(e *ecs.SaveEncoder) {
	e.Int32(c.A)
	e.Bool(c.B)
	if c.A != 0 {
		e.Uint8(0)
	}
}
func (c *longCodec) DecodeSave(d *ecs.SaveDecoder) { c.A = d.Int32(); c.B = d.Bool() }

type badRead struct {
	A int32
	F bool // padding: not saved as memory, so the codec runs
}

func (c *badRead) EncodeSave(e *ecs.SaveEncoder) { e.Int32(c.A); e.Bool(c.F) }
func (c *badRead) DecodeSave(d *ecs.SaveDecoder) {
	c.A = d.Int32()
	c.F = d.Bool()
	if c.F {
		d.Uint8()
	}
}

type plainBadRead badRead

// shortRead's DecodeSave skips F when A is not 0: it reads too little.
type shortRead struct {
	A int32
	F bool
}

func (c *shortRead) EncodeSave(e *ecs.SaveEncoder) { e.Int32(c.A); e.Bool(c.F) }
func (c *shortRead) DecodeSave(d *ecs.SaveDecoder) {
	c.A = d.Int32()
	if c.A == 0 {
		c.F = d.Bool()
	}
}

type plainShortRead shortRead

// TestBinaryCodecOfTheWrongSize: a codec that writes too few bytes makes
// Save panic naming the type; one that reads too many fails the load,
// which leaves the world empty.
func TestBinaryCodecOfTheWrongSize(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[longCodec](w).Spawn(longCodec{1, true})
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, "longCodec's EncodeSave wrote 6 bytes for 1 values; its schema takes 5 bytes each") {
				t.Fatalf("Save with a short codec: %q", msg)
			}
		}()
		w.Save(&bytes.Buffer{})
	}()

	src := ecs.NewWorld()
	ecs.Register[plainBadRead](src, ecs.Name("bad"))
	ecs.NewMap[plainBadRead](src).Spawn(plainBadRead{A: 1, F: true})
	ecs.NewMap[plainBadRead](src).Spawn(plainBadRead{A: 2, F: true})
	dst := ecs.NewWorld()
	ecs.Register[badRead](dst, ecs.Name("bad"))
	err := dst.Load(bytes.NewReader(saveOf(t, src)))
	if err == nil || !strings.Contains(err.Error(), "badRead's DecodeSave read") || dst.Len() != 0 {
		t.Fatalf("Load through a codec that reads too much: %v, %d entities", err, dst.Len())
	}

	src = ecs.NewWorld()
	ecs.Register[plainShortRead](src, ecs.Name("short"))
	ecs.NewMap[plainShortRead](src).Spawn(plainShortRead{A: 1, F: true})
	dst = ecs.NewWorld()
	ecs.Register[shortRead](dst, ecs.Name("short"))
	err = dst.Load(bytes.NewReader(saveOf(t, src)))
	if err == nil || !strings.Contains(err.Error(), "shortRead's DecodeSave read 4 bytes for 1 values") || dst.Len() != 0 {
		t.Fatalf("Load through a codec that reads too little: %v, %d entities", err, dst.Len())
	}
}

// FuzzLoadBinaryCodec: no bytes make a load through a BinaryCodec panic,
// a failed load leaves the world empty, and a loaded world saves again to
// a file that loads.
func FuzzLoadBinaryCodec(f *testing.F) {
	for seed := range uint64(3) {
		codec, _ := bagWorlds(seed, seed == 2, 3) // small: the fuzzer minimises what it finds
		f.Add(saveOf(f, codec))
	}
	// bag saved with a field it does not have, of values that take no
	// bytes: read by reflection, which skips it.
	for _, b := range zeroSizeSeeds("bag", false) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, data := range withSectionCRCs(data) {
			fuzzLoadBinaryCodecOnce(t, data)
		}
	})
}

// fuzzLoadBinaryCodecOnce is FuzzLoadBinaryCodec's check of one file.
func fuzzLoadBinaryCodecOnce(t *testing.T, data []byte) {
	for _, sparse := range []bool{false, true} {
		w := ecs.NewWorld()
		if sparse {
			ecs.Register[codecBag](w, ecs.Name("bag"), ecs.Sparse())
		} else {
			ecs.Register[codecBag](w, ecs.Name("bag"))
		}
		if err := w.Load(bytes.NewReader(data)); err != nil {
			if w.Len() != 0 {
				t.Fatalf("a failed load (%v) left %d entities", err, w.Len())
			}
			continue
		}
		if err := loadFresh(saveOf(t, w), sparse); err != nil {
			t.Fatalf("a loaded world saved to a file that does not load: %v", err)
		}
	}
}

// loadFresh loads data into a new world with plainBag under "bag".
func loadFresh(data []byte, sparse bool) error {
	w := ecs.NewWorld()
	if sparse {
		ecs.Register[plainBag](w, ecs.Name("bag"), ecs.Sparse())
	} else {
		ecs.Register[plainBag](w, ecs.Name("bag"))
	}
	return w.Load(bytes.NewReader(data))
}

// labelledBag embeds codecBag and adds a field: it gets codecBag's methods,
// which do not save Note. missesField's hand-written codec forgets F.
type labelledBag struct {
	codecBag
	Note string
}

type missesField struct {
	A int32
	F bool
}

func (c *missesField) EncodeSave(e *ecs.SaveEncoder) { e.Int32(c.A) }
func (c *missesField) DecodeSave(d *ecs.SaveDecoder) { c.A = d.Int32() }

// TestBinaryCodecThatDisagreesIsNotUsed: methods promoted from an embedded
// field, or a codec that misses a field, write other bytes than the type's
// schema for its zero value, so the type is saved by reflection and
// nothing is lost.
func TestBinaryCodecThatDisagreesIsNotUsed(t *testing.T) {
	w := ecs.NewWorld()
	a := ecs.NewMap[labelledBag](w).Spawn(labelledBag{codecBag{S: "bag"}, "important"})
	b := ecs.NewMap[missesField](w).Spawn(missesField{7, true})
	back := ecs.NewWorld()
	ecs.Register[labelledBag](back)
	ecs.Register[missesField](back)
	if err := back.Load(bytes.NewReader(saveOf(t, w))); err != nil {
		t.Fatal(err)
	}
	a, _ = back.Reflect().EntityAt(a.Index())
	b, _ = back.Reflect().EntityAt(b.Index())
	if got := ecs.NewMap[labelledBag](back).Get(a); got.Note != "important" || got.S != "bag" {
		t.Errorf("the embedding type loaded as %+v", got)
	}
	if got := *ecs.NewMap[missesField](back).Get(b); got != (missesField{7, true}) {
		t.Errorf("the type with a codec that misses a field loaded as %+v", got)
	}
}

// summedBag is a codecBag whose Checksum hashes its saved bytes.
type summedBag struct{ codecBag }

func (b *summedBag) Checksum() uint64 { return ecs.SaveChecksum(&b.codecBag) }

// TestSaveChecksum: a Checksummer built on SaveChecksum lets the world's
// checksum see inside slices, which it skips otherwise; every NaN counts
// as one; it allocates nothing once warm.
func TestSaveChecksum(t *testing.T) {
	sum := func(b codecBag) uint64 {
		w := ecs.NewWorld()
		ecs.NewMap[summedBag](w).Spawn(summedBag{b})
		return w.Checksum()
	}
	base := codecBag{N: []string{"a"}, L: []codecPart{{On: true}}}
	if sum(base) != sum(codecBag{N: []string{"a"}, L: []codecPart{{On: true}}}) {
		t.Error("equal values, different checksums")
	}
	for name, other := range map[string]codecBag{
		"a string in a slice": {N: []string{"b"}, L: []codecPart{{On: true}}},
		"a bool in a slice":   {N: []string{"a"}, L: []codecPart{{On: false}}},
		"a longer slice":      {N: []string{"a", ""}, L: []codecPart{{On: true}}},
	} {
		if sum(other) == sum(base) {
			t.Errorf("%s changed, the checksum did not", name)
		}
	}
	nan1, nan2 := math.Float64frombits(0x7FF8000000000001), math.Float64frombits(0x7FF8000000000002)
	if ecs.SaveChecksum(&codecBag{F64: nan1}) != ecs.SaveChecksum(&codecBag{F64: nan2}) {
		t.Error("two NaNs hash differently")
	}
	v := &codecBag{N: []string{"x", "y"}}
	ecs.SaveChecksum(v)
	if n := testing.AllocsPerRun(100, func() { ecs.SaveChecksum(v) }); n != 0 && !raceEnabled {
		t.Errorf("SaveChecksum allocates %v times a call", n)
	}
}

package ecs_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/compgen/gentest"
)

type codecHealth struct {
	HP, MaxHP int32
	Status    uint8
}

type codecLink struct {
	Target ecs.Entity
	Names  []string
	Path   [2]ecs.Entity
	Ok     bool
}

func TestSaveCodecRoundTripsValues(t *testing.T) {
	hc, err := ecs.NewSaveCodec[codecHealth]()
	if err != nil {
		t.Fatal(err)
	}
	h := codecHealth{HP: -3, MaxHP: 12, Status: 2}
	b := hc.Append([]byte{0xAA}, &h)
	if len(b) != 1+9 || b[0] != 0xAA || hc.Size() != 9 {
		t.Fatalf("Append gave %d bytes %x, Size %d; want 0xAA then 9 bytes", len(b), b, hc.Size())
	}
	if got := hc.Fields(nil); !bytes.Equal(got, []byte{4, 4, 1}) {
		t.Fatalf("Fields = %v, want [4 4 1]", got)
	}
	var back codecHealth
	n, err := hc.Decode(b[1:], &back, nil)
	if err != nil || n != 9 || back != h {
		t.Fatalf("Decode = %v, %d, %v; want %v, 9, nil", back, n, err, h)
	}

	w := ecs.NewWorld()
	a, c := w.Spawn(), w.Spawn()
	lc, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		t.Fatal(err)
	}
	if lc.Size() != -1 || len(lc.Fields(nil)) != 0 {
		t.Fatalf("a layout with a slice has Size %d and Fields %v; want -1 and none", lc.Size(), lc.Fields(nil))
	}
	l := codecLink{Target: a, Names: []string{"x", "yz"}, Path: [2]ecs.Entity{c, {}}, Ok: true}
	if refs := lc.Refs(&l, nil); len(refs) != 2 || refs[0] != a || refs[1] != c {
		t.Fatalf("Refs = %v, want [%v %v]", refs, a, c)
	}
	enc := lc.Append(nil, &l)
	var seen []ecs.Entity
	other := ecs.NewWorld()
	mapped := other.Spawn()
	var got codecLink
	n, err = lc.Decode(enc, &got, func(e ecs.Entity) ecs.Entity { seen = append(seen, e); return mapped })
	if err != nil || n != len(enc) {
		t.Fatalf("Decode: %d of %d bytes, %v", n, len(enc), err)
	}
	if len(seen) != 2 || seen[0].Index() != a.Index() || seen[1].Index() != c.Index() {
		t.Fatalf("mapEntity saw %v, want the indices of %v and %v", seen, a, c)
	}
	if got.Target != mapped || got.Path[0] != mapped || !got.Path[1].IsZero() || !got.Ok || strings.Join(got.Names, ",") != "x,yz" {
		t.Fatalf("Decode gave %+v", got)
	}
	n, err = lc.Decode(enc, &got, nil)
	if err != nil || !got.Target.IsZero() || !got.Path[0].IsZero() || n != len(enc) {
		t.Fatalf("without mapEntity, Decode gave %+v, %v; want zero entities", got, err)
	}
}

func TestSaveCodecDecodeRefusesBadBytes(t *testing.T) {
	lc, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		t.Fatal(err)
	}
	l := codecLink{Names: []string{"abc"}, Ok: true}
	enc := lc.Append(nil, &l)
	for cut := range len(enc) {
		var got codecLink
		got.Ok = true
		if _, err := lc.Decode(enc[:cut], &got, nil); err == nil || got.Ok {
			t.Fatalf("a value cut at %d of %d bytes decoded without error (%+v)", cut, len(enc), got)
		} else if !strings.Contains(err.Error(), "SaveCodec[ecs_test.codecLink].Decode") {
			t.Fatalf("error %q does not name the codec", err)
		}
	}
	bad := bytes.Clone(enc)
	bad[len(bad)-1] = 7 // the bool
	var got codecLink
	if _, err := lc.Decode(bad, &got, nil); err == nil {
		t.Fatal("a bool of 7 decoded")
	}
}

func TestSaveCodecSchemaTellsLayoutsApart(t *testing.T) {
	type a struct{ X, Y float32 }
	type b struct{ Y, X float32 }
	ca, _ := ecs.NewSaveCodec[a]()
	ca2, _ := ecs.NewSaveCodec[a]()
	cb, _ := ecs.NewSaveCodec[b]()
	if ca.Schema() != ca2.Schema() || ca.Schema() == cb.Schema() {
		t.Fatalf("Schema: a %x, a again %x, b %x; want the first two equal and b different", ca.Schema(), ca2.Schema(), cb.Schema())
	}
	if _, err := ecs.NewSaveCodec[struct{ P *int }](); err == nil {
		t.Fatal("a pointer field was accepted")
	}
}

// FuzzSaveCodecDecode decodes any bytes with codecs of every path
// (step by step, reflection, BinaryCodec methods, of fixed and varying
// sizes): each gives a value or an error, never a panic, and a value
// passes fuzzDecode's checks.
func FuzzSaveCodecDecode(f *testing.F) {
	link := mustSaveCodec[codecLink](f)
	padded := mustSaveCodec[codecPadded](f)
	flat := mustSaveCodec[codecFlat](f)
	nest := mustSaveCodec[codecNest](f)
	lists := mustSaveCodec[codecLists](f)
	owned := mustSaveCodec[codecOwned](f)
	pinned := mustSaveCodec[codecPinned](f)
	inventory := mustSaveCodec[gentest.Inventory](f)
	_, ents, _ := codecEntities(rand.New(rand.NewPCG(5, 6)))
	g := &codecRand{r: rand.New(rand.NewPCG(7, 8)), ents: ents}
	for range 2 {
		f.Add(fuzzSeed(g, link))
		f.Add(fuzzSeed(g, padded))
		f.Add(fuzzSeed(g, flat))
		f.Add(fuzzSeed(g, nest))
		f.Add(fuzzSeed(g, lists))
		f.Add(fuzzSeed(g, owned))
		f.Add(fuzzSeed(g, pinned))
		f.Add(fuzzSeed(g, inventory))
	}
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecode(t, link, data)
		fuzzDecode(t, padded, data)
		fuzzDecode(t, flat, data)
		fuzzDecode(t, nest, data)
		fuzzDecode(t, lists, data)
		fuzzDecode(t, owned, data)
		fuzzDecode(t, pinned, data)
		fuzzDecode(t, inventory, data)
	})
}

func mustSaveCodec[T any](f *testing.F) *ecs.SaveCodec[T] {
	c, err := ecs.NewSaveCodec[T]()
	if err != nil {
		f.Fatal(err)
	}
	return c
}

// fuzzSeed is the bytes of a small random value of c's type.
func fuzzSeed[T any](g *codecRand, c *ecs.SaveCodec[T]) []byte {
	v := codecRandValue[T](g, 40)
	return c.Append(nil, &v)
}

// fuzzDecode decodes data with c. An error must leave the value zero and
// call no mapEntity. A value must have used at most len(data) bytes
// (Size() of a fixed layout), its entities must be those mapEntity saw,
// in Refs' order; its bytes alone must decode to it; and it must write
// bytes that decode to it again, the very bytes it was read from when
// its size is fixed (varints may come overlong, so bytes of a varying
// size need not repeat).
func fuzzDecode[T any](t *testing.T, c *ecs.SaveCodec[T], data []byte) {
	var seen []ecs.Entity
	keep := func(e ecs.Entity) ecs.Entity { seen = append(seen, e); return e }
	var v, zero T
	n, err := c.Decode(data, &v, keep)
	if err != nil {
		if d := sameCodecValue(&zero, &v); d != "" || len(seen) != 0 {
			t.Fatalf("%T: a failed Decode left the value non-zero at %q and called mapEntity %d times", v, d, len(seen))
		}
		return
	}
	if n > len(data) || (c.Size() >= 0 && n != c.Size()) {
		t.Fatalf("%T: used %d of %d bytes; Size is %d", v, n, len(data), c.Size())
	}
	refs := c.Refs(&v, nil)
	if len(refs) != len(seen) {
		t.Fatalf("%T: Refs lists %v, mapEntity saw %v", v, refs, seen)
	}
	for i := range refs {
		if refs[i] != seen[i] {
			t.Fatalf("%T: Refs lists %v, mapEntity saw %v", v, refs, seen)
		}
	}
	var alone T
	if m, err := c.Decode(data[:n:n], &alone, func(e ecs.Entity) ecs.Entity { return e }); err != nil || m != n {
		t.Fatalf("%T: its own %d bytes decode with %d bytes, %v", v, n, m, err)
	} else if d := sameCodecValue(&v, &alone); d != "" {
		t.Fatalf("%T: its own bytes decode to another value, at %s", v, d)
	}
	again := c.Append(nil, &v)
	if c.Size() >= 0 && !bytes.Equal(again, data[:n]) {
		t.Fatalf("%T: read from %x, writes %x", v, data[:n], again)
	}
	var w T
	if m, err := c.Decode(again, &w, func(e ecs.Entity) ecs.Entity { return e }); err != nil || m != len(again) {
		t.Fatalf("%T: decoded value writes %x, which decodes with %d bytes, %v", v, again, m, err)
	} else if d := sameCodecValue(&v, &w); d != "" {
		t.Fatalf("%T: decoded value writes %x, which decodes to another value, at %s", v, again, d)
	}
}

type blanky struct {
	A int32
	_ int32
	B bool
	_ [3]byte
	N [0]func()
}

type refTo ecs.Entity

type holdsRef struct{ R refTo }

// TestSaveLoadBlankZeroLengthAndEntityTypedFields: blank fields, zero-length arrays of anything and types
// defined from Entity save and load.
func TestSaveLoadBlankZeroLengthAndEntityTypedFields(t *testing.T) {
	w := ecs.NewWorld()
	target := w.Spawn()
	ecs.NewMap[blanky](w).Spawn(blanky{A: 3, B: true})
	ecs.NewMap[holdsRef](w).Spawn(holdsRef{R: refTo(target)})
	data := saveOf(t, w)
	back := ecs.NewWorld()
	ecs.NewMap[blanky](back)
	ecs.NewMap[holdsRef](back)
	if err := back.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	for r := range ecs.NewQuery1[blanky](back).All() {
		if r.A.A != 3 || !r.A.B {
			t.Fatalf("blanky loaded as %+v", *r.A)
		}
	}
	for r := range ecs.NewQuery1[holdsRef](back).All() {
		if e := ecs.Entity(r.A.R); !back.Alive(e) || e.Index() != target.Index() {
			t.Fatalf("a refTo loaded as %v, alive %v", e, back.Alive(e))
		}
	}
	if err := ecs.NewWorld().LoadJSON(bytes.NewReader(append(saveJSONOf(t, ecs.NewWorld()), []byte(" {}")...))); err == nil {
		t.Fatal("LoadJSON accepted data after the save")
	}
}

package ecs_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/compgen/gentest"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// codecCase runs the SaveCodec checks on one type.
type codecCase interface {
	label() string
	// againstSave spawns random values in a world (a table, or a sparse
	// set), saves it, and checks each value's bytes in the file are
	// Append's and decode to the value.
	againstSave(t *testing.T, r *rand.Rand, sparse bool)
	// alone saves a world of one entity with one value, and checks the
	// table's section is the row and Append's bytes, byte for byte.
	alone(t *testing.T, r *rand.Rand)
	// roundTrips checks n random values (see checkRoundTrip), reporting
	// with Errorf: it may run on a goroutine of its own.
	roundTrips(t *testing.T, r *rand.Rand, n int)
}

type codecCaseOf[T any] struct {
	name string
	c    *ecs.SaveCodec[T]
}

func (k *codecCaseOf[T]) label() string { return k.name }

func caseOf[T any](t testing.TB, name string) codecCase {
	c, err := ecs.NewSaveCodec[T]()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &codecCaseOf[T]{name, c}
}

// saveCodecCases are the types of the SaveCodec tests, one of each shape
// (save_value_codec_types_test.go), and generated ones.
func saveCodecCases(t testing.TB) []codecCase {
	return []codecCase{
		caseOf[scVec](t, "packed"),
		caseOf[codecHealth](t, "padded"),
		caseOf[codecPadded](t, "blank and bools"),
		caseOf[codecScore](t, "int"),
		caseOf[codecInts](t, "numbers"),
		caseOf[codecText](t, "strings"),
		caseOf[codecLists](t, "slices"),
		caseOf[codecPath](t, "entity arrays"),
		caseOf[codecNest](t, "nested"),
		caseOf[codecFlat](t, "fixed with entities"),
		caseOf[codecLong](t, "long fixed"),
		caseOf[codecLink](t, "link"),
		caseOf[codecHidden](t, "unexported"),
		caseOf[codecNone](t, "empty"),
		caseOf[codecOwned](t, "hand codec"),
		caseOf[codecPinned](t, "hand codec, fixed"),
		caseOf[codecSkewed](t, "skewed codec"),
		caseOf[gentest.Position](t, "gen Position"),
		caseOf[gentest.Health](t, "gen Health"),
		caseOf[gentest.Scalars](t, "gen Scalars"),
		caseOf[gentest.Inventory](t, "gen Inventory"),
		caseOf[gentest.Stack](t, "gen Stack"),
		caseOf[gentest.Deep](t, "gen Deep"),
		caseOf[gentest.Tuning](t, "gen Tuning"),
	}
}

// codecMapper returns a mapEntity that gives back the entity of byKey
// with the index and generation it is passed, recording each in seen,
// and failing t for one byKey lacks or that carries a tag.
func codecMapper(t *testing.T, byKey map[[2]uint32]ecs.Entity, seen *[]ecs.Entity) func(ecs.Entity) ecs.Entity {
	return func(e ecs.Entity) ecs.Entity {
		*seen = append(*seen, e)
		got, ok := byKey[[2]uint32{e.Index(), e.Generation()}]
		if !ok {
			t.Errorf("mapEntity was passed %v, no entity of the test", e)
		}
		return got
	}
}

func (k *codecCaseOf[T]) againstSave(t *testing.T, r *rand.Rand, sparse bool) {
	w, ents, byKey := codecEntities(r)
	name := "codec " + k.name
	opts := []ecs.ComponentOption{ecs.Name(name)}
	if sparse {
		opts = append(opts, ecs.Sparse())
	}
	ecs.Register[T](w, opts...)
	m := ecs.NewMap[T](w)
	g := &codecRand{r: r, ents: ents}
	vals := make([]T, 10)
	row := map[uint32]int{} // entity index -> value
	for i := range vals {
		vals[i] = codecRandValue[T](g, 3000)
		row[m.Spawn(vals[i]).Index()] = i
	}
	var file bytes.Buffer
	if err := w.Save(&file); err != nil {
		t.Fatal(err)
	}
	indices, saved, err := ecs.SavedValues(file.Bytes(), name)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != len(vals) {
		t.Fatalf("the file holds %d values of %s, want %d", len(saved), name, len(vals))
	}
	for j, b := range saved {
		i, ok := row[indices[j]]
		if !ok {
			t.Fatalf("the file's value %d is of entity index %d, which has none", j, indices[j])
		}
		if want := k.c.Append(nil, &vals[i]); !bytes.Equal(b, want) {
			t.Fatalf("value %d: Save wrote %d bytes %x, Append %d bytes %x", i, len(b), trimHex(b), len(want), trimHex(want))
		}
		var seen []ecs.Entity
		var got T
		n, err := k.c.Decode(b, &got, codecMapper(t, byKey, &seen))
		if err != nil || n != len(b) {
			t.Fatalf("value %d: Decode of the file's bytes: %d of %d bytes, %v", i, n, len(b), err)
		}
		if d := sameCodecValue(&vals[i], &got); d != "" {
			t.Fatalf("value %d: Decode of the file's bytes differs at %s", i, d)
		}
	}
}

// trimHex shortens b for a message.
func trimHex(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

func (k *codecCaseOf[T]) alone(t *testing.T, r *rand.Rand) {
	_, ents, _ := codecEntities(r) // of another world: Save writes them all the same
	w := ecs.NewWorld()
	g := &codecRand{r: r, ents: ents}
	v := codecRandValue[T](g, 3000)
	e := ecs.NewMap[T](w).Spawn(v)
	var file bytes.Buffer
	if err := w.Save(&file); err != nil {
		t.Fatal(err)
	}
	b := file.Bytes()
	// The magic, the version (2: sections), then the entity index, the
	// types and the one table, each a section: its length in 8 bytes, its
	// content and a CRC in 4.
	if !bytes.HasPrefix(b, []byte("tessera\x00\x02")) {
		t.Fatalf("the file starts %q", b[:min(len(b), 9)])
	}
	b = b[9:]
	var table []byte
	for range 3 {
		if len(b) < 12 {
			t.Fatalf("the file ends inside a section")
		}
		n := binary.LittleEndian.Uint64(b)
		if n > uint64(len(b)-12) {
			t.Fatalf("a section of %d bytes, %d left", n, len(b)-12)
		}
		table, b = b[8:8+n], b[8+n+4:]
	}
	// One column, of the file's type 0; one row, e's index; e's value.
	want := binary.AppendUvarint([]byte{1, 0, 1}, uint64(e.Index()))
	want = k.c.Append(want, &v)
	if !bytes.Equal(table, want) {
		t.Fatalf("the table's section is %x, want %x", trimHex(table), trimHex(want))
	}
}

func TestSaveCodecWritesWhatSaveWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range saveCodecCases(t) {
		t.Run(k.label(), func(t *testing.T) {
			k.againstSave(t, r, false)
			k.againstSave(t, r, true)
			k.alone(t, r)
		})
	}
}

// TestSaveCodecUsesMethodsAsSaveDoes checks that a type's BinaryCodec
// methods write and read its values when they agree with its schema, and
// that a type whose methods do not is written by reflection, as its twin
// without methods is.
func TestSaveCodecUsesMethodsAsSaveDoes(t *testing.T) {
	oc, err := ecs.NewSaveCodec[codecOwned]()
	if err != nil {
		t.Fatal(err)
	}
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	v := codecOwned{Owner: a, Items: []ecs.Entity{b, {}, a}, Note: "n"}
	before := codecOwnedCalls.Load()
	enc := oc.Append(nil, &v)
	var seen []ecs.Entity
	var got codecOwned
	_, err = oc.Decode(enc, &got, func(e ecs.Entity) ecs.Entity { seen = append(seen, e); return e })
	if calls := codecOwnedCalls.Load() - before; err != nil || calls != 2 {
		t.Fatalf("Append and Decode made %d calls of the methods (%v); want 2", calls, err)
	}
	if len(seen) != 3 || seen[0].Index() != a.Index() || seen[1].Index() != b.Index() || seen[2].Index() != a.Index() {
		t.Fatalf("mapEntity saw %v through DecodeSave; want %v %v %v", seen, a, b, a)
	}

	sc, err := ecs.NewSaveCodec[codecSkewed]()
	if err != nil {
		t.Fatal(err)
	}
	tc, err := ecs.NewSaveCodec[codecSkewedTwin]()
	if err != nil {
		t.Fatal(err)
	}
	s, twin := codecSkewed{A: 5, Note: "kept"}, codecSkewedTwin{A: 5, Note: "kept"}
	enc = sc.Append(nil, &s)
	if want := tc.Append(nil, &twin); !bytes.Equal(enc, want) {
		t.Fatalf("a type whose methods disagree with its schema wrote %x; by reflection it is %x", enc, want)
	}
	var back codecSkewed
	if _, err := sc.Decode(enc, &back, nil); err != nil || back != s {
		t.Fatalf("Decode gave %+v, %v; want %+v", back, err, s)
	}
}

// TestSaveCodecChecksFixedMethods checks that methods of a fixed-size
// type that write or read other than its size are caught, as Save and
// Load catch them: Append panics naming the type, Decode errors.
func TestSaveCodecChecksFixedMethods(t *testing.T) {
	c, err := ecs.NewSaveCodec[codecGreedy]()
	if err != nil {
		t.Fatal(err)
	}
	ok := codecGreedy{A: 1, B: 2}
	enc := c.Append(nil, &ok)
	if len(enc) != 5 || c.Size() != 5 {
		t.Fatalf("Append wrote %d bytes, Size %d; want 5", len(enc), c.Size())
	}
	testhelp.MustPanic(t, func() { c.Append(nil, &codecGreedy{A: 7}) }, "SaveCodec[ecs_test.codecGreedy].Append", "wrote 6 bytes")
	w := ecs.NewWorld()
	ecs.NewMap[codecGreedy](w).Spawn(codecGreedy{A: 7})
	testhelp.MustPanic(t, func() { _ = w.Save(&bytes.Buffer{}) }, "codecGreedy", "EncodeSave wrote 6 bytes")

	for _, a := range []uint32{8, 9} {
		bad := c.Append(nil, &codecGreedy{A: a})
		bad = append(bad, 0xFF) // a byte more, which the method must not see
		var got codecGreedy
		if n, err := c.Decode(bad, &got, nil); err == nil || got != (codecGreedy{}) {
			t.Fatalf("A=%d: a DecodeSave that reads other than 5 bytes gave %+v, %d bytes, %v", a, got, n, err)
		}
	}
}

// TestSaveCodecWritesUnexportedFields checks that unexported fields are
// written and read, as Save writes them, an entity among them mapped.
func TestSaveCodecWritesUnexportedFields(t *testing.T) {
	c, err := ecs.NewSaveCodec[codecHidden]()
	if err != nil {
		t.Fatal(err)
	}
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	v := codecHidden{X: 3, hidden: "h", ref: a}
	var got codecHidden
	n, err := c.Decode(c.Append(nil, &v), &got, func(ecs.Entity) ecs.Entity { return b })
	if err != nil || n != 4+2+8 || got != (codecHidden{X: 3, hidden: "h", ref: b}) {
		t.Fatalf("Decode gave %+v, %d bytes, %v; want hidden \"h\" and ref %v in 14 bytes", got, n, err, b)
	}
	if refs := c.Refs(&v, nil); len(refs) != 1 || refs[0] != a {
		t.Fatalf("Refs = %v, want [%v]", refs, a)
	}
}

// TestSaveCodecDecodeRefusesBadFixedBytes checks the errors of the
// fixed layouts, written step by step or by methods: a bool other than 0
// or 1 and an entity generation past the largest, at their byte.
func TestSaveCodecDecodeRefusesBadFixedBytes(t *testing.T) {
	w := ecs.NewWorld()
	a := w.Spawn()
	refuse := func(what string, decode func([]byte) error, enc []byte, at int, b byte, wants ...string) {
		t.Helper()
		bad := bytes.Clone(enc)
		bad[at] = b
		err := decode(bad)
		if err == nil {
			t.Fatalf("%s: byte %d set to %d decoded", what, at, b)
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("%s: error %q does not mention %q", what, err, want)
			}
		}
	}

	pc, _ := ecs.NewSaveCodec[codecPadded]()
	p := codecPadded{On: true, N: -1, Flags: [3]bool{true, false, true}}
	enc := pc.Append(nil, &p)
	decodePadded := func(b []byte) error {
		var v codecPadded
		_, err := pc.Decode(b, &v, nil)
		if err != nil && v != (codecPadded{}) {
			t.Fatalf("a failed decode left %+v", v)
		}
		return err
	}
	for _, at := range []int{0, 12, 13, 14} { // On, then Flags after N, M and K
		refuse("codecPadded", decodePadded, enc, at, 2, "SaveCodec[ecs_test.codecPadded].Decode", fmt.Sprintf("at byte %d", at), "a bool of value 2")
	}

	fc, _ := ecs.NewSaveCodec[codecFlat]()
	f := codecFlat{A: codecEdge{To: a}, B: [3]codecEdge{{}, {To: a}}, On: true}
	enc = fc.Append(nil, &f)
	decodeFlat := func(b []byte) error { var v codecFlat; _, err := fc.Decode(b, &v, nil); return err }
	refuse("codecFlat", decodeFlat, enc, 7, 0x01, "at byte 0", "generation")        // A.To's generation
	refuse("codecFlat", decodeFlat, enc, 12+12+7, 0xFF, "at byte 24", "generation") // B[1].To's
	refuse("codecFlat", decodeFlat, enc, len(enc)-1, 3, fmt.Sprintf("at byte %d", len(enc)-1), "a bool of value 3")

	mc, _ := ecs.NewSaveCodec[codecPinned]()
	m := codecPinned{Who: a, HP: 1, Alive: true}
	enc = mc.Append(nil, &m)
	decodePinned := func(b []byte) error { var v codecPinned; _, err := mc.Decode(b, &v, nil); return err }
	refuse("codecPinned", decodePinned, enc, 7, 0x01, "generation")
	refuse("codecPinned", decodePinned, enc, 12, 2, "a bool of value 2")
}

// codecVoids holds arrays that take no bytes however long they are.
type codecVoids struct {
	A [math.MaxInt32]struct{}
	B [1 << 20][0]int64
	N int32
}

// TestSaveCodecSkipsValuesOfNoSize checks that parts of a type that take
// no bytes cost nothing to make a codec for, to write or to read, however
// many elements they claim.
func TestSaveCodecSkipsValuesOfNoSize(t *testing.T) {
	testhelp.FinishesWithin(t, time.Second, "SaveCodec of arrays of no size", func() {
		c, err := ecs.NewSaveCodec[codecVoids]()
		if err != nil {
			t.Error(err)
			return
		}
		v := codecVoids{N: -2}
		enc := c.Append(nil, &v)
		var got codecVoids
		n, err := c.Decode(enc, &got, nil)
		if fields := c.Fields(nil); c.Size() != 4 || len(enc) != 4 || len(fields) != 1 || fields[0] != 4 || err != nil || n != 4 || got.N != -2 {
			t.Errorf("Size %d, Fields %v, Append %x, Decode %d bytes, %v, N %d; want 4, [4], 4 bytes and N -2", c.Size(), fields, enc, n, err, got.N)
		}
		if refs := c.Refs(&v, nil); len(refs) != 0 {
			t.Errorf("Refs = %v", refs)
		}
	})
}

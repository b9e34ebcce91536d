package ecs_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// hangGuard is how long the calls below may take before they count as
// hung. They take milliseconds; the guard is long so that a loaded machine
// or an emulated 32-bit run never trips it, since it only has to tell them
// from a walk of the 2^62 elements a file claims.
const hangGuard = 30 * time.Second

// TestMergeSkipsZeroSizeResourcesInTime: Merge reads past a resource whose
// schema claims 2^31-1 (or 2^62) values that take no bytes at once, not
// value by value: the 26 and 32 bytes of the first two files once cost
// 2^31 and 2^62 steps.
func TestMergeSkipsZeroSizeResourcesInTime(t *testing.T) {
	for _, c := range zeroSizeSchemas() {
		data := resourceFile("x", c.s, c.value)
		if c.fileBytes != 0 && len(data) != c.fileBytes {
			t.Fatalf("%s: a file of %d bytes, want %d", c.name, len(data), c.fileBytes)
		}
		testhelp.FinishesWithin(t, hangGuard, "Merge of a resource "+c.name, func() {
			w := ecs.NewWorld()
			mp, err := w.Merge(bytes.NewReader(data))
			if err != nil || mp.Len() != 0 || w.Len() != 0 {
				t.Errorf("Merge of a resource %s: %v, %d merged", c.name, err, w.Len())
			}
		})
	}
}

// zeroHost is the type the files of zeroSizeSeeds are loaded as.
type zeroHost struct{ V int32 }

// TestLoadSkipsZeroSizeFieldsInTime: Load and Merge read past a field the
// type no longer has whose values take no bytes, however many the schema
// claims, and read the fields around it.
func TestLoadSkipsZeroSizeFieldsInTime(t *testing.T) {
	for _, c := range zeroSizeSchemas() {
		for _, sparse := range []bool{false, true} {
			s := structOf(schemaField{"Gone", c.s}, schemaField{"V", kindOf(kindInt32)})
			data := componentFile("zero.host", sparse, s, append(c.value, 7, 0, 0, 0))
			world := func() (*ecs.World, *ecs.Map[zeroHost]) {
				w := ecs.NewWorld()
				if sparse {
					ecs.Register[zeroHost](w, ecs.Name("zero.host"), ecs.Sparse())
				} else {
					ecs.Register[zeroHost](w, ecs.Name("zero.host"))
				}
				return w, ecs.NewMap[zeroHost](w)
			}
			testhelp.FinishesWithin(t, hangGuard, "Load of a field "+c.name, func() {
				w, m := world()
				if err := w.Load(bytes.NewReader(data)); err != nil {
					t.Errorf("Load of a field %s (sparse %v): %v", c.name, sparse, err)
					return
				}
				if e, ok := w.Reflect().EntityAt(1); !ok || m.Get(e).V != 7 {
					t.Errorf("Load of a field %s (sparse %v): entity 1 alive %v", c.name, sparse, ok)
				}
			})
			testhelp.FinishesWithin(t, hangGuard, "Merge of a field "+c.name, func() {
				w, m := world()
				mp, err := w.Merge(bytes.NewReader(data))
				if err != nil || mp.Len() != 1 {
					t.Errorf("Merge of a field %s (sparse %v): %v", c.name, sparse, err)
					return
				}
				for _, e := range mp.All() {
					if m.Get(e).V != 7 {
						t.Errorf("Merge of a field %s (sparse %v): V %d, want 7", c.name, sparse, m.Get(e).V)
					}
				}
			})
		}
	}
}

// zeroGrid holds 2^62 values that take no memory and no bytes of a save;
// zeroGridV2 is a later version of it, with its fields reordered and one
// more, so a file of zeroGrid loads into it field by field.
type zeroGrid struct {
	Cells [max31][max31][0]string
	Empty [max31]struct{}
	N     int32
}

type zeroGridV2 struct {
	N     int32
	Note  string
	Empty [max31]struct{}
	Cells [max31][max31][0]string
}

// TestSaveLoadZeroSizeArraysInTime: a type whose arrays hold 2^62 values
// of no size saves, loads and merges at once, into itself and into a
// later version of itself.
func TestSaveLoadZeroSizeArraysInTime(t *testing.T) {
	src := ecs.NewWorld()
	ecs.Register[zeroGrid](src, ecs.Name("zero.grid"))
	ecs.NewMap[zeroGrid](src).Spawn(zeroGrid{N: 5})
	var data []byte
	testhelp.FinishesWithin(t, hangGuard, "Save", func() { data = saveOf(t, src) })
	if len(data) > 136 { // 100, and 12 for each of 3 sections' length and CRC
		t.Fatalf("a save of one entity of 4 bytes took %d bytes", len(data))
	}
	testhelp.FinishesWithin(t, hangGuard, "Load into the same type", func() {
		w := ecs.NewWorld()
		ecs.Register[zeroGrid](w, ecs.Name("zero.grid"))
		if err := w.Load(bytes.NewReader(data)); err != nil {
			t.Error(err) // f runs on another goroutine: no Fatal
			return
		}
		if e, _ := w.Reflect().EntityAt(1); ecs.NewMap[zeroGrid](w).Get(e).N != 5 {
			t.Error("N did not load")
		}
	})
	testhelp.FinishesWithin(t, hangGuard, "Load into a later version", func() {
		w := ecs.NewWorld()
		ecs.Register[zeroGridV2](w, ecs.Name("zero.grid"))
		if err := w.Load(bytes.NewReader(data)); err != nil {
			t.Error(err) // f runs on another goroutine: no Fatal
			return
		}
		if e, _ := w.Reflect().EntityAt(1); ecs.NewMap[zeroGridV2](w).Get(e).N != 5 {
			t.Error("N did not load")
		}
	})
	testhelp.FinishesWithin(t, hangGuard, "Merge into a later version", func() {
		w := ecs.NewWorld()
		ecs.Register[zeroGridV2](w, ecs.Name("zero.grid"))
		if mp, err := w.Merge(bytes.NewReader(data)); err != nil || mp.Len() != 1 {
			t.Error(err) // f runs on another goroutine: no Fatal
			return
		}
	})
}

// TestLoadManyZeroSizeFieldsInLinearTime: a struct of 100,000 fields that
// take no bytes beside one string costs the reader nothing per value for
// those fields: 100,000 values of it, skipped in an array or read as
// 100,000 rows, take time in proportion to the file, not 10^10 steps.
func TestLoadManyZeroSizeFieldsInLinearTime(t *testing.T) {
	const n = 100_000
	fields := make([]schemaField, 0, n+1)
	for range n {
		fields = append(fields, schemaField{"z", arrayOf(0, kindOf(kindString))})
	}
	fields = append(fields, schemaField{"S", kindOf(kindString)})
	wide := structOf(fields...)

	skipped := resourceFile("x", arrayOf(n, wide), make([]byte, n)) // n empty strings
	testhelp.FinishesWithin(t, hangGuard, "Merge skipping the array", func() {
		if _, err := ecs.NewWorld().Merge(bytes.NewReader(skipped)); err != nil {
			t.Error(err)
		}
	})

	b := saveHeader(n).uv(1).str("zero.wide")
	b = append(append(b, 0), wide...)
	b = b.uv(1, 1, 0, n) // one table of type 0, n rows
	for i := range n {
		b = b.uv(uint64(i) + 1)
	}
	for i := range n {
		b = b.str(string(rune('a' + i%26)))
	}
	rows := b.uv(0, 0)
	type zeroWide struct{ S string }
	testhelp.FinishesWithin(t, hangGuard, "Load of the rows", func() {
		w := ecs.NewWorld()
		ecs.Register[zeroWide](w, ecs.Name("zero.wide"))
		if err := w.Load(bytes.NewReader(rows)); err != nil {
			t.Error(err) // f runs on another goroutine: no Fatal
			return
		}
		if e, _ := w.Reflect().EntityAt(n); ecs.NewMap[zeroWide](w).Get(e).S != string(rune('a'+(n-1)%26)) {
			t.Error("the last row's S did not load")
		}
	})
}

// TestLoadRefusesDeepSchemas: a schema nested 1,000,000 deep (arrays,
// slices or structs) is refused at once with an error, without deep
// recursion; 64 levels load.
func TestLoadRefusesDeepSchemas(t *testing.T) {
	const deep = 1_000_000
	nest := map[string]func(n int) saveBytes{
		"arrays": func(n int) saveBytes {
			var b saveBytes
			for range n {
				b = b.uv(kindArray, 1)
			}
			return b.uv(kindUint8)
		},
		"slices": func(n int) saveBytes {
			var b saveBytes
			for range n {
				b = b.uv(kindSlice)
			}
			return b.uv(kindUint8)
		},
		"structs": func(n int) saveBytes {
			var b saveBytes
			for range n {
				b = b.uv(kindStruct, 1).str("f")
			}
			return b.uv(kindUint8)
		},
	}
	for name, mk := range nest {
		data := resourceFile("x", mk(deep), nil)
		testhelp.FinishesWithin(t, hangGuard, "Merge of "+name, func() {
			_, err := ecs.NewWorld().Merge(bytes.NewReader(data))
			if err == nil || !strings.Contains(err.Error(), "nested more than 64 deep") {
				t.Errorf("%d nested %s: %v", deep, name, err)
			}
		})
		value := []byte{9}
		if name == "slices" {
			value = []byte{0} // an empty slice
		}
		if _, err := ecs.NewWorld().Merge(bytes.NewReader(resourceFile("x", mk(64), value))); err != nil {
			t.Errorf("64 nested %s: %v", name, err)
		}
	}
}

// TestLoadEmptySliceOfLargeArrays: a slice of arrays larger than the whole
// file loads when it is empty (the file holds no element), and a file
// claiming an element of one is refused without allocating it.
func TestLoadEmptySliceOfLargeArrays(t *testing.T) {
	type bigRows struct{ Rows [][100_000]byte }
	w := ecs.NewWorld()
	ecs.Register[bigRows](w, ecs.Name("big.rows"))
	ecs.NewMap[bigRows](w).Spawn(bigRows{})
	back := ecs.NewWorld()
	ecs.Register[bigRows](back, ecs.Name("big.rows"))
	if err := back.Load(bytes.NewReader(saveOf(t, w))); err != nil || back.Len() != 1 {
		t.Fatalf("an empty slice of 100,000-byte arrays: %v", err)
	}
	// Gone, a field bigRows no longer has, is skipped.
	huge := structOf(schemaField{"Gone", sliceOf(arrayOf(max31, arrayOf(max31, kindOf(kindUint8))))})
	for _, n := range []uint64{0, 1} {
		data := componentFile("big.rows", false, huge, saveBytes{}.uv(n))
		w := ecs.NewWorld()
		ecs.Register[bigRows](w, ecs.Name("big.rows"))
		err := w.Load(bytes.NewReader(data))
		if n == 0 && err != nil {
			t.Errorf("no element of [2^31-1][2^31-1]uint8: %v", err)
		}
		if n == 1 && (err == nil || w.Len() != 0) {
			t.Errorf("an element of [2^31-1][2^31-1]uint8 in %d bytes: %v", len(data), err)
		}
	}
}

// zeroTag takes no bytes; zeroTagged holds a slice of them and, like the
// code `tessera gen` writes, reads its elements one by one in DecodeSave;
// plainTagged is the same type read by reflection.
type zeroTag struct{}

func (t *zeroTag) EncodeSave(e *ecs.SaveEncoder) {}
func (t *zeroTag) DecodeSave(d *ecs.SaveDecoder) {}

type zeroTagged struct{ Tags []zeroTag }

func (c *zeroTagged) EncodeSave(e *ecs.SaveEncoder) {
	e.Len(len(c.Tags))
	for i := range c.Tags {
		c.Tags[i].EncodeSave(e)
	}
}

func (c *zeroTagged) DecodeSave(d *ecs.SaveDecoder) {
	c.Tags = ecs.MakeSaveSlice[zeroTag](d, 0)
	for i := range c.Tags {
		c.Tags[i].DecodeSave(d)
	}
}

type plainTagged zeroTagged

// TestLoadZeroSizeSliceElementsBounded: slices of elements that take no
// bytes load, through a BinaryCodec or by reflection alike, as long as
// their elements, a byte each, fit the budget of a file of that size;
// 100,000 rows claiming 65,536 each in 700 KB, over which DecodeSave
// would loop 6.5 billion times, are refused at once.
func TestLoadZeroSizeSliceElementsBounded(t *testing.T) {
	load := func(data []byte, codec bool) (int, error) {
		w := ecs.NewWorld()
		if codec {
			ecs.Register[zeroTagged](w, ecs.Name("zero.tagged"))
		} else {
			ecs.Register[plainTagged](w, ecs.Name("zero.tagged"))
		}
		if err := w.Load(bytes.NewReader(data)); err != nil {
			return 0, err
		}
		e, _ := w.Reflect().EntityAt(1)
		if codec {
			return len(ecs.NewMap[zeroTagged](w).Get(e).Tags), nil
		}
		return len(ecs.NewMap[plainTagged](w).Get(e).Tags), nil
	}
	src := ecs.NewWorld()
	ecs.Register[zeroTagged](src, ecs.Name("zero.tagged"))
	ecs.NewMap[zeroTagged](src).Spawn(zeroTagged{Tags: make([]zeroTag, 70_000)})
	small := saveOf(t, src)

	const n = 100_000
	b := saveHeader(n).uv(1).str("zero.tagged")
	b = append(append(b, 0), structOf(schemaField{"Tags", sliceOf(structOf())})...)
	b = b.uv(1, 1, 0, n)
	for i := range n {
		b = b.uv(uint64(i) + 1)
	}
	for range n {
		b = b.uv(1 << 16)
	}
	hostile := b.uv(0, 0)

	for _, codec := range []bool{true, false} {
		if got, err := load(small, codec); err != nil || got != 70_000 {
			t.Errorf("codec %v: a slice of 70,000 zero-size elements: %v, %d loaded", codec, err, got)
		}
		testhelp.FinishesWithin(t, hangGuard, "Load of the hostile file", func() {
			if _, err := load(hostile, codec); err == nil || !strings.Contains(err.Error(), "values of no size: more than a save of this size may hold") {
				t.Errorf("codec %v: %d rows of 65,536 zero-size elements in %d bytes: %v", codec, n, len(hostile), err)
			}
		})
	}
}

type zeroPair struct{}

// A Multi relation whose pair type holds nothing, with a source of 70,000
// targets (a slice of 70,000 values of no size), saves and loads back,
// binary and JSON: the budget, not a fixed cap, bounds such slices.
func TestLoadManyTargetsOfAnEmptyPairType(t *testing.T) {
	src := ecs.NewWorld()
	rel := ecs.NewRelation[zeroPair](src, ecs.Multi())
	hub := src.Spawn()
	for range 70_000 {
		rel.Add(hub, src.Spawn())
	}
	for _, format := range []string{"binary", "JSON"} {
		var file bytes.Buffer
		var err error
		if format == "binary" {
			err = src.Save(&file)
		} else {
			err = src.SaveJSON(&file)
		}
		if err != nil {
			t.Fatal(err)
		}
		back := ecs.NewWorld()
		backRel := ecs.NewRelation[zeroPair](back, ecs.Multi())
		if format == "binary" {
			err = back.Load(&file)
		} else {
			err = back.LoadJSON(&file)
		}
		if err != nil {
			t.Fatalf("%s: Load of a source with 70,000 targets of an empty pair type: %v", format, err)
		}
		e, _ := back.Reflect().EntityAt(hub.Index())
		if n := len(backRel.Targets(e)); n != 70_000 {
			t.Fatalf("%s: %d targets loaded, want 70,000", format, n)
		}
	}
}

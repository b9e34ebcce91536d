package ecs_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/compgen/gentest"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

func (k *codecCaseOf[T]) roundTrips(t *testing.T, r *rand.Rand, n int) {
	_, ents, byKey := codecEntities(r)
	g := &codecRand{r: r, ents: ents}
	for i := range n {
		v := codecRandValue[T](g, 3000)
		dirty := codecRandValue[T](g, 50)
		if !checkRoundTrip(t, k.c, &v, &dirty, byKey) {
			t.Errorf("%s: value %d of %d", k.name, i, n) // Errorf: it runs on other goroutines too
			return
		}
	}
}

// checkRoundTrip checks one value v of codec c: Append keeps what dst
// held and writes Size() bytes of a fixed layout, which Fields adds up
// to; Decode of them, with bytes after, into a value that held dirty,
// uses them all and gives v back, its entities mapped through byKey; the
// entities mapEntity sees are those of Refs, in order; the decoded value
// writes the same bytes; and every shorter prefix, with the rest of the
// bytes beyond its length but within its capacity, is an error that
// leaves the value zero and calls no mapEntity. It reports whether all
// held.
func checkRoundTrip[T any](t *testing.T, c *ecs.SaveCodec[T], v, dirty *T, byKey map[[2]uint32]ecs.Entity) bool {
	t.Helper()
	enc := c.Append([]byte{0xEE}, v)
	if enc[0] != 0xEE {
		t.Errorf("Append overwrote what dst held")
		return false
	}
	body := enc[1:]
	if size := c.Size(); size >= 0 {
		sum := 0
		for _, w := range c.Fields(nil) {
			sum += int(w)
		}
		if len(body) != size || sum != size {
			t.Errorf("Append wrote %d bytes; Size is %d and Fields add up to %d", len(body), size, sum)
			return false
		}
	} else if len(c.Fields(nil)) != 0 {
		t.Errorf("a layout of no fixed size has Fields %v", c.Fields(nil))
		return false
	}
	refs := c.Refs(v, nil)
	var seen []ecs.Entity
	got := *dirty
	n, err := c.Decode(append(bytes.Clone(body), 0xAB, 0xCD), &got, codecMapper(t, byKey, &seen))
	if err != nil || n != len(body) {
		t.Errorf("Decode: %d of %d bytes, %v", n, len(body), err)
		return false
	}
	if d := sameCodecValue(v, &got); d != "" {
		t.Errorf("Decode of Append's bytes differs at %s", d)
		return false
	}
	if len(seen) != len(refs) {
		t.Errorf("mapEntity saw %d entities, Refs lists %d (%v, %v)", len(seen), len(refs), seen, refs)
		return false
	}
	for i := range refs {
		if refs[i].Index() != seen[i].Index() || refs[i].Generation() != seen[i].Generation() || refs[i].IsZero() {
			t.Errorf("entity %d: Refs lists %v, mapEntity saw %v", i, refs[i], seen[i])
			return false
		}
	}
	if again := c.Append(nil, &got); !bytes.Equal(again, body) {
		t.Errorf("the decoded value writes %x, the value %x", trimHex(again), trimHex(body))
		return false
	}
	var zero T
	for _, cut := range prefixCuts(len(body)) {
		calls := 0
		got := *dirty
		_, err := c.Decode(body[:cut], &got, func(e ecs.Entity) ecs.Entity { calls++; return e })
		if err == nil {
			t.Errorf("a prefix of %d of %d bytes decoded", cut, len(body))
			return false
		}
		if d := sameCodecValue(&zero, &got); d != "" || calls != 0 {
			t.Errorf("a prefix of %d of %d bytes left the value non-zero at %q and called mapEntity %d times", cut, len(body), d, calls)
			return false
		}
	}
	return true
}

// prefixCuts are the lengths of the prefixes of n bytes to try: all of
// them, or of a long value the first and last 200 and some between.
func prefixCuts(n int) []int {
	var cuts []int
	for cut := range n {
		if n <= 1000 || cut < 200 || cut >= n-200 || cut%97 == 0 {
			cuts = append(cuts, cut)
		}
	}
	return cuts
}

func TestSaveCodecRoundTripsRandomValues(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, k := range saveCodecCases(t) {
		t.Run(k.label(), func(t *testing.T) { k.roundTrips(t, r, n) })
	}
}

// TestSaveCodecDecodeBoundsMemory checks that 20 bytes that claim a
// slice of about 2^31 elements are an error, found without allocating
// for the elements: of numbers, of values of no size, of entities read
// by a BinaryCodec method, and of strings.
func TestSaveCodecDecodeBoundsMemory(t *testing.T) {
	claim := func(prefix []byte, count uint64) []byte {
		b := binary.AppendUvarint(bytes.Clone(prefix), count)
		return append(b, make([]byte, 20-len(b))...)
	}
	lists, err := ecs.NewSaveCodec[codecLists]()
	if err != nil {
		t.Fatal(err)
	}
	owned, err := ecs.NewSaveCodec[codecOwned]()
	if err != nil {
		t.Fatal(err)
	}
	link, err := ecs.NewSaveCodec[codecLink]()
	if err != nil {
		t.Fatal(err)
	}
	type input struct {
		what   string
		decode func([]byte) error
		prefix []byte // the bytes before the slice's length
	}
	inputs := []input{
		{"[]float64", func(b []byte) error { var v codecLists; _, err := lists.Decode(b, &v, nil); return err }, nil},
		{"[]struct{}", func(b []byte) error { var v codecLists; _, err := lists.Decode(b, &v, nil); return err }, []byte{0, 0, 0}},
		{"[]Entity by DecodeSave", func(b []byte) error { var v codecOwned; _, err := owned.Decode(b, &v, nil); return err }, make([]byte, 8)},
		{"[]string", func(b []byte) error { var v codecLink; _, err := link.Decode(b, &v, nil); return err }, make([]byte, 8)},
	}
	for _, in := range inputs {
		for _, count := range []uint64{1 << 31, 1<<31 - 1, 1 << 30} {
			b := claim(in.prefix, count)
			if len(b) != 20 {
				t.Fatalf("%s: %d bytes", in.what, len(b))
			}
			if err := in.decode(b); err == nil {
				t.Fatalf("%s: 20 bytes that claim %d elements decoded", in.what, count)
			}
			const runs = 50
			var before, after runtime.MemStats
			testhelp.FinishesWithin(t, 5*time.Second, in.what, func() {
				runtime.ReadMemStats(&before)
				for range runs {
					_ = in.decode(b)
				}
				runtime.ReadMemStats(&after)
			})
			if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 4<<10 {
				t.Fatalf("%s: 20 bytes that claim %d elements allocated %d bytes a decode", in.what, count, per)
			}
		}
	}
}

// TestSaveCodecAllocations checks that Append into a buffer with room,
// and Decode, of a plain or a padded value allocate nothing, nor of a
// fixed layout with entities, whose mapEntity is called in place, nor of
// a type with BinaryCodec methods (a pooled encoder and decoder).
func TestSaveCodecAllocations(t *testing.T) {
	w := ecs.NewWorld()
	a, b := w.Spawn(), w.Spawn()
	buf := make([]byte, 0, 256)
	check := func(what string, f func()) {
		t.Helper()
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", what, n)
		}
	}
	keep := func(e ecs.Entity) ecs.Entity { return e }

	vc, _ := ecs.NewSaveCodec[scVec]()
	vec := scVec{X: 1, Y: 2}
	vb := vc.Append(nil, &vec)
	check("Append scVec", func() { buf = vc.Append(buf[:0], &vec) })
	check("Decode scVec", func() { _, _ = vc.Decode(vb, &vec, nil) })

	hc, _ := ecs.NewSaveCodec[codecHealth]()
	h := codecHealth{HP: 1, MaxHP: 2, Status: 3}
	hb := hc.Append(nil, &h)
	check("Append codecHealth", func() { buf = hc.Append(buf[:0], &h) })
	check("Decode codecHealth", func() { _, _ = hc.Decode(hb, &h, nil) })

	gc, _ := ecs.NewSaveCodec[gentest.Health]()
	gh := gentest.Health{HP: 5, Max: 9}
	gb := gc.Append(nil, &gh)
	check("Append gentest.Health", func() { buf = gc.Append(buf[:0], &gh) })
	check("Decode gentest.Health", func() { _, _ = gc.Decode(gb, &gh, nil) })

	fc, _ := ecs.NewSaveCodec[codecFlat]()
	flat := codecFlat{A: codecEdge{To: a, W: 1}, B: [3]codecEdge{{To: b}}, On: true}
	fb := fc.Append(nil, &flat)
	var refs []ecs.Entity
	check("Append codecFlat", func() { buf = fc.Append(buf[:0], &flat) })
	check("Decode codecFlat", func() { _, _ = fc.Decode(fb, &flat, keep) })
	check("Refs codecFlat", func() { refs = fc.Refs(&flat, refs[:0]) })

	if raceEnabled {
		return // sync.Pool drops what it is given at random
	}
	pc, _ := ecs.NewSaveCodec[codecPinned]()
	pin := codecPinned{Who: a, HP: 3, Alive: true}
	pb := pc.Append(nil, &pin)
	check("Append codecPinned", func() { buf = pc.Append(buf[:0], &pin) })
	check("Decode codecPinned", func() { _, _ = pc.Decode(pb, &pin, keep) })
}

// TestSaveCodecConcurrentUse runs one codec of each path from several
// goroutines at once (run it with -race): a codec holds no state between
// calls, and pooled encoders and decoders are never shared.
func TestSaveCodecConcurrentUse(t *testing.T) {
	cases := saveCodecCases(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for _, k := range cases {
				k.roundTrips(t, r, 3)
			}
		}()
	}
	wg.Wait()
}

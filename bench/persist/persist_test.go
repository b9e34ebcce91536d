package persist

import (
	"bytes"
	"hash/maphash"
	"reflect"
	"testing"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

const testN = 2_000

func testWorld(t *testing.T) *particleWorld {
	t.Helper()
	pw, err := newParticleWorld(testN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pw.close)
	return pw
}

// TestColumnsHoldTheWorld checks that the floors' data is the world's:
// every particle and emitter, and an index record per entity index.
func TestColumnsHoldTheWorld(t *testing.T) {
	pw := testWorld(t)
	c := pw.cols
	if len(c.Pos) != testN || len(c.Emit) != scenario.Colors || len(c.Index) != testN+scenario.Colors {
		t.Fatalf("%d particles, %d emitters, %d index records; want %d, %d, %d", len(c.Pos), len(c.Emit), len(c.Index),
			testN, scenario.Colors, testN+scenario.Colors)
	}
	for r := range ecs.NewQuery4[scenario.Position, scenario.Velocity, scenario.Color, scenario.Lifetime](pw.w).All() {
		rec := c.Index[r.Entity.Index()-1]
		if rec.Table != 1 || c.Ents[rec.Row] != handle(r.Entity) || c.Pos[rec.Row] != *r.A || c.Life[rec.Row] != *r.D {
			t.Fatalf("%v: record %+v does not lead to its row", r.Entity, rec)
		}
	}
}

// TestSnapshotRowsRestoreTheWorld runs the snapshot comparison's kernels:
// a restore after ticks gives back the snapshot's checksum, and the floor
// copies every byte.
func TestSnapshotRowsRestoreTheWorld(t *testing.T) {
	pw := testWorld(t)
	var s ecs.Snapshot
	snapshotOf(pw.w, &s)
	before := pw.w.Checksum()
	for range 5 {
		pw.p.Tick()
	}
	if pw.w.Checksum() == before {
		t.Fatal("five ticks left the checksum unchanged")
	}
	restoreOf(pw.w, &s)
	if got := pw.w.Checksum(); got != before {
		t.Fatalf("checksum %x after Restore, want %x", got, before)
	}
	dst := newColumnsLike(pw.cols)
	copyColumns(dst, pw.cols)
	if !reflect.DeepEqual(dst, pw.cols) {
		t.Fatal("the copy floor's copy differs from its source")
	}
	if sz := pw.cols.Size(); sz != int64(testN*(8+8+1+4+8)+scenario.Colors*(12+8)+(testN+scenario.Colors)*12) {
		t.Fatalf("columns hold %d bytes", sz)
	}
}

// TestChecksumRowsSeeEveryValue checks that both sides of the checksum
// comparison read the values: changing one particle's lifetime changes
// each side's hash, and changing it back restores it.
func TestChecksumRowsSeeEveryValue(t *testing.T) {
	pw := testWorld(t)
	seed := maphash.MakeSeed()
	c, f := checksumOf(pw.w), hashColumns(seed, pw.cols)
	set := func(v float32) (old float32) {
		for r := range ecs.NewQuery1[scenario.Lifetime](pw.w).All() {
			if r.Entity.Index() == uint32(pw.cols.Ents[testN-1]) {
				old, r.A.Left = r.A.Left, v
			}
		}
		pw.cols.Life[testN-1].Left = v
		return old
	}
	old := set(12.5)
	if checksumOf(pw.w) == c {
		t.Error("World.Checksum did not see a changed lifetime")
	}
	if hashColumns(seed, pw.cols) == f {
		t.Error("the maphash floor did not see a changed lifetime")
	}
	set(old)
	if checksumOf(pw.w) != c || hashColumns(seed, pw.cols) != f {
		t.Error("setting the lifetime back did not give back both hashes")
	}
}

// TestBinaryRowsRoundTrip checks the binary comparisons' kernels: a loaded
// world has the saved world's checksum and data, and the floor reads back
// what it wrote.
func TestBinaryRowsRoundTrip(t *testing.T) {
	pw := testWorld(t)
	var buf bytes.Buffer
	saveTo(&buf, pw.w)
	w := loadParticles(buf.Bytes())
	if got, want := w.Checksum(), pw.w.Checksum(); got != want {
		t.Errorf("loaded world's checksum %x, want %x", got, want)
	}
	if !reflect.DeepEqual(ColumnsOf(w), pw.cols) {
		t.Error("the loaded world's particles differ from the saved world's")
	}
	var fb bytes.Buffer
	binaryWrite(&fb, pw.cols)
	if !reflect.DeepEqual(binaryRead(fb.Bytes()), pw.cols) {
		t.Error("the encoding/binary floor read back other data than it wrote")
	}
	if _, err := ReadBinary(bytes.NewReader(fb.Bytes()[:fb.Len()-1])); err == nil {
		t.Error("the floor read a truncated file without an error")
	}
	var rb bytes.Buffer
	rawWrite(&rb, pw.cols)
	if int64(rb.Len()) != 12+pw.cols.Size() || !reflect.DeepEqual(rawRead(rb.Bytes()), pw.cols) {
		t.Error("the raw form read back other data than it wrote")
	}
	if _, err := ReadRaw(rb.Bytes()[:rb.Len()-1]); err == nil {
		t.Error("the raw form read a truncated file without an error")
	}
}

// TestJSONRowsRoundTrip checks the JSON comparisons' kernels: LoadJSON
// gives back the saved particles and emitters with their ids, and the
// floor's structs unmarshal to what was marshalled.
func TestJSONRowsRoundTrip(t *testing.T) {
	pw := testWorld(t)
	var buf bytes.Buffer
	saveJSONTo(&buf, pw.w)
	w := loadParticlesJSON(buf.Bytes())
	if !reflect.DeepEqual(ColumnsOf(w), pw.cols) {
		t.Error("the world loaded from JSON differs from the saved world")
	}
	if w.Len() != pw.w.Len() {
		t.Errorf("%d entities loaded from JSON, want %d", w.Len(), pw.w.Len())
	}
	j := JSONWorldOf(pw.cols)
	if back := jsonUnmarshal(jsonMarshal(j)); !reflect.DeepEqual(back, j) {
		t.Error("the encoding/json floor read back other data than it wrote")
	}
	if len(j.Particles) != testN || j.Particles[7].Index != uint32(pw.cols.Ents[7]) || j.Particles[7].Position != pw.cols.Pos[7] {
		t.Error("the floor's structs do not hold the world's particles")
	}
}

// TestEntityRowsRoundTrip checks the entity comparison: each side's new
// world has the old one's live entities, and spawns the same ids next.
func TestEntityRowsRoundTrip(t *testing.T) {
	const n = 1_000
	tw, f := tesseraEntities(n), entityFloor(n)
	var buf bytes.Buffer
	tl := tesseraEntitiesRoundTrip(&buf, tw)
	if tl.Len() != n-n/despawnEvery || tl.Len() != tw.Len() {
		t.Errorf("Tessera: %d alive after the load, %d before; want %d", tl.Len(), tw.Len(), n-n/despawnEvery)
	}
	if tl.Checksum() != tw.Checksum() {
		t.Error("Tessera: the loaded world's checksum differs from the saved one's")
	}
	for i := range 3 {
		a, b := tw.Spawn(), tl.Spawn()
		if a.Index() != b.Index() || a.Generation() != b.Generation() || b.Index() != f.Free[i] || b.Generation() != 1 {
			t.Errorf("Tessera: spawn %d gave %v in the saved world, %v in the loaded one, want index %d generation 1", i, a, b, f.Free[i])
		}
	}
	for _, load := range []func(*ark.World) *ark.World{
		arkDumpLoad,
		func(w *ark.World) *ark.World { return arkEntitiesRoundTrip(&buf, w) },
	} {
		aw := arkEntities(n)
		al := load(aw)
		if got, want := arkAlive(al), arkAlive(aw); got != want || got != n-n/despawnEvery {
			t.Errorf("Ark: %d alive after the load, %d before; want %d", got, want, n-n/despawnEvery)
		}
		if a, b := aw.NewEntity(), al.NewEntity(); a != b || a.Gen() != 1 {
			t.Errorf("Ark: the next spawn gave %v in the dumped world, %v in the loaded one, want equal, generation 1", a, b)
		}
	}
	back := floorEntitiesRoundTrip(&buf, f)
	if !reflect.DeepEqual(back, f) || len(f.Gens) != n || len(f.Free) != n/despawnEvery || len(f.Live) != n-n/despawnEvery {
		t.Error("the encoding/binary floor read back other data than it wrote")
	}
	if back := rawEntitiesRoundTrip(&buf, f); !reflect.DeepEqual(back, f) {
		t.Error("the raw form read back other data than it wrote")
	}
}

// arkAlive counts w's live entities with a query over all of them.
func arkAlive(w *ark.World) int {
	q := ark.NewFilter0(w).Query()
	defer q.Close()
	return q.Count()
}

// TestSuiteRowsRun builds the suite at a small size and runs every row
// once: each comparison has one floor, first, and Tessera rows.
func TestSuiteRowsRun(t *testing.T) {
	s, err := NewSuite(500)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	names := map[string]bool{}
	for _, c := range s.Comparisons {
		names[c.Name] = true
		tessera := 0
		for i, r := range c.Rows {
			if (r.Kind == Floor) != (i == 0) {
				t.Errorf("%s: row %d (%s) is kind %d", c.Name, i, r.Name, r.Kind)
			}
			if r.Kind == Tessera {
				tessera++
			}
			r.Run()
		}
		if tessera == 0 {
			t.Errorf("%s: no Tessera row", c.Name)
		}
	}
	for _, want := range []string{"snapshot", "checksum", "binary_save", "binary_load", "json_save", "json_load", "entities"} {
		if !names[want] {
			t.Errorf("no comparison %q", want)
		}
	}
}

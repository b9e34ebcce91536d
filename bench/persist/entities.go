package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	ark "github.com/mlange-42/ark/ecs"

	"github.com/tessera-ecs/tessera/ecs"
)

// despawnEvery: the entity-only worlds despawn every despawnEvery-th
// entity they spawned (the first, the eleventh, ...), so that generations
// and a free list exist.
const despawnEvery = 10

// tesseraEntities returns a Tessera world that spawned n entities without
// components and despawned every tenth, in spawn order.
func tesseraEntities(n int) *ecs.World {
	w := ecs.NewWorld()
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.Spawn()
	}
	for i := 0; i < n; i += despawnEvery {
		w.Despawn(es[i])
	}
	return w
}

// arkEntities returns an Ark world that did the same.
func arkEntities(n int) *ark.World {
	w := ark.NewWorld()
	es := make([]ark.Entity, n)
	for i := range es {
		es[i] = w.NewEntity()
	}
	for i := 0; i < n; i += despawnEvery {
		w.RemoveEntity(es[i])
	}
	return w
}

// EntityFloor is the state of an entity-only world as plain slices: the
// generation of every index, the free list in the order it is reused and
// the live indices in iteration order (what both Tessera's save and Ark's
// dump hold).
type EntityFloor struct {
	Gens, Free, Live []uint32
}

// entityFloor returns the plain state of a world that spawned n entities
// (indices 1 to n) and despawned every tenth: those have generation 1 and
// are on the free list, most recent first.
func entityFloor(n int) *EntityFloor {
	f := &EntityFloor{Gens: make([]uint32, n)}
	for i := 0; i < n; i++ {
		if i%despawnEvery == 0 {
			f.Gens[i] = 1
			f.Free = append(f.Free, uint32(i+1))
			continue
		}
		f.Live = append(f.Live, uint32(i+1))
	}
	for i, j := 0, len(f.Free)-1; i < j; i, j = i+1, j-1 {
		f.Free[i], f.Free[j] = f.Free[j], f.Free[i]
	}
	return f
}

// WriteEntities writes f with encoding/binary, little-endian: the three
// lengths, then each slice.
func WriteEntities(w io.Writer, f *EntityFloor) error {
	for _, v := range []any{[3]uint32{uint32(len(f.Gens)), uint32(len(f.Free)), uint32(len(f.Live))}, f.Gens, f.Free, f.Live} {
		if err := binary.Write(w, binary.LittleEndian, v); err != nil {
			return err
		}
	}
	return nil
}

// ReadEntities reads what WriteEntities wrote into new slices.
func ReadEntities(r io.Reader) (*EntityFloor, error) {
	var n [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, err
	}
	if uint64(n[0])+uint64(n[1])+uint64(n[2]) > 1<<28 {
		return nil, fmt.Errorf("persist: %v entities: too many", n)
	}
	f := &EntityFloor{Gens: make([]uint32, n[0]), Free: make([]uint32, n[1]), Live: make([]uint32, n[2])}
	for _, v := range []any{f.Gens, f.Free, f.Live} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// floorEntitiesRoundTrip writes f into buf and reads it back.
//
//go:noinline
func floorEntitiesRoundTrip(buf *bytes.Buffer, f *EntityFloor) *EntityFloor {
	buf.Reset()
	if err := WriteEntities(buf, f); err != nil {
		panic(err)
	}
	g, err := ReadEntities(bytes.NewReader(buf.Bytes()))
	if err != nil {
		panic(err)
	}
	return g
}

// tesseraEntitiesRoundTrip saves w into buf and loads it into a new world.
//
//go:noinline
func tesseraEntitiesRoundTrip(buf *bytes.Buffer, w *ecs.World) *ecs.World {
	buf.Reset()
	if err := w.Save(buf); err != nil {
		panic(err)
	}
	out := ecs.NewWorld()
	if err := out.Load(bytes.NewReader(buf.Bytes())); err != nil {
		panic(err)
	}
	return out
}

// arkDumpLoad dumps w's entities and loads the dump into a new world, in
// memory: Ark's own API, which stops short of bytes.
//
//go:noinline
func arkDumpLoad(w *ark.World) *ark.World {
	d := w.Unsafe().DumpEntities()
	out := ark.NewWorld()
	out.Unsafe().LoadEntities(&d)
	return out
}

// arkEntitiesRoundTrip dumps w's entities, writes the dump into buf
// (Entity.AppendBinary per entity, encoding/binary for the rest), reads it
// back (Entity.UnmarshalBinary per entity) and loads it into a new world:
// the work of Tessera's Save and Load with Ark's API.
//
//go:noinline
func arkEntitiesRoundTrip(buf *bytes.Buffer, w *ark.World) *ark.World {
	buf.Reset()
	d := w.Unsafe().DumpEntities()
	if err := writeDump(buf, &d); err != nil {
		panic(err)
	}
	back, err := readDump(buf.Bytes())
	if err != nil {
		panic(err)
	}
	out := ark.NewWorld()
	out.Unsafe().LoadEntities(back)
	return out
}

// writeDump writes an Ark entity dump: Next, Available and the two
// lengths, each entity's 8 bytes from Entity.AppendBinary, then the live
// ids.
func writeDump(buf *bytes.Buffer, d *ark.EntityDump) error {
	head := [4]uint32{d.Next, d.Available, uint32(len(d.Entities)), uint32(len(d.Alive))}
	if err := binary.Write(buf, binary.LittleEndian, head); err != nil {
		return err
	}
	b := buf.AvailableBuffer()
	for i := range d.Entities {
		b, _ = d.Entities[i].AppendBinary(b) // never fails
	}
	buf.Write(b)
	return binary.Write(buf, binary.LittleEndian, d.Alive)
}

// readDump reads what writeDump wrote into a new dump.
func readDump(data []byte) (*ark.EntityDump, error) {
	r := bytes.NewReader(data)
	var head [4]uint32
	if err := binary.Read(r, binary.LittleEndian, &head); err != nil {
		return nil, err
	}
	if uint64(head[2])*8+uint64(head[3])*4 > uint64(r.Len()) {
		return nil, fmt.Errorf("persist: dump of %d entities, %d alive: file too short", head[2], head[3])
	}
	d := &ark.EntityDump{Next: head[0], Available: head[1], Entities: make([]ark.Entity, head[2]), Alive: make([]uint32, head[3])}
	at := len(data) - r.Len()
	for i := range d.Entities {
		if err := d.Entities[i].UnmarshalBinary(data[at : at+8]); err != nil {
			return nil, err
		}
		at += 8
	}
	if err := binary.Read(bytes.NewReader(data[at:]), binary.LittleEndian, d.Alive); err != nil {
		return nil, err
	}
	return d, nil
}

// entitiesComparison times a round trip of an entity-only world (n
// spawned, every tenth despawned) through bytes and into a new world, in
// Tessera and in Ark, against encoding/binary of the same state as
// plain slices.
func entitiesComparison(n int) *Comparison {
	tw, aw, f := tesseraEntities(n), arkEntities(n), entityFloor(n)
	var tb, ab, fb, rb bytes.Buffer
	tesseraEntitiesRoundTrip(&tb, tw)
	arkEntitiesRoundTrip(&ab, aw)
	floorEntitiesRoundTrip(&fb, f)
	rawEntitiesRoundTrip(&rb, f)
	return &Comparison{
		Name: "entities",
		Doc: "A world spawned N entities without components, then despawned every tenth in spawn order, so " +
			"that generations and a free list exist; each row takes that state through bytes into a new world (a " +
			"round trip: save, then load). Tessera: World.Save into a bytes.Buffer, then World.Load into a new world. " +
			"Ark v0.8.3 has no byte format of its own (its documentation points to the separate module ark-serde for " +
			"whole-world serialisation): its row writes " +
			"World.Unsafe().DumpEntities() (a copy of the entity pool and the live ids in query order) with " +
			"Entity.AppendBinary per entity and encoding/binary for the rest, reads it back with Entity.UnmarshalBinary, " +
			"and calls Unsafe().LoadEntities on a new world; the in-memory row does only DumpEntities and LoadEntities on a " +
			"new world, no bytes. The floor writes and reads, with encoding/binary into new slices, the generation of " +
			"every index, the free list and the live indices in order (what both libraries keep); the raw row puts the same " +
			"slices through bytes as memory. MB/s counts each side's bytes.",
		Entities: n,
		Rows: []Row{
			{Name: "encoding/binary", Kind: Floor, Bytes: int64(fb.Len()), What: "binary.Write of three []uint32, then binary.Read into new ones",
				Run: func() { floorEntitiesRoundTrip(&fb, f) }},
			{Name: "raw memory", Kind: Raw, Bytes: int64(rb.Len()), What: "the three slices' memory into buf, then copy() into new slices",
				Run: func() { rawEntitiesRoundTrip(&rb, f) }},
			{Name: "World.Save + World.Load", Kind: Tessera, Bytes: int64(tb.Len()), What: "w.Save(buf), then ecs.NewWorld().Load(r)",
				Run: func() { tesseraEntitiesRoundTrip(&tb, tw) }},
			{Name: "Ark DumpEntities + bytes + LoadEntities", Kind: Peer, Bytes: int64(ab.Len()),
				What: "DumpEntities, AppendBinary and binary.Write into buf, UnmarshalBinary and binary.Read back, LoadEntities on ark.NewWorld()",
				Run:  func() { arkEntitiesRoundTrip(&ab, aw) }},
			{Name: "Ark DumpEntities + LoadEntities (in memory)", Kind: Peer,
				What: "DumpEntities, then LoadEntities on ark.NewWorld(); no bytes", Run: func() { arkDumpLoad(aw) }},
		},
	}
}

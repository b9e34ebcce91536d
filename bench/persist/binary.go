package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/tessera-ecs/tessera/ecs"
)

// WriteBinary writes c with encoding/binary, little-endian: the three
// lengths, then each slice. The floor of the binary save comparison.
func WriteBinary(w io.Writer, c *Columns) error {
	for _, v := range []any{[3]uint32{uint32(len(c.Pos)), uint32(len(c.Emit)), uint32(len(c.Index))},
		c.Pos, c.Vel, c.Col, c.Life, c.Ents, c.Emit, c.EmitEnts, c.Index} {
		if err := binary.Write(w, binary.LittleEndian, v); err != nil {
			return err
		}
	}
	return nil
}

// ReadBinary reads what WriteBinary wrote into new Columns. The floor of
// the binary load comparison: a load makes new memory, as a loaded world
// does.
func ReadBinary(r io.Reader) (*Columns, error) {
	var n [3]uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return nil, err
	}
	if uint64(n[0])+uint64(n[1])+uint64(n[2]) > 1<<28 {
		return nil, fmt.Errorf("persist: %v rows: too many", n)
	}
	c := newColumns(int(n[0]), int(n[1]), int(n[2]))
	for _, v := range []any{c.Pos, c.Vel, c.Col, c.Life, c.Ents, c.Emit, c.EmitEnts, c.Index} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return nil, err
		}
	}
	return c, nil
}

//go:noinline
func binaryWrite(buf *bytes.Buffer, c *Columns) {
	buf.Reset()
	if err := WriteBinary(buf, c); err != nil {
		panic(err)
	}
}

//go:noinline
func binaryRead(data []byte) *Columns {
	c, err := ReadBinary(bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	return c
}

// saveTo writes w's save file into buf, emptied first.
//
//go:noinline
func saveTo(buf *bytes.Buffer, w *ecs.World) {
	buf.Reset()
	if err := w.Save(buf); err != nil {
		panic(err)
	}
}

// loadParticles loads a particle save into a new world with the
// particle scenario's types and resource registered.
//
//go:noinline
func loadParticles(data []byte) *ecs.World {
	w := particleTarget()
	if err := w.Load(bytes.NewReader(data)); err != nil {
		panic(err)
	}
	return w
}

// binaryComparisons times Save and Load of the particle world against
// encoding/binary writing and reading the same data as plain slices.
func binaryComparisons(pw *particleWorld) ([]*Comparison, error) {
	var file, floor bytes.Buffer
	if err := pw.w.Save(&file); err != nil {
		return nil, err
	}
	if err := WriteBinary(&floor, pw.cols); err != nil {
		return nil, err
	}
	data, floorData := file.Bytes(), floor.Bytes()
	ents := len(pw.cols.Ents) + len(pw.cols.Emit)
	var raw bytes.Buffer
	WriteRaw(&raw, pw.cols)
	rawData := raw.Bytes()
	var out1, out2, out3 bytes.Buffer
	save := &Comparison{
		Name: "binary_save",
		Doc: "World.Save writes the versioned binary save format (entity index and free list as varints, each type's " +
			"stable name and field schema, each table's entity indices as varints and its columns, runs of plain " +
			"numbers as memory, the resources) into a bytes.Buffer emptied first. The floor writes the same data, held " +
			"as plain slices, with one encoding/binary.Write per slice, little-endian, into a bytes.Buffer emptied " +
			"first; encoding/binary goes through reflection for slices of structs. The raw row writes each slice's memory as " +
			"it is: the least the work can cost. MB/s counts each side's own output.",
		Entities: ents,
		Rows: []Row{
			{Name: "encoding/binary.Write", Kind: Floor, Bytes: int64(len(floorData)),
				What: "three lengths, then binary.Write of each slice", Run: func() { binaryWrite(&out1, pw.cols) }},
			{Name: "raw memory", Kind: Raw, Bytes: int64(len(rawData)),
				What: "three lengths, then each slice's memory with one buf.Write", Run: func() { rawWrite(&out3, pw.cols) }},
			{Name: "World.Save", Kind: Tessera, Bytes: int64(len(data)), What: "w.Save(buf)",
				Run: func() { saveTo(&out2, pw.w) }},
		},
	}
	load := &Comparison{
		Name: "binary_load",
		Doc: "World.Load reads a save file from a bytes.Reader into a new world that has the particle scenario's " +
			"component types and state resource registered (making that world is timed too): it checks the whole " +
			"file, then builds the index, the tables and the resource. The floor reads the floor's file with one " +
			"encoding/binary.Read per slice into slices it makes for the purpose, as a load makes new memory; the raw row " +
			"copies the raw file's bytes into such slices.",
		Entities: ents,
		Rows: []Row{
			{Name: "encoding/binary.Read", Kind: Floor, Bytes: int64(len(floorData)),
				What: "binary.Read of the lengths, make() of each slice, binary.Read of each", Run: func() { binaryRead(floorData) }},
			{Name: "raw memory", Kind: Raw, Bytes: int64(len(rawData)),
				What: "the lengths, make() of each slice, copy() of its memory from the file", Run: func() { rawRead(rawData) }},
			{Name: "World.Load", Kind: Tessera, Bytes: int64(len(data)), What: "a new world with the types registered, then w.Load(r)",
				Run: func() { loadParticles(data) }},
		},
	}
	return []*Comparison{save, load}, nil
}

package persist

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// The raw forms write each slice's memory as it is (little-endian on the
// machines Tessera's save format assumes for its memory runs) after its
// lengths, and read it back with copy() into slices made for the purpose:
// the least plain Go can do to put the same data through bytes, shown
// beside the encoding/binary floors, which take slices of structs through
// reflection.

// writeRaw writes the lengths, then each of views' byte slices.
func writeRaw(buf *bytes.Buffer, lens []uint32, views [][]byte) {
	for _, n := range lens {
		buf.Write(binary.LittleEndian.AppendUint32(buf.AvailableBuffer(), n))
	}
	for _, v := range views {
		buf.Write(v)
	}
}

// readLens reads k lengths from the start of data and returns the rest.
func readLens(data []byte, k int) ([]uint32, []byte, error) {
	if len(data) < 4*k {
		return nil, nil, fmt.Errorf("persist: %d bytes: too short for %d lengths", len(data), k)
	}
	lens := make([]uint32, k)
	for i := range lens {
		lens[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	return lens, data[4*k:], nil
}

// fillRaw copies data into views in order; data must hold exactly their
// bytes.
func fillRaw(data []byte, views [][]byte) error {
	for _, v := range views {
		if len(data) < len(v) {
			return fmt.Errorf("persist: raw data too short")
		}
		data = data[copy(v, data):]
	}
	if len(data) != 0 {
		return fmt.Errorf("persist: %d bytes after the raw data", len(data))
	}
	return nil
}

// WriteRaw writes c's three lengths and memory into buf.
func WriteRaw(buf *bytes.Buffer, c *Columns) {
	writeRaw(buf, []uint32{uint32(len(c.Pos)), uint32(len(c.Emit)), uint32(len(c.Index))}, c.bytes())
}

// ReadRaw reads what WriteRaw wrote into new Columns.
func ReadRaw(data []byte) (*Columns, error) {
	n, rest, err := readLens(data, 3)
	if err != nil {
		return nil, err
	}
	if uint64(n[0])+uint64(n[1])+uint64(n[2]) > uint64(len(rest)) {
		return nil, fmt.Errorf("persist: %v rows in %d bytes", n, len(rest))
	}
	c := newColumns(int(n[0]), int(n[1]), int(n[2]))
	return c, fillRaw(rest, c.bytes())
}

// WriteRawEntities writes f's three lengths and memory into buf.
func WriteRawEntities(buf *bytes.Buffer, f *EntityFloor) {
	writeRaw(buf, []uint32{uint32(len(f.Gens)), uint32(len(f.Free)), uint32(len(f.Live))},
		[][]byte{asBytes(f.Gens), asBytes(f.Free), asBytes(f.Live)})
}

// ReadRawEntities reads what WriteRawEntities wrote into new slices.
func ReadRawEntities(data []byte) (*EntityFloor, error) {
	n, rest, err := readLens(data, 3)
	if err != nil {
		return nil, err
	}
	if 4*(uint64(n[0])+uint64(n[1])+uint64(n[2])) != uint64(len(rest)) {
		return nil, fmt.Errorf("persist: %v entities in %d bytes", n, len(rest))
	}
	f := &EntityFloor{Gens: make([]uint32, n[0]), Free: make([]uint32, n[1]), Live: make([]uint32, n[2])}
	return f, fillRaw(rest, [][]byte{asBytes(f.Gens), asBytes(f.Free), asBytes(f.Live)})
}

//go:noinline
func rawWrite(buf *bytes.Buffer, c *Columns) {
	buf.Reset()
	WriteRaw(buf, c)
}

//go:noinline
func rawRead(data []byte) *Columns {
	c, err := ReadRaw(data)
	if err != nil {
		panic(err)
	}
	return c
}

// rawEntitiesRoundTrip writes f's memory into buf and reads it back into
// new slices.
//
//go:noinline
func rawEntitiesRoundTrip(buf *bytes.Buffer, f *EntityFloor) *EntityFloor {
	buf.Reset()
	WriteRawEntities(buf, f)
	g, err := ReadRawEntities(buf.Bytes())
	if err != nil {
		panic(err)
	}
	return g
}

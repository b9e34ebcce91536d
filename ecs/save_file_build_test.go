package ecs_test

import (
	"encoding/binary"
	"reflect"
	"slices"
)

// saveBytes builds a save file, or a schema inside one, byte by byte: the
// files Save never writes that a loader must still refuse or read in
// bounded time. The kinds are the format's (save_schema.go).
type saveBytes []byte

const (
	kindInt32  = 4
	kindInt64  = 5
	kindUint8  = 6
	kindString = 14
	kindArray  = 16
	kindSlice  = 17
	kindStruct = 18
)

// uv appends each x as a uvarint.
func (b saveBytes) uv(xs ...uint64) saveBytes {
	for _, x := range xs {
		b = binary.AppendUvarint(b, x)
	}
	return b
}

// str appends s with its length.
func (b saveBytes) str(s string) saveBytes { return append(b.uv(uint64(len(s))), s...) }

// arrayOf is the schema of an array of n elem.
func arrayOf(n uint64, elem saveBytes) saveBytes {
	return append(saveBytes{}.uv(kindArray, n), elem...)
}

// sliceOf is the schema of a slice of elem.
func sliceOf(elem saveBytes) saveBytes { return append(saveBytes{}.uv(kindSlice), elem...) }

// kindOf is the schema of a value of one kind (a number, bool or string).
func kindOf(k uint64) saveBytes { return saveBytes{}.uv(k) }

// schemaField is a named field of structOf.
type schemaField struct {
	name string
	s    saveBytes
}

// structOf is the schema of a struct of fields.
func structOf(fields ...schemaField) saveBytes {
	b := saveBytes{}.uv(kindStruct, uint64(len(fields)))
	for _, f := range fields {
		b = append(b.str(f.name), f.s...)
	}
	return b
}

// saveHeader is the start of a save file: magic, version 1, and an entity
// index of n entities, alive at generation 0, none free.
func saveHeader(n int) saveBytes {
	b := append(saveBytes("tessera\x00"), 1)
	b = b.uv(uint64(n) + 1)
	for range n {
		b = b.uv(0)
	}
	return b.uv(0)
}

// resourceFile is a save of an empty world with one resource, name, of
// schema s and value bytes value: what Merge reads past.
func resourceFile(name string, s, value saveBytes) []byte {
	b := saveHeader(0).uv(0, 0, 0, 1).str(name)
	return slices.Concat(b, s, value)
}

// componentFile is a save of a world of one entity, index 1, with one
// component of the type named name, saved with schema s and value bytes
// value, in a table or (sparse) a sparse set.
func componentFile(name string, sparse bool, s, value saveBytes) []byte {
	storage := byte(0)
	if sparse {
		storage = 1
	}
	b := append(saveHeader(1).uv(1).str(name), storage)
	b = append(b, s...)
	if sparse {
		// A table of no columns holds entity 1; one sparse set, of type
		// 0, its value.
		b = b.uv(1, 0, 1, 1).uv(1, 0, 1, 1)
	} else {
		b = b.uv(1, 1, 0, 1, 1) // one table, of type 0: entity 1
	}
	b = append(b, value...)
	if !sparse {
		b = b.uv(0) // no sparse set
	}
	return b.uv(0) // no resource
}

// defaultName is the name a component type has when it is registered
// without one: its package path and name.
func defaultName[T any]() string {
	t := reflect.TypeFor[T]()
	return t.PkgPath() + "." + t.Name()
}

// max31 is the largest count a save file may give: 2^31-1.
const max31 = 1<<31 - 1

// zeroSizeSchemas are schemas whose values take no bytes however many
// elements they claim (arrays of empty arrays and of empty structs, nested),
// each with the bytes of one value: a loader that walked them element by
// element would not finish.
func zeroSizeSchemas() []struct {
	name      string
	s, value  saveBytes
	fileBytes int // of a resourceFile named "x", where it is pinned
} {
	return []struct {
		name      string
		s, value  saveBytes
		fileBytes int
	}{
		{"[2^31-1][0]string", arrayOf(max31, arrayOf(0, kindOf(kindString))), nil, 26},
		{"[2^31-1][2^31-1][0]string", arrayOf(max31, arrayOf(max31, arrayOf(0, kindOf(kindString)))), nil, 32},
		{"[2^31-1]struct{A [0]string; B struct{}; C [0][]int32}", arrayOf(max31, structOf(
			schemaField{"A", arrayOf(0, kindOf(kindString))},
			schemaField{"B", structOf()},
			schemaField{"C", arrayOf(0, sliceOf(kindOf(kindInt32)))})), nil, 0},
		{"[2^31-1]struct{[2^31-1]struct{}; [0]string}", arrayOf(max31, structOf(
			schemaField{"E", arrayOf(max31, structOf())},
			schemaField{"Z", arrayOf(0, kindOf(kindString))})), nil, 0},
		// A slice costs its length's byte; its zero-size elements nothing.
		{"[][2^31-1][0]string of 1", sliceOf(arrayOf(max31, arrayOf(0, kindOf(kindString)))), saveBytes{}.uv(1), 0},
	}
}

// zeroSizeSeeds are files of one entity whose component, of the type
// named name, was saved with a field Gone of each zeroSizeSchemas schema:
// a load skips Gone, and the fields the type has stay zero.
func zeroSizeSeeds(name string, sparse bool) [][]byte {
	var out [][]byte
	for _, c := range zeroSizeSchemas() {
		out = append(out, componentFile(name, sparse, structOf(schemaField{"Gone", c.s}), c.value))
	}
	return out
}

package ecs_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// loadGolden2Target is a new world ready to load a save of goldenWorld2.
func loadGolden2Target() *snapWorld {
	s := newSnapWorld()
	ecs.EventsOf[goldenHit](s.w)
	return s
}

// sectionNames are the names Load gives sections in its errors.
var sectionNames = regexp.MustCompile(`the entity index|the types|(table|sparse set|resource|event queue) \d+ of \d+`)

// TestLoadFindsEveryFlippedBit: a save of version 2 with one bit flipped,
// any bit, fails to load, without a panic, leaving the world as it was;
// past the magic and the version, the error names the section the bit is
// in, and a bit inside a section's content gives the section's bytes,
// which hold it.
func TestLoadFindsEveryFlippedBit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", binaryFormat.golden))
	if err != nil {
		t.Fatal(err)
	}
	const header = len("tessera\x00") + 1 // magic and version: no CRC
	corrupt := regexp.MustCompile(`\(bytes (\d+) to (\d+)\) is corrupt: its CRC-32C is [0-9a-f]{8}, the file says [0-9a-f]{8}`)
	target := loadGolden2Target()
	empty := target.w.Checksum()
	bad := bytes.Clone(data)
	step := 1
	if testing.Short() {
		step = 7 // every seventh bit: still every byte, and each bit of a byte in turn
	}
	for bit := 0; bit < 8*len(data); bit += step {
		at := bit / 8
		bad[at] ^= 1 << (bit % 8)
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return target.w.Load(bytes.NewReader(bad))
		}()
		bad[at] = data[at]
		switch {
		case err == nil:
			t.Fatalf("bit %d of byte %d flipped: the file loaded", bit%8, at)
		case strings.HasPrefix(err.Error(), "panic"):
			t.Fatalf("bit %d of byte %d flipped: %v", bit%8, at, err)
		case target.w.Checksum() != empty || target.w.Len() != 0:
			t.Fatalf("bit %d of byte %d flipped: the failed load changed the world", bit%8, at)
		case at < header:
			continue
		case !sectionNames.MatchString(err.Error()):
			t.Fatalf("bit %d of byte %d flipped: the error names no section: %v", bit%8, at, err)
		}
		if m := corrupt.FindStringSubmatch(err.Error()); m != nil {
			from, _ := strconv.Atoi(m[1])
			to, _ := strconv.Atoi(m[2])
			if at < from || at >= to {
				t.Fatalf("bit %d of byte %d flipped: the error names bytes %d to %d: %v", bit%8, at, from, to, err)
			}
		}
	}
}

// TestLoadNamesTheCorruptSection: a changed value names its section: a
// table's float, a sparse set's value, a resource, an event.
func TestLoadNamesTheCorruptSection(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[snapHeat](w, ecs.Sparse())
	e := ecs.NewMap[snapPos](w).Spawn(snapPos{X: math.Pi, Y: 1})
	ecs.NewMap[snapHeat](w).Add(e, snapHeat{V: 0x5a5a5a5a})
	ecs.AddResource(w, &snapRNG{State: 0x1122334455667788})
	q := ecs.EventsOf[lifeEvent](w)
	q.NewReader()
	q.Send(lifeEvent{N: 0x3c3c3c3c})
	data := saveOf(t, w)
	find := func(v []byte) int {
		t.Helper()
		i := bytes.Index(data, v)
		if i < 0 || bytes.Contains(data[i+1:], v) {
			t.Fatalf("%x is not once in the file", v)
		}
		return i
	}
	pi := math.Float64bits(math.Pi)
	for _, c := range []struct {
		what  string
		value []byte
	}{
		{"table 1 of 1", []byte{byte(pi), byte(pi >> 8), byte(pi >> 16), byte(pi >> 24)}},
		{"sparse set 1 of 1", []byte{0x5a, 0x5a, 0x5a, 0x5a}},
		{"resource 1 of 1", []byte{0x88, 0x77, 0x66, 0x55}},
		{"event queue 1 of 1", []byte{0x3c, 0x3c, 0x3c, 0x3c}},
	} {
		bad := bytes.Clone(data)
		at := find(c.value) + 1
		bad[at] ^= 0x10
		back := ecs.NewWorld()
		ecs.Register[snapHeat](back, ecs.Sparse())
		ecs.NewMap[snapPos](back)
		ecs.NewMap[snapHeat](back)
		ecs.AddResource(back, &snapRNG{})
		ecs.EventsOf[lifeEvent](back)
		err := back.Load(bytes.NewReader(bad))
		if err == nil || !strings.Contains(err.Error(), c.what+" (bytes ") || !strings.Contains(err.Error(), "is corrupt") {
			t.Errorf("a bit flipped at byte %d, in %s: %v", at, c.what, err)
		}
		if err := back.Load(bytes.NewReader(data)); err != nil {
			t.Fatalf("the file as saved: %v", err)
		}
	}
}

// TestSaveSectionsAreChecked: a file of version 2 whose section has bytes
// left over, or whose section claims more bytes than the file holds, is
// an error naming the section, even with the CRC right.
func TestSaveSectionsAreChecked(t *testing.T) {
	w := ecs.NewWorld()
	ecs.NewMap[snapPos](w).Spawn(snapPos{X: 1})
	data := saveOf(t, w)
	back := func() *ecs.World {
		w := ecs.NewWorld()
		ecs.NewMap[snapPos](w)
		return w
	}
	// The file cut anywhere: an error, never a panic.
	for n := range len(data) {
		if err := back().Load(bytes.NewReader(data[:n])); err == nil {
			t.Fatalf("the file cut to %d of %d bytes loaded", n, len(data))
		}
	}
	// The entity index with a byte more, its length and CRC made right.
	const index = len("tessera\x00") + 1
	n := int(data[index]) // the index's length: small, one byte of 8
	grown := append(bytes.Clone(data[:index+8+n]), 0)
	grown[index]++
	grown = append(grown, sectionCRC(grown[index:index+8], grown[index+8:])...)
	grown = append(grown, data[index+8+n+4:]...)
	err := back().Load(bytes.NewReader(grown))
	if err == nil || !strings.Contains(err.Error(), "in the entity index: 1 bytes left at the end of the section") {
		t.Fatalf("a section with a byte left over: %v", err)
	}
}

// sectionCRC returns the CRC of a section of length bytes head and
// content content, as the section's 4 little-endian bytes: the CRC-32C of
// the content followed by the length.
func sectionCRC(head, content []byte) []byte {
	crc := crc32.Checksum(slices.Concat(content, head), crc32.MakeTable(crc32.Castagnoli))
	return binary.LittleEndian.AppendUint32(nil, crc)
}

// withSectionCRCs returns data, and when data is a file of version 2 whose
// sections' CRCs a change made wrong, a copy with them made right, as far
// as the sections' lengths go: the fuzz targets load both, so that their
// mutations also reach what Load reads behind the CRCs.
func withSectionCRCs(data []byte) [][]byte {
	const header = len("tessera\x00") + 1
	if len(data) < header || string(data[:header-1]) != "tessera\x00" || data[header-1] != 2 {
		return [][]byte{data}
	}
	fixed := bytes.Clone(data)
	changed := false
	for at := header; len(fixed)-at >= 12; {
		n := binary.LittleEndian.Uint64(fixed[at:])
		if n > uint64(len(fixed)-at-12) {
			break
		}
		end := at + 8 + int(n)
		if crc := sectionCRC(fixed[at:at+8], fixed[at+8:end]); !bytes.Equal(fixed[end:end+4], crc) {
			copy(fixed[end:], crc)
			changed = true
		}
		at = end + 4
	}
	if !changed {
		return [][]byte{data}
	}
	return [][]byte{data, fixed}
}

// TestSaveLoadLargeSections: sections far larger than the blocks Save
// adds to their CRCs as it writes (plain columns copied as memory, a
// string column written value by value, a long entity index) load back
// to the saved world, on any machine's byte order.
func TestSaveLoadLargeSections(t *testing.T) {
	s := newSnapWorld()
	for i := range 20000 {
		e := s.pos.Spawn(snapPos{X: float64(i), Y: -float64(i) / 3})
		if i%3 == 0 {
			s.name.Add(e, snapName{S: fmt.Sprint("entity ", i)})
		}
		if i%5 == 0 {
			s.heat.Add(e, snapHeat{V: int32(i)})
		}
	}
	data := saveOf(t, s.w)
	if len(data) < 10*(32<<10) {
		t.Fatalf("a save of %d bytes: too small to test", len(data))
	}
	back := newSnapWorld()
	if err := back.w.Load(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	if back.w.Checksum() != s.w.Checksum() || back.dump() != s.dump() {
		t.Fatal("the loaded world differs from the saved one")
	}
}

type dupRow struct{ V int32 }

// TestLoadRefusesTwoTablesOfOneSet: a file listing two tables of the same
// types would make both fill one table; it is refused.
func TestLoadRefusesTwoTablesOfOneSet(t *testing.T) {
	w := ecs.NewWorld()
	m := ecs.NewMap[dupRow](w)
	for i := range 4 {
		m.Spawn(dupRow{int32(i)})
	}
	var f map[string]any
	if err := json.Unmarshal(saveJSONOf(t, w), &f); err != nil {
		t.Fatal(err)
	}
	table := f["tables"].([]any)[0].(map[string]any)
	ents, vals := table["entities"].([]any), table["columns"].([]any)[0].([]any)
	a := map[string]any{"types": table["types"], "entities": ents[:2], "columns": []any{vals[:2]}}
	b := map[string]any{"types": table["types"], "entities": ents[2:], "columns": []any{vals[2:]}}
	f["tables"] = []any{a, b}
	data, _ := json.Marshal(f)
	target := ecs.NewWorld()
	ecs.NewMap[dupRow](target)
	err := target.LoadJSON(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "two tables of the same component types") {
		t.Fatalf("two tables of one type set: %v", err)
	}
}

type growFrom struct{ S []struct{} }

type growTo struct{ S []struct{ P [256]int64 } }

// TestLoadBoundsMemory: a small file cannot make Load allocate much, even
// through a type that grew since the save.
func TestLoadBoundsMemory(t *testing.T) {
	w := ecs.NewWorld()
	ecs.Register[growFrom](w, ecs.Name("grow"))
	ecs.NewMap[growFrom](w).Spawn(growFrom{S: make([]struct{}, 60000)})
	data := saveOf(t, w)
	target := ecs.NewWorld()
	ecs.Register[growTo](target, ecs.Name("grow"))
	ecs.NewMap[growTo](target)
	err := target.Load(bytes.NewReader(data))
	if err == nil || !strings.Contains(err.Error(), "more memory than a save of this size may need") {
		t.Fatalf("a %d-byte file asking for 120 MB: %v", len(data), err)
	}
}

package ecs

import (
	"fmt"
	"slices"
	"strings"
)

// savedImage is a save file read without the program's Go types, for
// DiffSaves: its entity index, and its tables, sparse sets, resources and
// event queues, each value a span of the file's bytes described by the
// file's schema of its type (valueSpans).
type savedImage struct {
	next  uint32
	gens  []uint32 // per index below next (index 0 unused), without the tag
	alive []bool   // per index below next: the index's entity lives in a table
	free  []uint32
	mark  []int32 // per index below next: the last sparse set (from 1) that held it
	types []savedFileType
	// tables are the file's tables in its order, which is the saved
	// world's iteration order (see World.saveGroups).
	tables    []savedTable
	sparse    []savedSparse // in the order of their keys
	resources []savedValue  // in the order of their names
	events    []savedQueue  // in the order of their names
	// tableNo counts the tables read, and names holds the resources' and
	// (after a 0 byte) event types' names read: to find one listed twice
	// at once.
	tableNo int
	names   map[string]bool
}

// savedFileType is one component type of a file, with the names Diff
// gives its part: a relation's side is the relation Relation[T].
type savedFileType struct {
	name    string // the stable name the file gives
	storage Storage
	p       *valuePlan
	key     string // as viewColumn.key
	part    PartKind
	diff    string // the part's name in a Difference
	// inTable is the number of the last table read that holds the type,
	// or -1 once its sparse set is read.
	inTable int
}

type savedTable struct {
	entities []Entity
	cols     []savedColumn // in the order of their keys
	mask     string        // the columns' keys, each ended by a 0 byte
	names    string        // columnNames, made when first needed
}

type savedColumn struct {
	typ  *savedFileType
	vals valueSpans
}

type savedSparse struct {
	savedColumn
	entities []Entity
}

// savedValue is a resource: its name and one value.
type savedValue struct {
	name string
	p    *valuePlan
	val  []byte
}

// savedQueue is an event queue: the events sent, each saved reader's
// events left to read, and the events some reader has not read.
type savedQueue struct {
	name   string
	sent   uint64
	lags   []uint64
	n      int        // events unread
	unread valueSpans // unread.p is nil when no event is unread
}

// readSave reads a binary save file, of version 1 or 2, with d (whose op
// and budget are set), checking what Load checks of the file's own
// structure: the sections' CRCs, counts against the bytes left, entity
// indices in range and in one table at most, sparse values on living
// entities, bools of 0 or 1. It needs none of the file's types.
func readSave(d *decoder) (*savedImage, error) {
	if string(d.bytes(len(saveMagic))) != saveMagic {
		if d.err == nil && len(d.data) > 0 && d.data[0] == '{' {
			return nil, fmt.Errorf("ecs: %s: a JSON save; only binary saves are compared (load it and Save it, or compare the worlds with Diff)", d.op)
		}
		return nil, fmt.Errorf("ecs: %s: not a Tessera save file", d.op)
	}
	v := d.uvarint()
	if d.err == nil && v != saveVersion1 && v != saveVersion {
		return nil, fmt.Errorf("ecs: %s: save format version %d; this Tessera reads versions %d and %d", d.op, v, saveVersion1, saveVersion)
	}
	d.sectioned = v >= saveVersion
	img := &savedImage{names: map[string]bool{}}
	img.readIndex(d)
	d.enterSection("the types")
	img.readTypes(d)
	var tables, sparse, resources, events int
	if d.sectioned {
		tables, sparse = d.sectionCount("table"), d.sectionCount("sparse set")
		resources, events = d.sectionCount("resource"), d.sectionCount("event queue")
	} else {
		tables = d.count(2)
	}
	d.leaveSection()
	masks := map[string]bool{}
	for k := range tables {
		if !d.enterSection(sectionName("table", k, tables)) {
			break
		}
		img.readTable(d, masks)
		d.leaveSection()
	}
	if !d.sectioned {
		sparse = d.count(2)
	}
	for k := range sparse {
		if !d.enterSection(sectionName("sparse set", k, sparse)) {
			break
		}
		img.readSparse(d)
		d.leaveSection()
	}
	if !d.sectioned {
		resources = d.count(2)
	}
	for k := range resources {
		if !d.enterSection(sectionName("resource", k, resources)) {
			break
		}
		img.readResource(d)
		d.leaveSection()
	}
	for k := range events {
		if !d.enterSection(sectionName("event queue", k, events)) {
			break
		}
		img.readQueue(d)
		d.leaveSection()
	}
	if d.err == nil && d.left() != 0 {
		d.fail("%d bytes after the end of the save", d.left())
	}
	if d.err != nil {
		return nil, d.err
	}
	slices.SortStableFunc(img.sparse, func(a, b savedSparse) int { return strings.Compare(a.typ.key, b.typ.key) })
	slices.SortStableFunc(img.resources, func(a, b savedValue) int { return strings.Compare(a.name, b.name) })
	slices.SortStableFunc(img.events, func(a, b savedQueue) int { return strings.Compare(a.name, b.name) })
	return img, nil
}

// readIndex reads the entity index: the generations and the free list.
func (img *savedImage) readIndex(d *decoder) {
	d.enterSection("the entity index")
	next := d.uvarint()
	if d.err == nil && (next < 1 || next-1 > uint64(d.left())) {
		d.fail("an entity index of %d entries, more than the file holds", next)
	}
	if d.err == nil && next-1 > MaxEntities {
		d.fail("an entity index of %d entries, more than a world holds (MaxEntities, %d)", next, MaxEntities)
	}
	if d.err != nil {
		return
	}
	img.next = uint32(next)
	img.gens = make([]uint32, next)
	img.alive = make([]bool, next)
	img.mark = make([]int32, next)
	for i := range img.gens[1:] {
		g := d.uvarint()
		if g > genMask {
			d.fail("a generation of %d, above the largest, %d", g, genMask)
			return
		}
		img.gens[i+1] = uint32(g)
	}
	listed := make([]bool, next)
	for range d.count(1) {
		i := d.uvarint()
		if d.err != nil {
			break
		}
		if i < 1 || i >= next || listed[i] {
			d.fail("free index %d is out of range or listed twice", i)
			break
		}
		listed[i] = true
		img.free = append(img.free, uint32(i))
	}
	d.leaveSection()
}

// readTypes reads the component types and their schemas.
func (img *savedImage) readTypes(d *decoder) {
	seen := map[string]bool{}
	for range d.count(3) {
		name := d.str()
		b := d.bytes(1)
		s := d.schema(0)
		if d.err != nil {
			return
		}
		st := savedFileType{name: name, storage: Storage(b[0]), p: newValuePlan(s), key: name, part: PartComponent, diff: name}
		switch {
		case st.storage > SparseStorage:
			d.fail("%s has an unknown storage %d", savedTypeLabel(name), st.storage)
		}
		if pair, kind, ok := savedRelation(name); ok {
			st.part, st.diff = PartRelation, "Relation["+pair+"]"
			st.key = st.diff
			if kind == "relIn" {
				st.key += ".sources"
			}
		}
		if seen[st.key] {
			d.fail("%s is listed twice", savedTypeLabel(name))
			return
		}
		seen[st.key] = true
		img.types = append(img.types, st)
	}
}

// entity reads an entity index of a row or sparse value.
func (img *savedImage) entity(d *decoder, what string) uint32 {
	i := d.uvarint()
	if d.err == nil && (i < 1 || i >= uint64(img.next)) {
		d.fail("%s entity index %d out of range 1 to %d", what, i, img.next-1)
	}
	return uint32(i)
}

// readTable reads a table: its columns' types, its rows' entities and
// the columns' values. masks holds the sets of types of the tables read.
func (img *savedImage) readTable(d *decoder, masks map[string]bool) {
	var t savedTable
	img.tableNo++
	for range d.count(1) {
		ref := d.uvarint()
		if d.err != nil || ref >= uint64(len(img.types)) || img.types[ref].storage != TableStorage ||
			img.types[ref].inTable == img.tableNo {
			d.fail("a table column of type %d, unknown, sparse or listed twice", ref)
			return
		}
		img.types[ref].inTable = img.tableNo
		t.cols = append(t.cols, savedColumn{typ: &img.types[ref]})
	}
	for range d.count(1) {
		i := img.entity(d, "a table row's")
		if d.err != nil {
			return
		}
		if img.alive[i] {
			d.fail("entity index %d is in two tables", i)
			return
		}
		img.alive[i] = true
		t.entities = append(t.entities, Entity{index: i, gen: img.gens[i]})
	}
	for k := range t.cols { // in the order the file lists them
		t.cols[k].vals = readSpans(d, t.cols[k].typ.p, len(t.entities))
	}
	if d.err != nil {
		return
	}
	slices.SortFunc(t.cols, func(a, b savedColumn) int { return strings.Compare(a.typ.key, b.typ.key) })
	var mask strings.Builder
	for _, c := range t.cols {
		mask.WriteString(c.typ.key)
		mask.WriteByte(0)
	}
	if masks[mask.String()] {
		d.fail("two tables of the same component types")
		return
	}
	masks[mask.String()] = true
	t.mask = mask.String()
	if len(t.entities) > 0 { // as a world's, an empty table has no part in the order
		img.tables = append(img.tables, t)
	}
}

// readSparse reads a sparse set: its type, its entities and its values.
func (img *savedImage) readSparse(d *decoder) {
	ref := d.uvarint()
	if d.err != nil || ref >= uint64(len(img.types)) || img.types[ref].storage != SparseStorage {
		d.fail("a sparse set of type %d, unknown or not sparse", ref)
		return
	}
	s := savedSparse{savedColumn: savedColumn{typ: &img.types[ref]}}
	if s.typ.inTable != 0 {
		d.fail("%s has two sparse sets", savedTypeLabel(s.typ.name))
		return
	}
	s.typ.inTable = -1 // its set is read
	stamp := int32(len(img.sparse) + 1)
	for range d.count(1) {
		i := img.entity(d, "a sparse value's")
		if d.err == nil && (!img.alive[i] || img.mark[i] == stamp) {
			d.fail("a sparse value of %s for entity index %d, which is not alive or has two", savedTypeLabel(s.typ.name), i)
		}
		if d.err != nil {
			return
		}
		img.mark[i] = stamp
		s.entities = append(s.entities, Entity{index: i, gen: img.gens[i]})
	}
	s.vals = readSpans(d, s.typ.p, len(s.entities))
	img.sparse = append(img.sparse, s)
}

// readResource reads a resource: its name, schema and value.
func (img *savedImage) readResource(d *decoder) {
	name := d.str()
	s := d.schema(0)
	if d.err != nil {
		return
	}
	if img.names[name] {
		d.fail("resource %q is listed twice", name)
		return
	}
	img.names[name] = true
	p, start := newValuePlan(s), d.pos
	skipValue(d, p)
	if d.err != nil {
		return
	}
	img.resources = append(img.resources, savedValue{name, p, d.data[start:d.pos]})
}

// readQueue reads an event queue, as World.decodeEvents does.
func (img *savedImage) readQueue(d *decoder) {
	q := savedQueue{name: d.str(), sent: d.uvarint()}
	var most uint64
	for range d.count(1) {
		lag := d.uvarint()
		if d.err != nil {
			return
		}
		if lag > q.sent {
			d.fail("event type %q: a reader with %d events left of %d sent", q.name, lag, q.sent)
			return
		}
		most = max(most, lag)
		q.lags = append(q.lags, lag)
	}
	n := d.count(0)
	if d.err == nil && uint64(n) != most {
		d.fail("event type %q: %d events some reader has not read, where the readers have %d left at most", q.name, n, most)
	}
	if img.names["\x00"+q.name] {
		d.fail("event type %q is listed twice", q.name)
	}
	img.names["\x00"+q.name] = true
	if d.err != nil {
		return
	}
	if n > 0 {
		s := d.schema(0)
		if d.err != nil {
			return
		}
		q.unread = readSpans(d, newValuePlan(s), n)
		q.n = n
	}
	img.events = append(img.events, q)
}

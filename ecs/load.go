package ecs

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"unsafe"
)

// Load reads a file written by [World.Save] into w, which must be new: no
// entity spawned yet. Afterwards w holds the saved world exactly: the same
// entity ids and generations, free list (so the next spawns return the
// same ids), rows in the same order, sparse sets, resources and event
// queues, and its checksum is the saved world's when w makes its tables in
// the same order as the saved world did (the same program does).
//
// The component types in the file must be known to w, by their stable
// names ([Name]): use their Maps or Register them before Load, with the
// storage they were saved with. A resource in the file must have a slot in
// w ([AddResource], or [NewResource]); its value is written in place.
// Fields are matched by name: a field the type gained since the save is
// zero, one it lost is skipped, and one whose kind changed is an error
// naming type and field. Entities inside component values and events get
// w's tag.
//
// Event queues are matched by their types' names. Each queue of w takes
// the file's state of it: its count of events sent ([Events.Sent]), the
// events some reader had not read, and the saved readers' cursors, which
// w's open readers of the queue take in the order they were made and the
// readers made after the load take next (see [Events.NewReader]); a queue
// the file does not name is emptied, with Sent at 0, as the saved world
// had it. A queue w has not made yet takes its Sent when [EventsOf] makes
// it, if every reader had read every event; a queue with events left to
// read must be made before Load (EventsOf, or making the systems that
// send or read it), or Load returns an error naming the type. A file of
// version 1, which holds no events, leaves w's queues as they were.
//
// Every section of a file of version 2 (the entity index, the types, each
// table, sparse set, resource and event queue) carries a CRC-32C of its
// bytes, which Load checks before it reads the section: a flipped bit or
// a changed byte is an error naming the section and its bytes in the
// file, not a world with a wrong value (wider random damage slips through
// about once in 2^32). Files of version 1, which have no CRCs, still load.
//
// Load fires no hook and no observer; enter and leave observers count the
// loaded entities that match as members. It returns an error, and leaves w
// exactly as it was, for any file it cannot load: another format or
// version, truncated or corrupt bytes, unknown types or resources, changed
// kinds; it never panics on bad input. It panics inside an iteration, a
// hook, an observer or a parallel section.
//
// Complexity: O(file size), whatever the bytes: each count the file gives
// is checked against the bytes left, values that take no bytes (empty
// arrays and structs, arrays of those, at any depth) are read at once
// however many a schema claims, and a schema nested more than 64 deep is
// an error. Memory: the file's size while it loads, plus the values, at
// most 64 times the file's size plus 64 MiB (a slice element of no size
// counting as a byte); a file that would need more is refused as corrupt.
func (w *World) Load(in io.Reader) error {
	w.mustBeSettled("Load")
	if err := w.mustBeNew("Load"); err != nil {
		return err
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("ecs: Load: %w", err)
	}
	img, err := w.decodeImage(&decoder{data: data, op: "Load", budget: loadBudget(len(data))})
	if err != nil {
		return err
	}
	w.applyImage(img)
	return nil
}

// mustBeNew returns the error of a load into a world that has spawned.
func (w *World) mustBeNew(op string) error {
	if w.entities.next != 1 {
		return fmt.Errorf("ecs: %s: the world has spawned entities (%d alive); load into a new world, or Merge into this one", op, w.Len())
	}
	return nil
}

// loadImage is a decoded save file, checked and ready to apply.
type loadImage struct {
	gens      []uint32 // per index from 1, without the tag
	free      []uint32
	alive     int
	tables    []loadTable
	sparse    []loadSparse
	resources []loadResource
	// eventsSaved: the file holds the event queues (version 2 on), in
	// events; a file of version 1 has none and leaves w's queues alone.
	eventsSaved bool
	events      []loadEvents
}

type loadTable struct {
	infos []*componentInfo // sorted by id
	ents  []uint32
	cols  []unsafe.Pointer // parallel to infos: n values each
}

type loadSparse struct {
	info   *componentInfo
	ents   []uint32
	values unsafe.Pointer
}

type loadResource struct {
	slot resourceHolder
	typ  reflect.Type
	val  unsafe.Pointer
}

// loadType is a component type of the file, matched to w's.
type loadType struct {
	info  *componentInfo
	codec *loadCodec
}

// decodeImage reads and checks a whole save file without changing w.
func (w *World) decodeImage(d *decoder) (*loadImage, error) {
	w.beginMethods(d.op) // DecodeSave methods run while the file is read
	defer w.endMethods()
	return w.decodeFile(d)
}

// decodeFile is decodeImage without the mark, for callers that set it.
func (w *World) decodeFile(d *decoder) (*loadImage, error) {
	if string(d.bytes(len(saveMagic))) != saveMagic {
		return nil, fmt.Errorf("ecs: %s: not a Tessera save file", d.op)
	}
	v := d.uvarint()
	if d.err == nil && v != saveVersion1 && v != saveVersion {
		return nil, fmt.Errorf("ecs: %s: save format version %d; this Tessera reads versions %d and %d", d.op, v, saveVersion1, saveVersion)
	}
	d.sectioned = v >= saveVersion
	img := &loadImage{eventsSaved: d.sectioned}
	d.enterSection("the entity index")
	next := d.uvarint()
	if d.err == nil && (next < 1 || next-1 > uint64(d.left())) {
		d.fail("an entity index of %d entries, more than the file holds", next)
	}
	if d.err == nil && next-1 > MaxEntities {
		d.fail("an entity index of %d entries, more than a world holds (MaxEntities, %d)", next, MaxEntities)
	}
	if d.err != nil {
		return nil, d.err
	}
	img.gens = make([]uint32, 0, next-1)
	for range int(next) - 1 {
		g := d.uvarint()
		if g > genMask {
			d.fail("a generation of %d, above the largest, %d", g, genMask)
		}
		img.gens = append(img.gens, uint32(g))
	}
	n := uint32(len(img.gens))
	state := make([]byte, n+1) // per index: 0 never placed, 1 free, 2 alive
	for range d.count(1) {
		i := d.uvarint()
		if d.err != nil {
			break
		}
		if i < 1 || i > uint64(n) || state[i] != 0 {
			d.fail("free index %d is out of range or listed twice", i)
			break
		}
		state[i] = 1
		img.free = append(img.free, uint32(i))
	}
	d.leaveSection()
	d.enterSection("the types")
	types := w.decodeTypes(d)
	// Version 2 gives the number of sections of each kind at the end of
	// the types section; version 1 gives each count where the list starts.
	var tables, sparse, resources, events int
	if d.sectioned {
		tables, sparse = d.sectionCount("table"), d.sectionCount("sparse set")
		resources, events = d.sectionCount("resource"), d.sectionCount("event queue")
	} else {
		tables = d.count(2)
	}
	d.leaveSection()
	entity := func(what string) uint32 {
		i := d.uvarint()
		if d.err == nil && (i < 1 || i > uint64(n)) {
			d.fail("%s entity index %d out of range 1 to %d", what, i, n)
		}
		return uint32(i)
	}
	tableKeys := map[string]bool{}
	for k := range tables {
		if !d.enterSection(sectionName("table", k, tables)) {
			break
		}
		var lt loadTable
		var codecs []*loadCodec
		for range d.count(1) {
			ref := d.uvarint()
			if d.err != nil || ref >= uint64(len(types)) || types[ref].info.sparse != nil || slices.Contains(lt.infos, types[ref].info) {
				d.fail("a table column of type %d, unknown, sparse or listed twice", ref)
				break
			}
			lt.infos = append(lt.infos, types[ref].info)
			codecs = append(codecs, types[ref].codec)
		}
		var mask bitset
		for _, info := range lt.infos {
			mask.set(info.id)
		}
		if key := mask.key(); tableKeys[key] {
			d.fail("two tables of the same component types")
		} else {
			tableKeys[key] = true
		}
		for range d.count(1) {
			i := entity("a table row's")
			if d.err != nil {
				break
			}
			if state[i] != 0 {
				d.fail("entity index %d is in two tables, or both alive and free", i)
				break
			}
			state[i] = 2
			lt.ents = append(lt.ents, i)
		}
		for k, info := range lt.infos {
			if !d.spend(len(lt.ents), info.size) {
				break
			}
			p := info.alloc(len(lt.ents))
			codecs[k].values(d, w, p, len(lt.ents))
			lt.cols = append(lt.cols, p)
		}
		img.alive += len(lt.ents)
		img.tables = append(img.tables, lt)
		d.leaveSection()
	}
	if !d.sectioned {
		sparse = d.count(2)
	}
	for k := range sparse {
		if !d.enterSection(sectionName("sparse set", k, sparse)) {
			break
		}
		ref := d.uvarint()
		if d.err != nil || ref >= uint64(len(types)) || types[ref].info.sparse == nil {
			d.fail("a sparse set of type %d, unknown or not sparse", ref)
			break
		}
		ls := loadSparse{info: types[ref].info}
		for _, other := range img.sparse {
			if other.info == ls.info {
				d.fail("%s has two sparse sets", savedTypeLabel(ls.info.name))
			}
		}
		seen := map[uint32]bool{}
		for range d.count(1) {
			i := entity("a sparse value's")
			if d.err == nil && (state[i] != 2 || seen[i]) {
				d.fail("a sparse value of %s for entity index %d, which is not alive or has two", savedTypeLabel(ls.info.name), i)
			}
			if d.err != nil {
				break
			}
			seen[i] = true
			ls.ents = append(ls.ents, i)
		}
		if d.spend(len(ls.ents), ls.info.size) {
			ls.values = ls.info.alloc(len(ls.ents))
			types[ref].codec.values(d, w, ls.values, len(ls.ents))
		}
		img.sparse = append(img.sparse, ls)
		d.leaveSection()
	}
	if !d.sectioned {
		resources = d.count(2)
	}
	img.resources = w.decodeResources(d, resources)
	if d.sectioned {
		queues := w.eventQueuesByName()
		for k := range events {
			if !d.enterSection(sectionName("event queue", k, events)) {
				break
			}
			w.decodeEvents(d, img, queues)
			d.leaveSection()
		}
	}
	if d.err == nil && d.left() != 0 {
		d.fail("%d bytes after the end of the save", d.left())
	}
	for i := uint32(1); d.err == nil && i <= n; i++ {
		if state[i] == 0 && img.gens[i-1] != genMask {
			d.fail("entity index %d is neither alive nor free (nor retired)", i)
		}
	}
	if d.err == nil {
		w.checkImageRelations(d, img, state)
	}
	if d.err != nil {
		return nil, d.err
	}
	for k := range img.tables {
		t := &img.tables[k]
		order := make([]int, len(t.infos))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return int(t.infos[a].id) - int(t.infos[b].id) })
		infos, cols := slices.Clone(t.infos), slices.Clone(t.cols)
		for i, j := range order {
			t.infos[i], t.cols[i] = infos[j], cols[j]
		}
	}
	return img, nil
}

// decodeTypes reads the file's component types and matches them to w's by
// stable name.
func (w *World) decodeTypes(d *decoder) []loadType {
	byName := map[string]*componentInfo{}
	for _, info := range w.reg.infos {
		byName[info.name] = info
	}
	var types []loadType
	for range d.count(3) {
		name := d.str()
		b := d.bytes(1)
		s := d.schema(0)
		if d.err != nil {
			return nil
		}
		storage := Storage(b[0])
		info := byName[name]
		switch {
		case info == nil:
			d.fail("%s", unknownTypeMessage(name, byName))
		case storage > SparseStorage:
			d.fail("%s has an unknown storage %d", savedTypeLabel(name), storage)
		case (storage == SparseStorage) != (info.sparse != nil):
			d.fail("%s was saved with %v storage, and this world has %v", savedTypeLabel(name), storage, 1-storage)
		}
		if d.err != nil {
			return nil
		}
		c, err := newLoadCodec(s, info.typ, info.valuePath())
		if err != nil {
			d.fail("%s: %v", savedTypeLabel(name), err)
			return nil
		}
		if info.loadN != nil && c.same && !c.bulk {
			c.custom = checkedLoad(info.loadN, info.typ, s.fixedSize())
		}
		types = append(types, loadType{info, c})
	}
	return types
}

// decodeResources reads the file's n resources into new values, matched
// to w's resource slots by type name.
func (w *World) decodeResources(d *decoder, n int) []loadResource {
	byName := map[string]reflect.Type{}
	for t := range w.resources {
		byName[typeName(t)] = t
	}
	var out []loadResource
	for k := range n {
		if !d.enterSection(sectionName("resource", k, n)) {
			return nil
		}
		name := d.str()
		s := d.schema(0)
		if d.err != nil {
			return nil
		}
		if d.merge {
			if c, err := newLoadCodec(s, nil, name); err == nil {
				c.skipN(d, 1) // Merge leaves w's resources alone
			}
			d.skipSection()
			d.leaveSection()
			continue
		}
		t := byName[name]
		if t == nil {
			d.fail("resource %q is not in this world; add it (or make a NewResource handle) before Load", name)
			return nil
		}
		c, err := newLoadCodec(s, t, t.String())
		if err != nil {
			d.fail("resource %q: %v", name, err)
			return nil
		}
		if !d.spend(1, t.Size()) {
			return nil
		}
		v := reflect.New(t)
		c.value(d, w, v.UnsafePointer())
		out = append(out, loadResource{w.resources[t].(resourceHolder), t, v.UnsafePointer()})
		d.leaveSection()
	}
	return out
}

// applyImage puts a checked image into w, which has no entities.
func (w *World) applyImage(img *loadImage) {
	w.fillImage(img)
	w.placeAll()
	w.recountMembers()
}

// fillImage puts the entities, rows, sparse values, resources and event
// queues of a checked image into w, which has no entities.
func (w *World) fillImage(img *loadImage) {
	w.enter("Load")
	defer w.leave()
	x := &w.entities
	next := uint32(len(img.gens)) + 1
	x.grow(uint64(next))
	for i, g := range img.gens {
		x.recs[i+1] = record{gen: g | x.tag}
	}
	x.next, x.alive = next, img.alive
	x.free = append(x.free[:0], img.free...)
	w.placeImage(img, func(i uint32) Entity { return Entity{i, x.recs[i].gen} })
	for _, r := range img.resources {
		reflect.NewAt(r.typ, r.slot.ensure()).Elem().Set(reflect.NewAt(r.typ, r.val).Elem())
	}
	w.fillEvents(img)
}

// placeImage appends the rows of a checked image's tables and sparse sets
// to w's, the file's entity index i becoming the living entity local(i),
// whose record it points at its row.
func (w *World) placeImage(img *loadImage, local func(i uint32) Entity) {
	x := &w.entities
	for _, lt := range img.tables {
		ids := make([]componentID, len(lt.infos))
		for i, info := range lt.infos {
			ids[i] = info.id
		}
		t := w.tableFor(ids)
		n, start := len(lt.ents), len(t.entities)
		t.reserve(uint32(start + n))
		for i := range t.columns {
			col := &t.columns[i]
			col.info.copyN(col.at(uint32(start)), lt.cols[i], n)
		}
		for row, i := range lt.ents {
			e := local(i)
			r := x.at(e.index)
			r.slot, r.row = t.slot, uint32(start+row)
			t.entities = append(t.entities, e)
		}
		t.stampRows(uint32(start), uint32(n)) // a load is an add

	}
	for _, ls := range img.sparse {
		s := ls.info.sparse
		start, n := len(s.dense), len(ls.ents)
		s.grow(uint32(start + n))
		s.info.copyN(s.values.at(uint32(start)), ls.values, n)
		for k, i := range ls.ents {
			e := local(i)
			s.dense = append(s.dense, e)
			s.setEntry(e.index, uint32(start+k)+1)
		}
		s.stampRows(uint32(start), uint32(n))
	}
}

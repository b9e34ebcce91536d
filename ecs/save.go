package ecs

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"
)

// saveMagic opens every save file; saveVersion is the version Save
// writes, and saveVersion1 the first, which Load still reads: the same
// content without event queues, sections or CRCs (save_section.go).
const (
	saveMagic    = "tessera\x00"
	saveVersion1 = 1
	saveVersion  = 2
)

// Save writes w's whole state to out in Tessera's binary save format,
// version 2: the entity index (every index's generation and the free list,
// so a load gives back the same ids), every non-empty table's rows in
// iteration order, the sparse sets, the resources and the event queues,
// each type named by its stable name ([Name]; an event type by its package
// path and name) and described by a schema of its fields, so the file
// still loads after a type gains, loses or reorders fields. Numbers are
// little-endian and int, uint and uintptr 64 bits whatever the machine, so
// the same world saves to the same bytes on any machine; runs of plain
// numbers are written as memory, the rest field by field. The file is cut
// into sections (the entity index, the types, then one per table, sparse
// set, resource and event queue), each with a CRC-32C of its bytes, by
// which [World.Load] finds a damaged file. Load reads it back.
//
// Of each event queue ([EventsOf]) anything was sent to, the file holds
// the number of events sent ([Events.Sent]), the events some reader has
// not read and each open reader's cursor, in the order the readers were
// made: readers are the program's, and Load gives the cursors to the
// loading program's readers in that order (see [Events.NewReader]).
//
// Components, resources and events may hold numbers, bools, strings,
// entities (saved without the world's tag), arrays, slices and structs of
// those. A stored type or a resource with a pointer, map, channel, function
// or interface, or such an event type with events some reader has not
// read, makes Save return an error naming the type and field, before
// anything is written. Other errors are out's. Save reads the world only;
// it panics inside a parallel section, where systems may be writing.
// Complexity: O(entities x their components + index length + types +
// events left to read). (The whole-registry snapshots of EnTT's snapshot
// class and flecs' world serialisation, in a versioned binary format of
// Tessera's own.)
func (w *World) Save(out io.Writer) error {
	if w.shared {
		panic("ecs: Save: called inside a parallel section, where systems may be writing; save between stages or ticks")
	}
	w.beginMethods("Save") // EncodeSave methods run
	defer w.endMethods()
	p, err := w.savePlan()
	if err != nil {
		return err
	}
	e := &encoder{buf: make([]byte, 0, 1<<16)}
	e.buf = append(e.buf, saveMagic...)
	e.uvarint(saveVersion)
	sec := e.beginSection()
	w.saveIndex(e)
	e.endSection(sec)
	var sets []*sparseSet
	for _, s := range w.sparse {
		if len(s.dense) > 0 {
			sets = append(sets, s)
		}
	}
	groups := w.saveGroups()
	sec = e.beginSection()
	e.uvarint(uint64(len(p.types)))
	for _, st := range p.types {
		e.str(st.name)
		e.buf = append(e.buf, byte(st.storage))
		e.schema(st.schema)
	}
	for _, n := range []int{len(groups), len(sets), len(p.resources), len(p.events)} {
		e.uvarint(uint64(n))
	}
	e.endSection(sec)
	for _, g := range groups {
		sec := e.beginSection()
		first := g[0]
		e.uvarint(uint64(len(first.columns)))
		for _, col := range first.columns {
			e.uvarint(uint64(p.ref[col.id]))
		}
		rows := 0
		for _, t := range g {
			rows += len(t.entities)
		}
		room := rows * binary.MaxVarintLen32
		for _, col := range first.columns {
			room += p.codec[col.id].bytesFor(rows)
		}
		e.reserve(room)
		e.uvarint(uint64(rows))
		for _, t := range g {
			for _, ent := range t.entities {
				e.uvarint(uint64(ent.index))
				e.tick()
			}
		}
		for i, col := range first.columns {
			for _, t := range g {
				p.codec[col.id].values(e, t.columns[i].base, len(t.entities))
			}
		}
		e.endSection(sec)
		if err := e.flush(out); err != nil {
			return err
		}
	}
	for _, s := range sets {
		e.reserve(len(s.dense)*binary.MaxVarintLen32 + p.codec[s.info.id].bytesFor(len(s.dense)))
		sec := e.beginSection()
		e.uvarint(uint64(p.ref[s.info.id]))
		e.uvarint(uint64(len(s.dense)))
		for _, ent := range s.dense {
			e.uvarint(uint64(ent.index))
			e.tick()
		}
		p.codec[s.info.id].values(e, s.values.base, len(s.dense))
		e.endSection(sec)
		if err := e.flush(out); err != nil {
			return err
		}
	}
	for _, r := range p.resources {
		sec := e.beginSection()
		e.str(r.name)
		e.schema(r.codec.s)
		r.codec.value(e, r.ptr)
		e.endSection(sec)
	}
	for i := range p.events {
		sec := e.beginSection()
		p.events[i].write(e)
		e.endSection(sec)
	}
	return e.flush(out)
}

// flush writes what e holds to out and empties it.
func (e *encoder) flush(out io.Writer) error {
	_, err := out.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

// savePlan is what Save works out before it writes: the types it names,
// in name order, and the codec of each.
type savePlan struct {
	types     []savedType
	ref       map[componentID]int // component id -> position in types
	codec     map[componentID]*valueCodec
	resources []savedResource
	events    []savedEvents
}

type savedType struct {
	name    string
	storage Storage
	schema  *schema
}

type savedResource struct {
	name  string
	ptr   unsafe.Pointer
	codec *valueCodec
}

// savePlan lists the component types w stores (a non-empty table column or
// sparse set) and the resources it has, with their codecs, or returns the
// error of the first type a save cannot hold.
func (w *World) savePlan() (*savePlan, error) {
	p := &savePlan{ref: map[componentID]int{}, codec: map[componentID]*valueCodec{}}
	var infos []*componentInfo
	seen := map[componentID]bool{}
	note := func(info *componentInfo) {
		if !seen[info.id] {
			seen[info.id] = true
			infos = append(infos, info)
		}
	}
	for _, t := range w.tables {
		if len(t.entities) > 0 {
			for _, col := range t.columns {
				note(col.info)
			}
		}
	}
	for _, s := range w.sparse {
		if len(s.dense) > 0 {
			note(s.info)
		}
	}
	slices.SortFunc(infos, func(a, b *componentInfo) int { return strings.Compare(a.name, b.name) })
	for i, info := range infos {
		s, err := schemaOfAt(info.typ, info.valuePath())
		if err != nil {
			return nil, fmt.Errorf("ecs: Save: %s: %v", info.subject(), err)
		}
		storage := TableStorage
		if info.sparse != nil {
			storage = SparseStorage
		}
		p.types = append(p.types, savedType{info.name, storage, s})
		p.ref[info.id] = i
		c := newValueCodec(info.typ, s)
		if info.saveN != nil && !c.packed {
			c.custom = checkedSave(info.saveN, info.typ, s.fixedSize())
		}
		p.codec[info.id] = c
	}
	for t, slot := range w.resources {
		ptr := slot.(resourceHolder).pointer()
		if ptr == nil {
			continue
		}
		s, err := schemaOf(t)
		if err != nil {
			return nil, fmt.Errorf("ecs: Save: resource type %v: %v", t, err)
		}
		p.resources = append(p.resources, savedResource{typeName(t), ptr, newValueCodec(t, s)})
	}
	slices.SortFunc(p.resources, func(a, b savedResource) int { return strings.Compare(a.name, b.name) })
	events, err := w.savedEventQueues()
	if err != nil {
		return nil, err
	}
	p.events = events
	return p, nil
}

// saveIndex writes the entity index: how many indices were handed out, the
// generation of each (without the tag), and the free list in order.
func (w *World) saveIndex(e *encoder) {
	x := &w.entities
	e.reserve((int(x.next) + len(x.free)) * binary.MaxVarintLen32)
	e.uvarint(uint64(x.next))
	for i := uint32(1); i < x.next; i++ {
		e.uvarint(uint64(x.recs[i].gen & genMask))
		e.tick()
	}
	e.uvarint(uint64(len(x.free)))
	for _, i := range x.free {
		e.uvarint(uint64(i))
		e.tick()
	}
}

// saveGroups returns the tables that have rows, grouped by component
// types, each group in creation order and the groups in the order of
// their first tables: a file holds one table per set of component types,
// so the tables of a split relation's targets (SplitByTarget) are one
// table there, and loading places each row in its target's table again.
func (w *World) saveGroups() [][]*table {
	split := false
	for _, r := range w.relations {
		split = split || r.split
	}
	var groups [][]*table
	at := map[string]int{}
	for _, t := range w.tables {
		if len(t.entities) == 0 {
			continue
		}
		if !split {
			groups = append(groups, []*table{t})
			continue
		}
		k := t.mask.key()
		if i, ok := at[k]; ok {
			groups[i] = append(groups[i], t)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []*table{t})
	}
	return groups
}

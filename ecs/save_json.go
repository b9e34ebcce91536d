package ecs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// jsonSave is the JSON save format, version 2: the binary format's content
// (see World.Save) with each component column, resource and event queue's
// events written by encoding/json, so a type's own MarshalJSON and
// UnmarshalJSON and its field tags apply. Version 1 had no events. A JSON
// save has no CRCs (see SaveJSON).
type jsonSave struct {
	Format      string         `json:"format"` // "tessera"
	Version     int            `json:"version"`
	Next        uint32         `json:"next"`        // entity indices handed out, plus one
	Generations []uint32       `json:"generations"` // of indices 1 to next-1
	Free        []uint32       `json:"free"`        // recycled next, last first
	Types       []jsonType     `json:"types"`
	Tables      []jsonTable    `json:"tables"`
	Sparse      []jsonSparse   `json:"sparse"`
	Resources   []jsonResource `json:"resources"`
	Events      []jsonEvents   `json:"events,omitempty"` // version 2 on
}

type jsonType struct {
	Name    string `json:"name"`
	Storage string `json:"storage"` // "table" or "sparse"
}

type jsonTable struct {
	Types    []string          `json:"types"`
	Entities []uint32          `json:"entities"` // entity indices, one per row
	Columns  []json.RawMessage `json:"columns"`  // parallel to Types: an array of values each
}

type jsonSparse struct {
	Type     string          `json:"type"`
	Entities []uint32        `json:"entities"`
	Values   json.RawMessage `json:"values"`
}

type jsonResource struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// jsonEvents is an event queue (see save_events.go).
type jsonEvents struct {
	Type   string          `json:"type"`
	Sent   uint64          `json:"sent"`
	Lags   []uint64        `json:"lags"`   // per reader, in the order made: the events it has left to read
	Unread json.RawMessage `json:"unread"` // the events some reader has not read, oldest first
}

// SaveJSON writes w's whole state to out as JSON (version 2): what
// [World.Save] writes, readable by people and tools, with every component
// column, resource and event queue's unread events marshalled by
// encoding/json (a type's MarshalJSON and field tags apply; entities
// inside values are written as {"index": i, "generation": g}); an event
// queue's readers are its "lags", the events each had left to read.
// [World.LoadJSON] reads it back. It accepts the types Save accepts, within
// encoding/json's rules: unexported fields are not written (they load as
// zero), NaN and infinite floats and complex numbers are errors, and a type
// defined from Entity (type Ref ecs.Entity) needs a MarshalJSON of its own.
// It is slower and larger than the binary format. It carries no CRCs: a
// JSON save is text for people to read and edit, and an edited file must
// load; JSON's syntax and LoadJSON's checks of every name, count and
// value's kind catch most damage, but a changed digit inside a number
// loads as that number.
func (w *World) SaveJSON(out io.Writer) error {
	if w.shared {
		panic("ecs: SaveJSON: called inside a parallel section, where systems may be writing; save between stages or ticks")
	}
	w.beginMethods("SaveJSON") // MarshalJSON methods run
	defer w.endMethods()
	p, err := w.savePlan()
	if err != nil {
		return fmt.Errorf("ecs: SaveJSON: %w", err)
	}
	x := &w.entities
	f := jsonSave{Format: "tessera", Version: saveVersion, Next: x.next, Free: append([]uint32{}, x.free...)}
	f.Generations = make([]uint32, 0, x.next-1)
	for i := uint32(1); i < x.next; i++ {
		f.Generations = append(f.Generations, x.recs[i].gen&genMask)
	}
	for _, st := range p.types {
		f.Types = append(f.Types, jsonType{st.name, st.storage.String()})
	}
	for _, g := range w.saveGroups() {
		var jt jsonTable
		for _, t := range g {
			jt.Entities = append(jt.Entities, entityIndices(t.entities)...)
		}
		for i, col := range g[0].columns {
			jt.Types = append(jt.Types, col.info.name)
			vals := reflect.SliceAt(col.info.typ, col.base, len(g[0].entities))
			for _, t := range g[1:] {
				vals = reflect.AppendSlice(vals, reflect.SliceAt(col.info.typ, t.columns[i].base, len(t.entities)))
			}
			raw, err := json.Marshal(vals.Interface())
			if err != nil {
				return fmt.Errorf("ecs: SaveJSON: %s: %w", col.info.subject(), err)
			}
			jt.Columns = append(jt.Columns, raw)
		}
		f.Tables = append(f.Tables, jt)
	}
	for _, s := range w.sparse {
		if len(s.dense) == 0 {
			continue
		}
		raw, err := json.Marshal(reflect.SliceAt(s.info.typ, s.values.base, len(s.dense)).Interface())
		if err != nil {
			return fmt.Errorf("ecs: SaveJSON: %s: %w", s.info.subject(), err)
		}
		f.Sparse = append(f.Sparse, jsonSparse{s.info.name, entityIndices(s.dense), raw})
	}
	for _, r := range p.resources {
		raw, err := json.Marshal(reflect.NewAt(r.codec.typ, r.ptr).Interface())
		if err != nil {
			return fmt.Errorf("ecs: SaveJSON: resource %s: %w", r.name, err)
		}
		f.Resources = append(f.Resources, jsonResource{r.name, raw})
	}
	for _, st := range p.events {
		je := jsonEvents{Type: st.name, Sent: st.sent, Lags: st.lags, Unread: json.RawMessage("[]")}
		if je.Lags == nil {
			je.Lags = []uint64{}
		}
		if st.n > 0 {
			raw, err := json.Marshal(reflect.SliceAt(st.typ, st.unread, st.n).Interface())
			if err != nil {
				return fmt.Errorf("ecs: SaveJSON: event type %v: %w", st.typ, err)
			}
			je.Unread = raw
		}
		f.Events = append(f.Events, je)
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", " ")
	return enc.Encode(&f)
}

func entityIndices(es []Entity) []uint32 {
	out := make([]uint32, len(es))
	for i, e := range es {
		out[i] = e.index
	}
	return out
}

// LoadJSON reads a file written by [World.SaveJSON] into w, which must be
// new, as [World.Load] does, with the same result, checks and guarantees:
// an error and an unchanged world for anything it cannot load, never a
// panic on bad input. Component values and events are unmarshalled by
// encoding/json, so fields are matched by name (or tag), unknown fields
// are skipped and missing ones are zero, and a value of the wrong JSON
// kind is an error naming the field. It reads versions 1 (no events: w's
// queues stay as they were) and 2.
func (w *World) LoadJSON(in io.Reader) error {
	w.mustBeSettled("LoadJSON")
	if err := w.mustBeNew("LoadJSON"); err != nil {
		return err
	}
	img, err := w.decodeJSON(in, &decoder{op: "LoadJSON"})
	if err != nil {
		return err
	}
	w.applyImage(img)
	return nil
}

// decodeJSON reads a JSON save from in and decodes it with d (whose op and
// merge are set) as decodeImage does a binary one.
func (w *World) decodeJSON(in io.Reader, d *decoder) (*loadImage, error) {
	w.beginMethods(d.op) // UnmarshalJSON and DecodeSave methods run
	defer w.endMethods()
	raw, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("ecs: %s: %w", d.op, err)
	}
	var f jsonSave
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("ecs: %s: %w", d.op, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("ecs: %s: data after the save's JSON object", d.op)
	}
	if d.merge {
		f.Resources, f.Events = nil, nil // Merge leaves w's resources and events alone
	}
	if f.Version == saveVersion1 {
		f.Events = nil // version 1 had none
	}
	data, err := w.jsonToBinary(&f, loadBudget(len(raw)))
	if err != nil {
		return nil, fmt.Errorf("ecs: %s: %w", d.op, err)
	}
	d.data, d.json, d.budget = data, true, loadBudget(len(raw))
	img, err := w.decodeFile(d)
	if img != nil && f.Version == saveVersion1 {
		img.eventsSaved = false // w's queues stay as they are
	}
	return img, err
}

// jsonToBinary writes the content of a JSON save in the binary format, with
// each type's current schema, for decodeImage to check and read.
func (w *World) jsonToBinary(f *jsonSave, budget int64) ([]byte, error) {
	switch {
	case f.Format != "tessera":
		return nil, fmt.Errorf("not a Tessera save file (format %q)", f.Format)
	case f.Version != saveVersion1 && f.Version != saveVersion:
		return nil, fmt.Errorf("save format version %d; this Tessera reads versions %d and %d", f.Version, saveVersion1, saveVersion)
	case f.Next < 1 || len(f.Generations) != int(f.Next)-1:
		return nil, fmt.Errorf("%d generations for %d entity indices", len(f.Generations), int64(f.Next)-1)
	}
	e := &encoder{}
	e.buf = append(e.buf, saveMagic...)
	e.uvarint(saveVersion)
	sec := e.beginSection()
	e.uvarint(uint64(f.Next))
	for _, g := range f.Generations {
		e.uvarint(uint64(g))
	}
	e.uvarint(uint64(len(f.Free)))
	for _, i := range f.Free {
		e.uvarint(uint64(i))
	}
	e.endSection(sec)
	sec = e.beginSection()
	byName := map[string]*componentInfo{}
	for _, info := range w.reg.infos {
		byName[info.name] = info
	}
	ref := map[string]int{}
	codecs := make([]*valueCodec, len(f.Types))
	e.uvarint(uint64(len(f.Types)))
	for i, jt := range f.Types {
		info := byName[jt.Name]
		if info == nil {
			return nil, fmt.Errorf("%s", unknownTypeMessage(jt.Name, byName))
		}
		var storage Storage
		switch jt.Storage {
		case "table":
		case "sparse":
			storage = SparseStorage
		default:
			return nil, fmt.Errorf("%s has an unknown storage %q", savedTypeLabel(jt.Name), jt.Storage)
		}
		s, err := schemaOfAt(info.typ, info.valuePath())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", savedTypeLabel(jt.Name), err)
		}
		if _, dup := ref[jt.Name]; dup {
			return nil, fmt.Errorf("%s is listed twice", savedTypeLabel(jt.Name))
		}
		ref[jt.Name], codecs[i] = i, newValueCodec(info.typ, s)
		e.str(jt.Name)
		e.buf = append(e.buf, byte(storage))
		e.schema(s)
	}
	for _, n := range []int{len(f.Tables), len(f.Sparse), len(f.Resources), len(f.Events)} {
		e.uvarint(uint64(n))
	}
	e.endSection(sec)
	column := func(name string, raw json.RawMessage, n int) error {
		k, ok := ref[name]
		if !ok {
			return fmt.Errorf("%s is not in the file's types", savedTypeLabel(name))
		}
		c := codecs[k]
		if cost := int64(n) * int64(c.size); cost > budget {
			return fmt.Errorf("%s: %d values: more memory than a save of this size may need", savedTypeLabel(name), n)
		} else {
			budget -= cost
		}
		v := reflect.New(reflect.SliceOf(c.typ))
		if err := json.Unmarshal(raw, v.Interface()); err != nil {
			return fmt.Errorf("%s: %w", savedTypeLabel(name), err)
		}
		if v.Elem().Len() != n {
			return fmt.Errorf("%s: %d values for %d entities", savedTypeLabel(name), v.Elem().Len(), n)
		}
		c.values(e, v.Elem().UnsafePointer(), n)
		return nil
	}
	for _, t := range f.Tables {
		if len(t.Columns) != len(t.Types) {
			return nil, fmt.Errorf("a table of %d types with %d columns", len(t.Types), len(t.Columns))
		}
		sec := e.beginSection()
		e.uvarint(uint64(len(t.Types)))
		for _, name := range t.Types {
			e.uvarint(uint64(ref[name])) // an unknown name fails in column
		}
		e.uvarint(uint64(len(t.Entities)))
		for _, i := range t.Entities {
			e.uvarint(uint64(i))
		}
		for k, name := range t.Types {
			if err := column(name, t.Columns[k], len(t.Entities)); err != nil {
				return nil, err
			}
		}
		e.endSection(sec)
	}
	for _, s := range f.Sparse {
		sec := e.beginSection()
		e.uvarint(uint64(ref[s.Type]))
		e.uvarint(uint64(len(s.Entities)))
		for _, i := range s.Entities {
			e.uvarint(uint64(i))
		}
		if err := column(s.Type, s.Values, len(s.Entities)); err != nil {
			return nil, err
		}
		e.endSection(sec)
	}
	resources := map[string]reflect.Type{}
	for t := range w.resources {
		resources[typeName(t)] = t
	}
	for _, r := range f.Resources {
		t := resources[r.Name]
		if t == nil {
			return nil, fmt.Errorf("resource %q is not in this world; add it (or make a NewResource handle) before Load", r.Name)
		}
		s, err := schemaOf(t)
		if err != nil {
			return nil, err
		}
		v := reflect.New(t)
		if err := json.Unmarshal(r.Value, v.Interface()); err != nil {
			return nil, fmt.Errorf("resource %q: %w", r.Name, err)
		}
		sec := e.beginSection()
		e.str(r.Name)
		e.schema(s)
		newValueCodec(t, s).value(e, v.UnsafePointer())
		e.endSection(sec)
	}
	queues := w.eventQueuesByName()
	for _, je := range f.Events {
		if len(je.Unread) == 0 {
			je.Unread = json.RawMessage("[]") // no "unread": none
		}
		st := savedEvents{name: je.Type, sent: je.Sent, lags: je.Lags}
		var unread reflect.Value
		if q := queues[je.Type]; q != nil {
			t := q.eventType()
			s, err := schemaOf(t)
			if err != nil {
				return nil, fmt.Errorf("event type %q: %w", je.Type, err)
			}
			unread = reflect.New(reflect.SliceOf(t))
			if err := json.Unmarshal(je.Unread, unread.Interface()); err != nil {
				return nil, fmt.Errorf("event type %q: %w", je.Type, err)
			}
			unread = unread.Elem()
			if cost := int64(unread.Len()) * int64(t.Size()); cost > budget {
				return nil, fmt.Errorf("event type %q: %d events: more memory than a save of this size may need", je.Type, unread.Len())
			} else {
				budget -= cost
			}
			st.codec, st.n = newValueCodec(t, s), unread.Len()
			if st.n > 0 {
				st.unread = unread.UnsafePointer()
			}
		} else {
			var events []json.RawMessage // counted, for the error LoadJSON gives
			if err := json.Unmarshal(je.Unread, &events); err != nil {
				return nil, fmt.Errorf("event type %q: %w", je.Type, err)
			}
			st.n = len(events)
			if st.n > 0 {
				return nil, fmt.Errorf("event type %q: %d events some reader has not read, and this world has no queue of that type; make it (EventsOf, or the systems that send or read the events) before LoadJSON", je.Type, st.n)
			}
		}
		sec := e.beginSection()
		st.write(e)
		e.endSection(sec)
	}
	return e.buf, nil
}

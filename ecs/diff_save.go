package ecs

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// SaveFileError is the error [DiffSaves] returns for a file it cannot
// read: which one, and why.
type SaveFileError struct {
	// File is "A" for the first file, "B" for the second.
	File string
	// Err says what is wrong, and where: the byte and the section, such
	// as "in table 2 of 5".
	Err error
}

// Error returns Err's message, which names the file (A or B).
func (e *SaveFileError) Error() string { return e.Err.Error() }

// Unwrap returns Err, for errors.Is and errors.As.
func (e *SaveFileError) Unwrap() error { return e.Err }

// DiffSaves compares two binary save files ([World.Save], version 1 or 2)
// and reports where they differ as [Diff] does the two worlds they were
// saved from: entities in one file only, components and relation pairs on
// one side, values field by field with both values, resources, the entity
// index and iteration order per type; and, which Diff leaves out, the
// event queues (Part [PartEvents]: the count of events sent, each saved
// reader's events left to read, the unread events field by field). It
// keeps the first limit differences (none when limit <= 0) and counts
// them all.
//
// It needs none of the program's Go types: each value is read by the
// file's schema of its type, and types, resources and event queues are
// matched by the names the files give them (a type's stable name, see
// [Name]). For two worlds saved by one program, DiffSaves reports the
// Differences Diff reports, in the same order, with the same counts,
// values formatted alike (a relation's pairs as Relation[T], T named by its
// package path and name, as the file names the pair type), with these
// exceptions: a whole value (of a component on one side, or of a type
// whose schema changed between the files) is printed by its fields where
// Diff would call a String or Format method of its type or fields; values
// compare field by field, slices' elements included, where Diff compares
// their checksum hashes first, which see a slice's elements only in a
// [Checksummer] type (so a difference Diff misses inside another type's
// slice, DiffSaves reports; and a Checksum method that leaves a field out
// does not hide it here); a type defined from Entity, or an entity in an
// unexported field, prints as an entity; with relations split by target
// (SplitByTarget) a file holds one table per set of component types, so
// the order of entities in a table may be reported otherwise; and values
// differing only in a NaN's bits are equal, as in Diff. A type whose
// schema differs between the files is reported whole, value by value.
// JSON saves are refused: their values have no schema without the types.
//
// It returns a *[SaveFileError] for a file it cannot read: not a save
// file, another version, truncated or corrupt (a section whose CRC-32C
// does not match is named, with its bytes), or inconsistent (an entity in
// two tables, a bool of 2), or whose Read fails (that error wrapped); it
// never panics on bad input.
//
// Complexity: O(the files' sizes + entities × component types per entity),
// the second term counting types of no size, which files hold without a
// byte per entity; memory: the files' bytes, plus O(entity indices +
// values + schema nodes), linear in the files' sizes, and the report.
func DiffSaves(a, b io.Reader, limit int) (DiffReport, error) {
	ia, err := readSaveFile(a, "A")
	if err != nil {
		return DiffReport{}, err
	}
	ib, err := readSaveFile(b, "B")
	if err != nil {
		return DiffReport{}, err
	}
	n := max(ia.next, ib.next)
	s := saveDiffer{differ: differ{limit: limit, counts: map[partKey]int{}, marked: make([]bool, n)}, a: ia, b: ib}
	s.pairTypes()
	s.index()
	s.tables()
	s.sparse()
	s.resources()
	s.events()
	return s.report(), nil
}

// readSaveFile reads all of in, a save file, without its Go types.
func readSaveFile(in io.Reader, file string) (*savedImage, error) {
	op := "DiffSaves: " + file
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, &SaveFileError{file, fmt.Errorf("ecs: %s: %w", op, err)}
	}
	img, err := readSave(&decoder{data: data, op: op, budget: loadBudget(len(data))})
	if err != nil {
		return nil, &SaveFileError{file, err}
	}
	return img, nil
}

// saveDiffer is one DiffSaves call's state.
type saveDiffer struct {
	differ
	a, b *savedImage
	// same says, per type of a's, whether b has a type of the same key
	// with the same schema: values of the two then compare field by field.
	same map[*savedFileType]bool
	// at is scratch per entity index: a value's position plus one in a
	// sparse set of b's (sparseBoth).
	at []int32
}

// keeps reports whether the next difference is kept, so its values and
// path are worth formatting.
func (s *saveDiffer) keeps() bool { return len(s.out) < s.limit }

// pairTypes notes which of a's types b has with the same schema.
func (s *saveDiffer) pairTypes() {
	byKey := make(map[string]*savedFileType, len(s.b.types))
	for i := range s.b.types {
		byKey[s.b.types[i].key] = &s.b.types[i]
	}
	s.same = make(map[*savedFileType]bool, len(s.a.types))
	for i := range s.a.types {
		ta := &s.a.types[i]
		if tb := byKey[ta.key]; tb != nil {
			s.same[ta] = sameSchema(ta.p.s, tb.p.s)
		}
	}
}

// liveInFile reports whether e lives in img (index and generation).
func liveInFile(img *savedImage, e Entity) bool {
	return e.index != 0 && e.index < img.next && img.alive[e.index] && img.gens[e.index] == e.gen&genMask
}

// genAt returns index i's generation in img, and whether it is dead
// there (0 and dead past the index's end, as recordAt has it).
func genAt(img *savedImage, i uint32) (uint32, bool) {
	if i >= img.next {
		return 0, true
	}
	return img.gens[i], !img.alive[i]
}

// index compares the entity indices, as differ.index does.
func (s *saveDiffer) index() {
	a, b := s.a, s.b
	for i := uint32(1); i < max(a.next, b.next); i++ {
		ga, deadA := genAt(a, i)
		gb, deadB := genAt(b, i)
		if !deadA || !deadB || ga == gb {
			continue
		}
		x := Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities"}
		if s.keeps() {
			x.Field = "generation of dead index " + strconv.FormatUint(uint64(i), 10)
			x.A, x.B = strconv.FormatUint(uint64(ga), 10), strconv.FormatUint(uint64(gb), 10)
		}
		s.add(x)
	}
	if a.next != b.next {
		s.add(Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities", Field: "indices handed out",
			A: strconv.FormatUint(uint64(a.next-1), 10), B: strconv.FormatUint(uint64(b.next-1), 10)})
	}
	if !slices.Equal(a.free, b.free) {
		s.add(Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities", Field: "free list",
			A: freeList(a.free), B: freeList(b.free)})
	}
}

// columnNames lists a table's types, as columnNames does a view's.
func (t *savedTable) columnNames() string {
	if t.names == "" {
		var b bytes.Buffer
		b.WriteString("{")
		for i := range t.cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.cols[i].typ.diff)
		}
		b.WriteString("}")
		t.names = b.String()
	}
	return t.names
}

// tables compares the entities that live in tables, in A's iteration
// order, then those that live in B only, then the iteration order, as
// differ.tables does.
func (s *saveDiffer) tables() {
	a, b := s.a, s.b
	inB := make([]rowLoc, max(a.next, b.next))
	for i := range inB {
		inB[i].table = -1
	}
	for ti := range b.tables {
		for row, e := range b.tables[ti].entities {
			inB[e.index] = rowLoc{int32(ti), int32(row)}
		}
	}
	before := s.total
	for ti := range a.tables {
		ta := &a.tables[ti]
		for row, e := range ta.entities {
			lb := inB[e.index]
			if lb.table < 0 || !liveInFile(b, e) {
				x := Difference{Kind: OnlyInA, Part: PartEntities, Type: "entities", Entity: e}
				if s.keeps() {
					x.A = ta.columnNames()
				}
				s.add(x)
				continue
			}
			s.row(e, ta, row, &b.tables[lb.table], int(lb.row))
		}
	}
	for ti := range b.tables {
		tb := &b.tables[ti]
		for _, e := range tb.entities {
			if !liveInFile(a, e) {
				x := Difference{Kind: OnlyInB, Part: PartEntities, Type: "entities", Entity: e}
				if s.keeps() {
					x.B = tb.columnNames()
				}
				s.add(x)
			}
		}
	}
	if s.total == before {
		s.order()
	}
}

// row compares entity e's components: row ra of table ta in A, row rb of
// tb in B, both tables' columns in key order.
func (s *saveDiffer) row(e Entity, ta *savedTable, ra int, tb *savedTable, rb int) {
	if ta.mask == tb.mask { // the same types: no string to compare per column
		for i := range ta.cols {
			s.value(e, &ta.cols[i], ta.cols[i].vals.at(ra), &tb.cols[i], tb.cols[i].vals.at(rb))
		}
		return
	}
	i, j := 0, 0
	for i < len(ta.cols) || j < len(tb.cols) {
		switch {
		case j == len(tb.cols) || i < len(ta.cols) && ta.cols[i].typ.key < tb.cols[j].typ.key:
			s.only(OnlyInA, e, &ta.cols[i], ta.cols[i].vals.at(ra))
			i++
		case i == len(ta.cols) || tb.cols[j].typ.key < ta.cols[i].typ.key:
			s.only(OnlyInB, e, &tb.cols[j], tb.cols[j].vals.at(rb))
			j++
		default:
			s.value(e, &ta.cols[i], ta.cols[i].vals.at(ra), &tb.cols[j], tb.cols[j].vals.at(rb))
			i++
			j++
		}
	}
}

// only reports the value v of column c, on entity e, as in one file only.
func (s *saveDiffer) only(k DiffKind, e Entity, c *savedColumn, v []byte) {
	x := Difference{Kind: k, Part: c.typ.part, Type: c.typ.diff, Entity: e}
	if s.keeps() {
		if k == OnlyInA {
			x.A = formatSaved(c.typ.p, v)
		} else {
			x.B = formatSaved(c.typ.p, v)
		}
	}
	s.add(x)
}

// value compares entity e's value va of column ca in A with its value vb
// of cb in B, and on a difference reports each differing field.
func (s *saveDiffer) value(e Entity, ca *savedColumn, va []byte, cb *savedColumn, vb []byte) {
	pa, pb := ca.typ.p, cb.typ.p
	if pa.fixed == 0 && pb.fixed == 0 || bytes.Equal(va, vb) && s.same[ca.typ] {
		return
	}
	x := Difference{Kind: ValueDiffers, Part: ca.typ.part, Type: ca.typ.diff, Entity: e}
	s.compare(x, s.same[ca.typ], pa, va, pb, vb)
}

// compare reports the differences of value va of plan pa and vb of pb,
// as x's: field by field when same (their schemas are the same), else
// the whole values when their bytes differ.
func (s *saveDiffer) compare(x Difference, same bool, pa *valuePlan, va []byte, pb *valuePlan, vb []byte) {
	if !same {
		if !bytes.Equal(va, vb) {
			if s.keeps() {
				x.A, x.B = formatSaved(pa, va), formatSaved(pb, vb)
			}
			s.add(x)
		}
		return
	}
	w := fieldWalk{s: s, x: x}
	w.walk(pa, va, vb)
}

// order reports, per component type, the first place where A's and B's
// iteration orders part, when both hold the same entities with the same
// components (tables found no difference): then each table of A has a
// table of B of the same types, with the same entities, and a type's
// order is its tables' rows, table after table. Complexity: O(rows +
// tables × their columns).
func (s *saveDiffer) order() {
	a, b := s.a, s.b
	twin := make(map[string]int, len(b.tables))
	for ti := range b.tables {
		twin[b.tables[ti].mask] = ti
	}
	// twinOf holds, per table of A, the table of B of the same types (or
	// -1), and first the first row where their orders differ (or -1).
	twinOf, first := make([]int, len(a.tables)), make([]int, len(a.tables))
	for ti := range a.tables {
		twinOf[ti], first[ti] = -1, -1
		tb, ok := twin[a.tables[ti].mask]
		if !ok {
			continue
		}
		twinOf[ti] = tb
		ea, eb := a.tables[ti].entities, b.tables[tb].entities
		for i := range min(len(ea), len(eb)) {
			if ea[i].index != eb[i].index {
				first[ti] = i
				break
			}
		}
	}
	la, lb := tablesByType(a), tablesByType(b)
	keys := make([]string, 0, len(la))
	for k := range la {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		ta, tb := la[k], lb[k]
		if tb == nil {
			continue
		}
		for j := range min(len(ta.tables), len(tb.tables)) {
			ia, ib, row := ta.tables[j], tb.tables[j], 0
			if twinOf[ia] == ib {
				if row = first[ia]; row < 0 {
					continue
				}
			}
			ea, eb := a.tables[ia].entities, b.tables[ib].entities
			if row >= len(ea) || row >= len(eb) {
				break
			}
			s.add(Difference{Kind: OrderDiffers, Part: ta.typ.part, Type: ta.typ.diff, Entity: ea[row],
				Field: "iteration order", A: ea[row].String(), B: eb[row].String()})
			break
		}
	}
}

// typeTables is a type and the tables that hold it, in iteration order.
type typeTables struct {
	typ    *savedFileType
	tables []int
}

// tablesByType returns, per type key, the tables of img that hold it.
func tablesByType(img *savedImage) map[string]*typeTables {
	m := map[string]*typeTables{}
	for ti := range img.tables {
		for _, c := range img.tables[ti].cols {
			t := m[c.typ.key]
			if t == nil {
				t = &typeTables{typ: c.typ}
				m[c.typ.key] = t
			}
			t.tables = append(t.tables, ti)
		}
	}
	return m
}

package ecs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DiffKind says how two states differ at one place.
type DiffKind uint8

const (
	// OnlyInA: the entity, the entity's component or relation pair, or
	// the resource is in the first state only.
	OnlyInA DiffKind = iota + 1
	// OnlyInB: it is in the second state only.
	OnlyInB
	// ValueDiffers: it is in both, with different values (at Field).
	ValueDiffers
	// OrderDiffers: both hold the same entities with the same values, in
	// a different iteration order (from Entity on), which checksums count
	// and queries see.
	OrderDiffers
)

var diffKindNames = [...]string{OnlyInA: "only in A", OnlyInB: "only in B",
	ValueDiffers: "differs", OrderDiffers: "order differs"}

// String names the kind as reports print it: "only in A", "only in B",
// "differs" or "order differs".
func (k DiffKind) String() string {
	if k >= OnlyInA && k <= OrderDiffers {
		return diffKindNames[k]
	}
	return fmt.Sprintf("DiffKind(%d)", uint8(k))
}

// Difference is one place where two states differ: an entity that lives
// in one only, a component one of them lacks, or one field of a value that
// differs, with both values.
type Difference struct {
	Kind DiffKind
	// Part is what the difference is in: the entity index, a component
	// type, a relation or a resource (the kinds of [PartChecksum]); Type
	// is the part's name, as in PartChecksum.
	Part PartKind
	Type string
	// Entity is the entity (A's handle when both have it), or the zero
	// Entity for a resource.
	Entity Entity
	// Field is the path of the differing field inside the value, such as
	// "Vel.X", "Cells[3]" or "Targets.len"; empty for the whole value.
	Field string
	// A and B are the values at Field in each state, formatted as Go
	// would print them (floats exactly, with strconv's shortest form);
	// empty on the side that lacks it.
	A, B string
}

// String formats d on one line: "entity 7v1 component game.Position
// field X: A 1.5, B 1.25".
func (d Difference) String() string {
	var b strings.Builder
	if d.Entity != (Entity{}) {
		fmt.Fprintf(&b, "entity %v ", d.Entity)
	}
	fmt.Fprintf(&b, "%v %s", d.Part, d.Type)
	if d.Field != "" {
		fmt.Fprintf(&b, " field %s", d.Field)
	}
	fmt.Fprintf(&b, ": %v", d.Kind)
	switch d.Kind {
	case ValueDiffers:
		fmt.Fprintf(&b, ": A %s, B %s", d.A, d.B)
	case OnlyInA:
		if d.A != "" {
			fmt.Fprintf(&b, ": %s", d.A)
		}
	case OnlyInB:
		if d.B != "" {
			fmt.Fprintf(&b, ": %s", d.B)
		}
	}
	return b.String()
}

// PartCount is how many differences a [DiffReport] counted in one part.
type PartCount struct {
	Part PartKind
	Type string
	N    int
}

// DiffReport is what [Diff] found: the first differences, and how many
// there are in all, per part and in entities.
type DiffReport struct {
	// Differences are the first differences found, at most the limit Diff
	// was given: the entity index first, then entities in A's iteration
	// order (each entity's components in name order), then entities only
	// B has, sparse components and relations, then resources.
	Differences []Difference
	// Total counts every difference, also those past the limit.
	Total int
	// Entities counts the entities with at least one difference.
	Entities int
	// Parts counts the differences per part, in the order of part kind and
	// name.
	Parts []PartCount
}

// Equal reports whether the two states had no difference.
func (r *DiffReport) Equal() bool { return r.Total == 0 }

// String formats the report: a summary line, the counts per part and the
// differences it holds, one per line.
func (r *DiffReport) String() string {
	var b strings.Builder
	if r.Total == 0 {
		return "no differences\n"
	}
	fmt.Fprintf(&b, "%d differences on %d entities", r.Total, r.Entities)
	if len(r.Differences) < r.Total {
		fmt.Fprintf(&b, " (the first %d below)", len(r.Differences))
	}
	b.WriteString("\n")
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "  %-9v %s: %d\n", p.Part, p.Type, p.N)
	}
	for _, d := range r.Differences {
		b.WriteString(d.String())
		b.WriteString("\n")
	}
	return b.String()
}

// Diff compares two states, each a *[World] or a *[Snapshot], of one world
// or of two (two runs, two peers, a world and a copy loaded from a save
// file), and reports where they differ: entity by entity (matched by index
// and generation), component by component (matched by stable name),
// field by field, with both values; relation pairs and resources too, and
// the entity index (generations, the free list) and iteration order,
// which the checksum counts. It keeps the first limit differences (none
// when limit <= 0) and counts them all. Two states with equal
// [World.Checksums] have no difference, except in what checksums skip
// (the pointer kinds inside values, which Diff skips too).
//
// Values compare as the checksum hashes them: floats by their bits (-0.0
// and +0.0 differ, every NaN is the same), pointer, map, channel, function
// and interface fields skipped; a [Checksummer] type's values compare by
// their Checksum, and a difference inside one is located by its fields
// where reflection can read them (slices element by element). Event queues
// are not compared: compare their [PartChecksum]s.
//
// Panics on a world inside a parallel section, and on an empty or
// incomplete snapshot. Complexity: O(entities x their components + entity
// indices + resources) in both states; it allocates two words per entity
// index, plus the report. (State diffs are what rollback users ask for once
// a desync is detected; GGRS and GGPO report the frame only.)
func Diff(a, b State, limit int) DiffReport {
	va, vb := a.diffView(), b.diffView()
	d := differ{a: &va, b: &vb, limit: limit, counts: map[partKey]int{},
		marked: make([]bool, max(va.next, vb.next))}
	va.w.beginMethods("Diff") // Checksum methods and formatting run
	defer va.w.endMethods()
	if vb.w != va.w {
		vb.w.beginMethods("Diff")
		defer vb.w.endMethods()
	}
	d.index()
	d.tables()
	d.sparse()
	d.resources()
	return d.report()
}

type partKey struct {
	part PartKind
	name string
}

// differ is one Diff call's state.
type differ struct {
	a, b   *stateView
	limit  int
	out    []Difference
	total  int
	counts map[partKey]int
	// marked says, per entity index, whether an entity with that index
	// differs, so that each counts once.
	marked []bool
}

// keeps reports whether the next difference is kept: past the limit, a
// difference is only counted, and its values need not be formatted.
func (d *differ) keeps() bool { return len(d.out) < d.limit }

func (d *differ) add(x Difference) {
	d.total++
	d.counts[partKey{x.Part, x.Type}]++
	if len(d.out) < d.limit {
		d.out = append(d.out, x)
	}
	if x.Entity != (Entity{}) && int(x.Entity.index) < len(d.marked) {
		d.marked[x.Entity.index] = true
	}
}

func (d *differ) report() DiffReport {
	r := DiffReport{Differences: d.out, Total: d.total}
	for _, m := range d.marked {
		if m {
			r.Entities++
		}
	}
	for k, n := range d.counts {
		r.Parts = append(r.Parts, PartCount{Part: k.part, Type: k.name, N: n})
	}
	slices.SortFunc(r.Parts, func(x, y PartCount) int {
		if x.Part != y.Part {
			return int(x.Part) - int(y.Part)
		}
		return strings.Compare(x.Type, y.Type)
	})
	return r
}

// liveIn reports whether e lives in v (index and generation).
func liveIn(v *stateView, e Entity) bool {
	if e.index == 0 || e.index >= v.next {
		return false
	}
	r := &v.recs[e.index]
	return r.slot != deadSlot && r.gen&genMask == e.gen&genMask
}

// index compares the entity indices: the generations of dead indices
// (which the next spawns take) and the free list; living entities are
// compared by tables.
func (d *differ) index() {
	a, b := d.a, d.b
	n := max(a.next, b.next)
	for i := uint32(1); i < n; i++ {
		ra, rb := recordAt(a, i), recordAt(b, i)
		if ra.slot != deadSlot || rb.slot != deadSlot || ra.gen&genMask == rb.gen&genMask {
			continue
		}
		d.add(Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities",
			Field: "generation of dead index " + strconv.FormatUint(uint64(i), 10),
			A:     strconv.FormatUint(uint64(ra.gen&genMask), 10), B: strconv.FormatUint(uint64(rb.gen&genMask), 10)})
	}
	if a.next != b.next {
		d.add(Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities", Field: "indices handed out",
			A: strconv.FormatUint(uint64(a.next-1), 10), B: strconv.FormatUint(uint64(b.next-1), 10)})
	}
	if !slices.Equal(a.free, b.free) {
		d.add(Difference{Kind: ValueDiffers, Part: PartEntities, Type: "entities", Field: "free list",
			A: freeList(a.free), B: freeList(b.free)})
	}
}

// recordAt returns index i's record in v, a dead one past its end.
func recordAt(v *stateView, i uint32) record {
	if i < v.next {
		return v.recs[i]
	}
	return record{slot: deadSlot}
}

// freeList formats a free list, its first eight indices in reuse order.
func freeList(f []uint32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d indices [", len(f))
	for i, x := range f[:min(len(f), 8)] {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.FormatUint(uint64(x), 10))
	}
	if len(f) > 8 {
		b.WriteString(" ...")
	}
	b.WriteString("]")
	return b.String()
}

package ecs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// sparse compares the sparse sets, component types' and relations', set
// by set in key order, as differ.sparse does.
func (s *saveDiffer) sparse() {
	a, b := s.a.sparse, s.b.sparse
	s.at = make([]int32, len(s.marked))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].typ.key < b[j].typ.key:
			s.sparseOnly(&a[i], OnlyInA)
			i++
		case i == len(a) || b[j].typ.key < a[i].typ.key:
			s.sparseOnly(&b[j], OnlyInB)
			j++
		default:
			s.sparseBoth(&a[i], &b[j])
			i++
			j++
		}
	}
}

// sparseOnly reports every value of a set that one file has only, on
// entities that both files have.
func (s *saveDiffer) sparseOnly(set *savedSparse, k DiffKind) {
	other := s.b
	if k == OnlyInB {
		other = s.a
	}
	for i, e := range set.entities {
		if liveInFile(other, e) {
			s.only(k, e, &set.savedColumn, set.vals.at(i))
		}
	}
}

// sparseBoth compares one set's values in A and B, entity by entity, and
// then their order, as differ.sparseBoth does.
func (s *saveDiffer) sparseBoth(sa, sb *savedSparse) {
	at := s.at // position in sb plus one, per entity index; 0 for none
	for i, e := range sb.entities {
		at[e.index] = int32(i) + 1
	}
	defer func() {
		for _, e := range sb.entities {
			at[e.index] = 0
		}
	}()
	sameSet := len(sa.entities) == len(sb.entities)
	for i, e := range sa.entities {
		k := at[e.index] - 1
		if k < 0 || sb.entities[k].gen&genMask != e.gen&genMask {
			sameSet = false
			if liveInFile(s.b, e) {
				s.only(OnlyInA, e, &sa.savedColumn, sa.vals.at(i))
			}
			continue
		}
		at[e.index] = 0 // matched
		s.value(e, &sa.savedColumn, sa.vals.at(i), &sb.savedColumn, sb.vals.at(int(k)))
	}
	for i, e := range sb.entities {
		if at[e.index] == int32(i)+1 {
			sameSet = false
			if liveInFile(s.a, e) {
				s.only(OnlyInB, e, &sb.savedColumn, sb.vals.at(i))
			}
		}
	}
	if !sameSet {
		return
	}
	for i, e := range sa.entities {
		if f := sb.entities[i]; f.index != e.index {
			s.add(Difference{Kind: OrderDiffers, Part: sa.typ.part, Type: sa.typ.diff, Entity: e,
				Field: "iteration order", A: e.String(), B: f.String()})
			return
		}
	}
}

// resources compares the resources of either file, by name, as
// differ.resources does.
func (s *saveDiffer) resources() {
	a, b := s.a.resources, s.b.resources
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].name < b[j].name:
			x := Difference{Kind: OnlyInA, Part: PartResource, Type: a[i].name}
			if s.keeps() {
				x.A = formatSaved(a[i].p, a[i].val)
			}
			s.add(x)
			i++
		case i == len(a) || b[j].name < a[i].name:
			x := Difference{Kind: OnlyInB, Part: PartResource, Type: b[j].name}
			if s.keeps() {
				x.B = formatSaved(b[j].p, b[j].val)
			}
			s.add(x)
			j++
		default:
			ra, rb := &a[i], &b[j]
			x := Difference{Kind: ValueDiffers, Part: PartResource, Type: ra.name}
			s.compare(x, sameSchema(ra.p.s, rb.p.s), ra.p, ra.val, rb.p, rb.val)
			i++
			j++
		}
	}
}

// events compares the event queues of either file, by name: the events
// sent, each saved reader's events left to read, and the unread events,
// field by field (paths such as "unread[2].Amount" and "unread.len").
func (s *saveDiffer) events() {
	a, b := s.a.events, s.b.events
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].name < b[j].name:
			s.add(Difference{Kind: OnlyInA, Part: PartEvents, Type: a[i].name, A: a[i].summary()})
			i++
		case i == len(a) || b[j].name < a[i].name:
			s.add(Difference{Kind: OnlyInB, Part: PartEvents, Type: b[j].name, B: b[j].summary()})
			j++
		default:
			s.queue(&a[i], &b[j])
			i++
			j++
		}
	}
}

// summary describes a queue that one file has only.
func (q *savedQueue) summary() string {
	return fmt.Sprintf("%d sent, %d unread", q.sent, q.n)
}

// queue compares one event queue in A and B.
func (s *saveDiffer) queue(qa, qb *savedQueue) {
	x := Difference{Kind: ValueDiffers, Part: PartEvents, Type: qa.name}
	if qa.sent != qb.sent {
		y := x
		y.Field, y.A, y.B = "sent", strconv.FormatUint(qa.sent, 10), strconv.FormatUint(qb.sent, 10)
		s.add(y)
	}
	if !slices.Equal(qa.lags, qb.lags) {
		y := x
		y.Field, y.A, y.B = "readers' events left", lagList(qa.lags), lagList(qb.lags)
		s.add(y)
	}
	if qa.n != qb.n {
		y := x
		y.Field, y.A, y.B = "unread.len", strconv.Itoa(qa.n), strconv.Itoa(qb.n)
		s.add(y)
	}
	n := min(qa.n, qb.n)
	if n == 0 {
		return
	}
	pa, pb := qa.unread.p, qb.unread.p
	same := sameSchema(pa.s, pb.s)
	if pa.fixed == 0 && pb.fixed == 0 {
		return
	}
	w := fieldWalk{s: s, x: x, path: []pathStep{{name: "unread"}}}
	for i := range n {
		va, vb := qa.unread.at(i), qb.unread.at(i)
		w.path = append(w.path[:1], pathStep{index: i})
		if same {
			w.walk(pa, va, vb)
		} else if y := x; string(va) != string(vb) {
			if s.keeps() {
				y.Field, y.A, y.B = w.pathString(""), formatSaved(pa, va), formatSaved(pb, vb)
			}
			s.add(y)
		}
	}
}

// lagList formats the readers' events left, the first eight.
func lagList(lags []uint64) string {
	var b strings.Builder
	b.WriteString("[")
	for i, x := range lags[:min(len(lags), 8)] {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.FormatUint(x, 10))
	}
	if len(lags) > 8 {
		b.WriteString(" ...")
	}
	b.WriteString("]")
	return b.String()
}

package netcode

import (
	"fmt"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// relPair is one pair of a relation as it travels: the target and the
// pair's value.
type relPair[T any] struct {
	Target ecs.Entity
	Value  T
}

// ReplicateRelation adds relation T (ecs.Relation[T]) to what replicates:
// each replicated source entity's pairs travel as one value, the list of
// its targets and pair values, in the relation's order. A client declares
// the relation with the server's options (Multi, Acyclic, cleanup) before
// it dials, or gets NewRelation's defaults. Pairs whose target the client
// does not see are left out on the client, and made when the target
// enters its view. Errors: as Replicate.
func ReplicateRelation[T any](r *Rules, opts ...RuleOption) error {
	var o ruleOptions
	for _, opt := range opts {
		opt(&o)
	}
	t := reflect.TypeFor[T]()
	if o.name == "" {
		o.name = "relation:" + typeName(t)
	}
	if r.names[o.name] {
		return fmt.Errorf("netcode: ReplicateRelation[%s]: a rule named %q exists", t, o.name)
	}
	if len(r.rules) == maxRules {
		return fmt.Errorf("netcode: ReplicateRelation[%s]: at most %d types replicate", t, maxRules)
	}
	c, err := ecs.NewSaveCodec[relPair[T]]()
	if err != nil {
		return fmt.Errorf("netcode: ReplicateRelation[%s]: %w", t, err)
	}
	r.names[o.name] = true
	r.rules = append(r.rules, &relationRule[T]{name: o.name, codec: c})
	return nil
}

type relationRule[T any] struct {
	name  string
	codec *ecs.SaveCodec[relPair[T]]
}

func (r *relationRule[T]) ruleName() string      { return r.name }
func (r *relationRule[T]) schema() uint64        { return r.codec.Schema() ^ 0x72656c6174696f6e } // "relation"
func (r *relationRule[T]) fixedSize() int        { return -1 }
func (r *relationRule[T]) numberWidths() []uint8 { return nil }
func (r *relationRule[T]) holdsRefs() bool       { return true }
func (r *relationRule[T]) bind(w *ecs.World) boundRule {
	rel := ecs.NewRelation[T](w)
	b := &boundRelation[T]{r: r, rel: rel, w: w,
		q: ecs.NewQuery1[Replicated](w, ecs.With(rel.AsSource()))}
	for _, info := range w.Reflect().Relations() {
		if info.GoType == reflect.TypeFor[T]() {
			b.acyclic = info.Acyclic
		}
	}
	return b
}

type boundRelation[T any] struct {
	r       *relationRule[T]
	rel     *ecs.Relation[T]
	w       *ecs.World
	q       *ecs.Query1[Replicated]
	targets []ecs.Entity
	want    []relPair[T]
	// later are the pairs a set could not make without closing a cycle
	// of an acyclic relation: another source's pairs, later in the same
	// State, may undo it (see finish).
	later   []laterPair[T]
	acyclic bool
}

type laterPair[T any] struct {
	source ecs.Entity
	pair   relPair[T]
}

// appendPairs appends e's pairs as they travel.
func (b *boundRelation[T]) appendPairs(dst []byte, e ecs.Entity) []byte {
	b.targets = b.rel.AppendTargets(b.targets[:0], e)
	dst = appendUvarint(dst, uint64(len(b.targets)))
	for _, t := range b.targets {
		p := relPair[T]{Target: t}
		if v, ok := b.rel.TryValue(e, t); ok {
			p.Value = *v
		}
		dst = b.r.codec.Append(dst, &p)
	}
	return dst
}

func (b *boundRelation[T]) capture(img *ruleImage) {
	for ch := range b.q.Chunks() {
		for _, e := range ch.Entities {
			idx := int(e.Index())
			img.grow(idx)
			img.has[idx>>6] |= 1 << (idx & 63)
			img.vals[idx] = b.appendPairs(img.vals[idx][:0], e)
		}
	}
}

// set makes e's pairs those of data: pairs not listed are removed first,
// then the listed ones whose target the client holds are set.
func (b *boundRelation[T]) set(e ecs.Entity, data []byte, mapEntity func(ecs.Entity) ecs.Entity) (int, error) {
	r := reader{b: data}
	n := r.count(8)
	if r.err != nil {
		return 0, r.err
	}
	b.want = b.want[:0]
	for range n {
		var p relPair[T]
		used, err := b.r.codec.Decode(r.b, &p, mapEntity)
		if err != nil {
			return 0, err
		}
		r.bytes(used)
		if !p.Target.IsZero() {
			b.want = append(b.want, p)
		}
	}
	b.targets = b.rel.AppendTargets(b.targets[:0], e)
	for _, t := range b.targets {
		if !wanted(b.want, t) {
			b.rel.Remove(e, t)
		}
	}
	for _, p := range b.want {
		b.setPair(e, p)
	}
	return len(data) - len(r.b), nil
}

func wanted[T any](want []relPair[T], t ecs.Entity) bool {
	for _, p := range want {
		if p.Target == t {
			return true
		}
	}
	return false
}

// setPair sets one pair, or keeps it for finish when it would close a
// cycle now.
func (b *boundRelation[T]) setPair(e ecs.Entity, p relPair[T]) {
	if !b.w.Alive(p.Target) || p.Target == e {
		return
	}
	if b.closesCycle(e, p.Target) {
		b.later = append(b.later, laterPair[T]{e, p})
		return
	}
	if v, ok := b.rel.TryValue(e, p.Target); ok {
		*v = p.Value
		return
	}
	b.rel.Set(e, p.Target, p.Value)
}

// closesCycle reports whether making t the target of e would make e its
// own ancestor in an acyclic relation (where the pair would panic).
// O(depth of t).
func (b *boundRelation[T]) closesCycle(e, t ecs.Entity) bool {
	if !b.acyclic {
		return false
	}
	seen := 0
	for x := t; ; {
		if x == e {
			return true
		}
		next, ok := b.rel.Target(x)
		if !ok || seen > b.w.Len() {
			return false
		}
		x = next
		seen++
	}
}

// finish retries the pairs set put off; those that still close a cycle
// are dropped (the server never sends such a state; a view checksum
// mismatch then asks for a reset).
func (b *boundRelation[T]) finish() {
	later := b.later
	b.later = nil
	for _, lp := range later {
		if b.w.Alive(lp.source) && !b.closesCycle(lp.source, lp.pair.Target) {
			b.setPair(lp.source, lp.pair)
		}
	}
	b.later = later[:0]
}

func (b *boundRelation[T]) remove(e ecs.Entity) {
	if b.w.Alive(e) {
		b.rel.RemoveTargets(e)
	}
}

func (b *boundRelation[T]) appendValue(dst []byte, e ecs.Entity) ([]byte, bool) {
	if !b.rel.HasTargets(e) {
		return dst, false
	}
	return b.appendPairs(dst, e), true
}

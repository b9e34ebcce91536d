package netcode

import (
	"errors"

	"github.com/tessera-ecs/tessera/ecs"
)

// mirror is a client's replica of its view: the client entity made for
// each server index, and baselines equal to the server's copy.
type mirror struct {
	w       *ecs.World
	bound   []boundRule
	rules   []baselines
	gens    []uint32     // generation + 1 of the server entity at each index; 0: none
	ents    []ecs.Entity // the client's entity for it
	marks   *ecs.Map[Replicated]
	limit   int // the largest index accepted, plus one
	tick    uint64
	idxs    []uint32
	entered []uint32
	refs    []bool                      // the rule's values may hold entities
	mapFn   func(ecs.Entity) ecs.Entity // mapEntity, made once: a method value allocates
	// reconcile's scratch: the entities held, their indices, the others
	replicated *ecs.Query1[Replicated]
	held       []ecs.Entity
	keep       indexSet
	stale      []ecs.Entity
	modes      []byte
	scratch    []byte
	// sum is the view checksum of the values applied, kept as they are.
	sum uint64
}

func newMirror(w *ecs.World, rules []rule, limit int) *mirror {
	m := &mirror{w: w, limit: limit, marks: ecs.NewMap[Replicated](w), replicated: ecs.NewQuery1[Replicated](w)}
	m.mapFn = m.mapEntity
	for _, r := range rules {
		m.bound = append(m.bound, r.bind(w))
		m.rules = append(m.rules, newBaselines(r))
		m.refs = append(m.refs, r.holdsRefs())
	}
	return m
}

func (m *mirror) grow(n int) {
	if n > len(m.gens) {
		k := n - len(m.gens)
		m.gens = append(m.gens, make([]uint32, k)...)
		m.ents = append(m.ents, make([]ecs.Entity, k)...)
	}
	for i := range m.rules {
		m.rules[i].grow(len(m.gens))
	}
}

// mapEntity maps a server entity inside a value to the client's, or to
// the zero Entity when the client does not hold it.
func (m *mirror) mapEntity(e ecs.Entity) ecs.Entity {
	idx := int(e.Index())
	if idx < len(m.gens) && m.gens[idx] == e.Generation()+1 {
		return m.ents[idx]
	}
	return ecs.Entity{}
}

// errOutOfOrder is returned for a State that does not follow the last one
// applied: the client asks for a reset.
var errOutOfOrder = errors.New("netcode: a State out of order")

// applyState applies one State message to the world. It returns whether
// the State carried a view checksum and whether it matched. An error
// means the message was malformed; the world may hold part of it, and the
// client then asks for a reset.
func (m *mirror) applyState(msg []byte) (checked, ok bool, err error) {
	r := reader{b: msg}
	if r.byte() != kindState {
		return false, false, errMessage
	}
	tick, prev := r.uvarint(), r.uvarint()
	flags := r.byte()
	if r.err != nil {
		return false, false, r.err
	}
	if flags&flagReset != 0 {
		m.dropAll()
	} else if prev != m.tick {
		return false, false, errOutOfOrder
	}
	if tick <= m.tick && flags&flagReset == 0 {
		return false, false, errOutOfOrder
	}

	m.idxs = readIndexGaps(&r, m.idxs[:0], m.limit)
	for _, idx := range m.idxs {
		if int(idx) < len(m.gens) {
			m.leave(int(idx))
		}
	}
	if len(m.idxs) > 0 {
		// A despawn on the client may have taken entities the view still
		// holds with it (a relation's cleanup policy, for an entity that
		// only left this client's view): make them again.
		for idx, g := range m.gens {
			if g != 0 {
				m.entity(idx)
			}
		}
	}
	m.entered = m.entered[:0]
	if err := m.applyEnters(&r, tick); err != nil {
		return false, false, err
	}
	for k := range m.rules {
		if err := m.applyUpdates(&r, tick, k); err != nil {
			return false, false, err
		}
	}
	if err := m.remap(); err != nil {
		return false, false, err
	}
	m.finish()
	var want uint64
	if flags&flagChecksum != 0 {
		want = r.uint64()
	}
	if err := r.done(); err != nil {
		return false, false, err
	}
	m.tick = tick
	if flags&flagChecksum == 0 {
		return false, false, nil
	}
	return true, m.sum == want, nil
}

// leave despawns the client entity at idx, if any.
func (m *mirror) leave(idx int) {
	if m.gens[idx] == 0 {
		return
	}
	for k := range m.rules {
		if b, ok := m.rules[k].last(idx); ok {
			m.sum -= viewSum(uint32(idx), m.gens[idx]-1, k, b)
		}
		m.rules[k].drop(idx)
	}
	if m.w.Alive(m.ents[idx]) {
		m.w.Despawn(m.ents[idx])
	}
	m.gens[idx], m.ents[idx] = 0, ecs.Entity{}
}

// dropAll despawns every entity of the view.
func (m *mirror) dropAll() {
	for idx := range m.gens {
		m.leave(idx)
	}
	m.sum = 0
}

func (m *mirror) applyEnters(r *reader, tick uint64) error {
	n := r.count(3)
	last := int64(-1)
	for range n {
		idx := last + 1 + int64(r.uvarint())
		gen := r.uvarint()
		mask := r.uvarint()
		if r.err != nil || idx >= int64(m.limit) || gen >= 1<<31 || mask>>len(m.rules) != 0 {
			return errMessage
		}
		last = idx
		m.grow(int(idx) + 1)
		if m.gens[idx] != 0 {
			m.leave(int(idx))
		}
		e := m.w.Spawn()
		m.marks.Add(e, Replicated{})
		m.gens[idx], m.ents[idx] = uint32(gen)+1, e
		m.entered = append(m.entered, uint32(idx))
		for k := range m.rules {
			if mask&(1<<k) == 0 {
				continue
			}
			used, err := m.bound[k].set(e, r.b, m.mapFn)
			if err != nil {
				return errMessage
			}
			v := r.bytes(used)
			m.rules[k].push(int(idx), v, tick)
			m.sum += viewSum(uint32(idx), uint32(gen), k, v)
		}
	}
	return r.err
}

// remap reads again the values that hold entities, of every entity held,
// when entities entered: a value may refer to one that entered after it
// (in this State or a later one), and was read with the zero Entity for
// it. O(view) for the rules whose values hold entities, and only in
// States with enters.
func (m *mirror) remap() error {
	if len(m.entered) == 0 {
		return nil
	}
	for k, b := range m.rules {
		if !m.refs[k] {
			continue
		}
		for idx, g := range m.gens {
			if g == 0 {
				continue
			}
			if v, ok := b.last(idx); ok {
				if _, err := m.bound[k].set(m.entity(idx), v, m.mapFn); err != nil {
					return errMessage
				}
			}
		}
	}
	return nil
}

func (m *mirror) applyUpdates(r *reader, tick uint64, k int) error {
	m.idxs = readIndexSet(r, m.idxs[:0], min(m.limit, len(m.gens)))
	if r.err != nil {
		return r.err
	}
	if len(m.idxs) == 0 {
		return nil
	}
	m.modes = readModes(r, m.modes[:0], len(m.idxs))
	width := uint(r.byte())
	if width != 2 && width != 4 {
		return errMessage
	}
	mask := r.uvarint()
	nib := nibbleReader{width: width, nib: r.bytes(r.count(1))}
	nib.esc.b = r.bytes(r.count(1))
	whole := reader{b: r.bytes(r.count(1))}
	if r.err != nil {
		return r.err
	}
	b, br := &m.rules[k], m.bound[k]
	for i, idx32 := range m.idxs {
		idx := int(idx32)
		g := m.gens[idx]
		if g == 0 {
			return errMessage
		}
		old, had := b.last(idx)
		if had {
			m.sum -= viewSum(idx32, g-1, k, old)
		}
		var v []byte
		switch mode := m.modes[i]; mode {
		case modeRemoved:
			b.drop(idx)
			br.remove(m.entity(idx))
			continue
		case modeWhole:
			used, err := br.set(m.entity(idx), whole.b, m.mapFn)
			if err != nil {
				return errMessage
			}
			v = whole.bytes(used)
		default:
			if b.size < 0 || !had || mode == modePredicted && b.t2[idx] == 0 {
				return errMessage
			}
			m.scratch = append(m.scratch[:0], make([]byte, b.size)...)
			if !b.rebuild(idx, mode, mask, &nib, m.scratch) {
				return errMessage
			}
			if _, err := br.set(m.entity(idx), m.scratch, m.mapFn); err != nil {
				return errMessage
			}
			v = m.scratch
		}
		b.push(idx, v, tick)
		m.sum += viewSum(idx32, g-1, k, v)
	}
	if whole.left() != 0 || !nib.exhausted() {
		return errMessage
	}
	return nil
}

// worldSum is the view checksum of the values the world holds for the
// view's entities: what the client shows, not what it received. Values of
// types that hold entities count by their received bytes, since their
// entities are the client's own in the world.
func (m *mirror) worldSum(rules []rule) uint64 {
	var sum uint64
	for idx, g := range m.gens {
		if g == 0 {
			continue
		}
		for k, r := range rules {
			var v []byte
			var ok bool
			if r.holdsRefs() {
				v, ok = m.rules[k].last(idx)
			} else {
				m.scratch, ok = m.bound[k].appendValue(m.scratch[:0], m.ents[idx])
				v = m.scratch
			}
			if ok {
				sum += viewSum(uint32(idx), g-1, k, v)
			}
		}
	}
	return sum
}

// reconcile makes the world hold the view again after a rollback put it
// back to an earlier state: entities the view has that the world lost are
// made again, entities the world got back that the view no longer has are
// despawned, and every replicated value is set from the last bytes
// received (their entities mapped anew). O(view).
func (m *mirror) reconcile() {
	// Entities: the view's must be alive, and only they may carry
	// Replicated.
	m.held = m.held[:0]
	for idx, g := range m.gens {
		if g == 0 {
			continue
		}
		if !m.w.Alive(m.ents[idx]) {
			e := m.w.Spawn()
			m.marks.Add(e, Replicated{})
			m.ents[idx] = e
		}
		m.held = append(m.held, m.ents[idx])
	}
	m.keep.reset()
	for _, e := range m.held {
		m.keep.add(e.Index())
	}
	m.stale = m.stale[:0]
	for ch := range m.replicated.Chunks() {
		for _, e := range ch.Entities {
			if !m.keep.has(e.Index()) {
				m.stale = append(m.stale, e)
			}
		}
	}
	for _, e := range m.stale {
		m.w.Despawn(e)
	}
	// Values, once every entity is mapped.
	defer m.finish()
	for idx, g := range m.gens {
		if g == 0 {
			continue
		}
		e := m.ents[idx]
		for k := range m.rules {
			if v, ok := m.rules[k].last(idx); ok {
				m.bound[k].set(e, v, m.mapFn)
			} else {
				m.bound[k].remove(e)
			}
		}
	}
}

// indexSet is a bitset of entity indices.
type indexSet struct{ words []uint64 }

func (s *indexSet) reset() { clear(s.words) }

func (s *indexSet) add(i uint32) {
	if w := int(i>>6) + 1; w > len(s.words) {
		s.words = append(s.words, make([]uint64, w-len(s.words))...)
	}
	s.words[i>>6] |= 1 << (i & 63)
}

func (s *indexSet) has(i uint32) bool {
	return int(i>>6) < len(s.words) && s.words[i>>6]&(1<<(i&63)) != 0
}

// finisher is a bound rule that completes what its sets put off, once a
// State is applied (relations: pairs that would close a cycle until
// another source's pairs change).
type finisher interface{ finish() }

func (m *mirror) finish() {
	for _, b := range m.bound {
		if f, ok := b.(finisher); ok {
			f.finish()
		}
	}
}

// entity returns the client entity held at idx, making it again if the
// client's world despawned it on its own (a relation's cleanup policy
// that differs from the server's): the view decides what the client
// holds.
func (m *mirror) entity(idx int) ecs.Entity {
	if e := m.ents[idx]; m.w.Alive(e) {
		return e
	}
	e := m.w.Spawn()
	m.marks.Add(e, Replicated{})
	m.ents[idx] = e
	for k := range m.rules {
		if v, ok := m.rules[k].last(idx); ok {
			m.bound[k].set(e, v, m.mapFn)
		}
	}
	return e
}

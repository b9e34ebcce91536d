package seeds

// naiveWorld is the ECS of the "super simple ECS" blog post, the naive
// baseline: one Go map per
// component type, keyed by entity, and systems that walk the smallest map
// and look the entity up in the others (key intersection).
type naiveWorld struct {
	next uint32
	pos  map[uint32]Position
	vel  map[uint32]Velocity
	tags [8]map[uint32]struct{} // C1..C8 of the iteration and add/remove workloads
}

func newNaiveWorld() *naiveWorld {
	w := &naiveWorld{pos: map[uint32]Position{}, vel: map[uint32]Velocity{}}
	for i := range w.tags {
		w.tags[i] = map[uint32]struct{}{}
	}
	return w
}

func (w *naiveWorld) spawn() uint32 {
	w.next++
	return w.next
}

//go:noinline
func naiveMove(w *naiveWorld) {
	if len(w.vel) < len(w.pos) {
		for e, v := range w.vel { //tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
			if p, ok := w.pos[e]; ok {
				p.X += v.X
				p.Y += v.Y
				w.pos[e] = p
			}
		}
		return
	}
	for e, p := range w.pos { //tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
		if v, ok := w.vel[e]; ok {
			p.X += v.X
			p.Y += v.Y
			w.pos[e] = p
		}
	}
}

//go:noinline
func naiveSumTagged(w *naiveWorld) float32 {
	s := float32(0)
	for e := range w.tags[0] { //tessera:nondeterministic-ok the naive baseline's Go-map store is what it measures
		if p, ok := w.pos[e]; ok {
			s += p.X
		}
	}
	return s
}

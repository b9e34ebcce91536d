package netcode

import (
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// recordedStates returns real State messages of a random world, for fuzz
// seeds.
func recordedStates(t testing.TB) [][]byte {
	rules := testRules(t)
	s := newServerSide(rules)
	v := newView(rules.rules)
	var out [][]byte
	var prev uint64
	for seed := range 6 {
		churn(s.w, newRand(uint64(seed)), 30)
		s.capture()
		v.grow(len(s.img.gens))
		copy(v.want, s.img.gens)
		out = append(out, v.encodeState(nil, &s.img, prev, 0, false, seed%2 == 0))
		prev = s.tick
	}
	return out
}

// FuzzClientAppliesAnyState feeds a client's mirror any bytes after real
// States: it returns an error or applies them, never panics, and keeps
// its world and its entity map in step.
func FuzzClientAppliesAnyState(f *testing.F) {
	for _, m := range recordedStates(f) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rules := testRules(t)
		w := ecs.NewWorld()
		m := newMirror(w, rules.rules, 1<<16)
		for _, msg := range recordedStates(t)[:2] {
			if _, _, err := m.applyState(msg); err != nil {
				t.Fatalf("a recorded State failed: %v", err)
			}
		}
		m.applyState(data)
		held := 0
		for idx, g := range m.gens {
			if g != 0 {
				held++
				if !w.Alive(m.ents[idx]) {
					t.Fatalf("index %d maps to a dead entity", idx)
				}
			}
		}
		if held != w.Len() {
			t.Fatalf("the world has %d entities, the map %d", w.Len(), held)
		}
	})
}

// FuzzServerReadsAnyClientMessage feeds the server's decoders any bytes.
func FuzzServerReadsAnyClientMessage(f *testing.F) {
	rules := testRules(f)
	if err := UseInput[tHealth](rules); err != nil {
		f.Fatal(err)
	}
	f.Add((&hello{version: 1, fingerprint: 7, token: "t"}).append(nil))
	f.Add((&ack{tick: 9, mismatch: true}).append(nil))
	f.Add([]byte{kindInput, 3, 1, 1, 0, 0, 0, 2, 0, 0, 0, 1})
	f.Add([]byte{kindResync})
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeHello(data)
		if len(data) == 0 || !validClientMessage(data) {
			return
		}
		w := ecs.NewWorld()
		in := rules.input.bindServer(w)
		r := newInputRing()
		if data[0] == kindInput {
			r.store(data, 1, in)
			for tick := range uint64(40) {
				if v, rep, ok := r.take(tick); ok {
					in.deliver(1, tick, v, rep)
				}
			}
		}
	})
}

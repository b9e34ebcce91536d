package ecs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
)

// cpShip is the template of the prefab tests: a hull with a radar and two
// turrets, each turret aiming at the radar, and the hull holding its crew
// (the turrets) in a slice and its two turrets in an array.
type cpShip struct {
	w                       *ecs.World
	h                       *ecs.Hierarchy
	likes                   *ecs.Relation[cpLikes]
	pos                     *ecs.Map[cpPos]
	aim                     *ecs.Map[cpAim]
	crew                    *ecs.Map[cpCrew]
	slots                   *ecs.Map[cpSlots]
	rare                    *ecs.Map[cpRare]
	hull, radar, t1, t2     ecs.Entity
	outside, folder, doomed ecs.Entity
}

func newShip(t *testing.T) *cpShip {
	t.Helper()
	w := ecs.NewWorld()
	ecs.Register[cpRare](w, ecs.Sparse())
	s := &cpShip{w: w, h: ecs.NewHierarchy(w), likes: ecs.NewRelation[cpLikes](w, ecs.Multi()),
		pos: ecs.NewMap[cpPos](w), aim: ecs.NewMap[cpAim](w), crew: ecs.NewMap[cpCrew](w),
		slots: ecs.NewMap[cpSlots](w), rare: ecs.NewMap[cpRare](w)}
	s.outside, s.folder, s.doomed = w.Spawn(), w.Spawn(), w.Spawn()
	s.hull = s.pos.Spawn(cpPos{0, 0})
	s.radar = s.pos.Spawn(cpPos{0, 1})
	s.t1 = s.pos.Spawn(cpPos{-1, 0})
	s.t2 = s.pos.Spawn(cpPos{1, 0})
	s.h.SetParent(s.hull, s.folder) // the template's own parent: not copied
	s.h.SetParent(s.radar, s.hull)
	s.h.SetParent(s.t1, s.hull)
	s.h.SetParent(s.t2, s.hull)
	s.aim.Add(s.t1, cpAim{s.radar})
	s.aim.Add(s.t2, cpAim{s.outside}) // outside the tree: kept
	s.crew.Add(s.hull, cpCrew{Members: []ecs.Entity{s.t1, s.t2, s.outside}})
	s.slots.Add(s.hull, cpSlots{Pair: [2]ecs.Entity{s.t2, s.t1}, Other: 9})
	s.rare.Add(s.radar, cpRare{5})
	s.likes.Set(s.t1, s.t2, cpLikes{1})      // inside the tree
	s.likes.Set(s.t1, s.outside, cpLikes{2}) // outside, alive
	s.likes.Set(s.t2, s.doomed, cpLikes{3})  // outside, dies before spawning
	return s
}

// checkInstance checks the instance rooted at root against the template.
func (s *cpShip) checkInstance(t *testing.T, root ecs.Entity, wantHullX float64) {
	t.Helper()
	if _, ok := s.h.Parent(root); ok {
		t.Fatalf("instance root %v has a parent", root)
	}
	kids := s.h.Children(root)
	if len(kids) != 3 {
		t.Fatalf("instance root %v has children %v", root, kids)
	}
	radar, t1, t2 := kids[0], kids[1], kids[2]
	for _, e := range []ecs.Entity{root, radar, t1, t2} {
		if e == s.hull || e == s.radar || e == s.t1 || e == s.t2 {
			t.Fatalf("instance entity %v is a template entity", e)
		}
	}
	if got := s.pos.Get(root).X; got != wantHullX {
		t.Errorf("hull x %v, want %v", got, wantHullX)
	}
	if *s.pos.Get(t1) != (cpPos{-1, 0}) || *s.pos.Get(t2) != (cpPos{1, 0}) || s.rare.Get(radar).N != 5 {
		t.Errorf("values %v %v %v", *s.pos.Get(t1), *s.pos.Get(t2), *s.rare.Get(radar))
	}
	if got := s.aim.Get(t1).At; got != radar {
		t.Errorf("turret 1 aims at %v, want its own radar %v", got, radar)
	}
	if got := s.aim.Get(t2).At; got != s.outside {
		t.Errorf("turret 2 aims at %v, want the outside entity %v", got, s.outside)
	}
	if got := s.crew.Get(root).Members; !slices.Equal(got, []ecs.Entity{t1, t2, s.outside}) {
		t.Errorf("crew %v", got)
	}
	if got := s.slots.Get(root); got.Pair != [2]ecs.Entity{t2, t1} || got.Other != 9 {
		t.Errorf("slots %v", *got)
	}
	if got := s.likes.Targets(t1); !slices.Equal(got, []ecs.Entity{t2, s.outside}) || s.likes.Value(t1, t2).W != 1 {
		t.Errorf("turret 1 likes %v", got)
	}
	if s.likes.HasTargets(t2) {
		t.Errorf("turret 2 kept a pair to a dead entity: %v", s.likes.Targets(t2))
	}
	if !slices.Contains(s.likes.Sources(s.outside), t1) || !slices.Contains(s.likes.Sources(t2), t1) {
		t.Errorf("targets do not list turret 1: %v, %v", s.likes.Sources(s.outside), s.likes.Sources(t2))
	}
}

func TestPrefabSpawn(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	if p.Len() != 4 {
		t.Fatalf("prefab of %d nodes, want 4", p.Len())
	}
	if n, ok := p.Node(s.t2); !ok || n != 3 {
		t.Fatalf("Node(t2) = %d, %v", n, ok)
	}
	if _, ok := p.Node(s.outside); ok {
		t.Fatal("an outside entity is a node")
	}
	s.w.Despawn(s.doomed)
	before := s.w.Len()
	a := p.Spawn()
	if s.w.Len() != before+4 {
		t.Fatalf("one instance made %d entities", s.w.Len()-before)
	}
	s.checkInstance(t, a, 0)
	// The template is untouched, and changing it leaves the prefab alone.
	if s.aim.Get(s.t1).At != s.radar || s.h.NumChildren(s.hull) != 3 {
		t.Fatal("spawning changed the template")
	}
	s.pos.Set(s.hull, cpPos{50, 50})
	s.w.Despawn(s.t2)
	b := p.Spawn()
	s.checkInstance(t, b, 0)
	// Changing the prefab changes later instances only.
	ecs.PrefabValue[cpPos](p, 0).X = 7
	c := p.Spawn()
	s.checkInstance(t, c, 7)
	s.checkInstance(t, a, 0)
	// Instances are independent: their slices are their own.
	s.crew.Get(a).Members[0] = ecs.Entity{}
	if s.crew.Get(c).Members[0].IsZero() {
		t.Fatal("two instances share a slice")
	}
	// The whole template can go; the prefab stays usable.
	s.w.Despawn(s.hull)
	s.checkInstance(t, p.Spawn(), 7)
	// An entity changed in the prefab is pointed into the tree when it
	// names a node: turret 2 now aims at its own instance's radar.
	n2, _ := p.Node(s.t2)
	ecs.PrefabValue[cpAim](p, n2).At = s.radar
	d := p.Spawn()
	kids := s.h.Children(d)
	if got := s.aim.Get(kids[2]).At; got != kids[0] {
		t.Fatalf("after PrefabValue turret 2 aims at %v, want its radar %v", got, kids[0])
	}
	if got := s.aim.Get(s.h.Children(c)[2]).At; got != s.outside {
		t.Fatalf("an earlier instance changed: turret 2 aims at %v", got)
	}
}

func TestPrefabSpawnBatch(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	s.w.Despawn(s.doomed)
	var roots []ecs.Entity
	var hooked []ecs.Entity
	ecs.OnAdd(s.w, func(e ecs.Entity, v *cpAim) { hooked = append(hooked, e) })
	entered := 0
	ecs.NewQuery1[cpPos](s.w).OnEnter(func(ecs.Entity) { entered++ })
	p.SpawnBatchFunc(50, func(i int, inst []ecs.Entity) {
		if len(inst) != 4 {
			t.Fatalf("init got %d entities", len(inst))
		}
		roots = append(roots, inst[0])
		s.pos.Get(inst[0]).X = float64(i) // a per-instance override
	})
	if len(roots) != 50 || entered != 200 || len(hooked) != 100 {
		t.Fatalf("%d roots, %d entered, %d OnAdd calls", len(roots), entered, len(hooked))
	}
	for i, r := range roots {
		s.checkInstance(t, r, float64(i))
	}
	for _, e := range hooked {
		if !s.aim.Has(e) {
			t.Fatal("OnAdd hook fired for an entity without the component")
		}
	}
	n := s.w.Len()
	p.SpawnBatch(10)
	p.SpawnBatch(0)
	if s.w.Len() != n+40 {
		t.Fatalf("SpawnBatch(10) made %d entities", s.w.Len()-n)
	}
	if msg := panicOf(func() { p.SpawnBatch(-1) }); !strings.Contains(msg, "negative") {
		t.Fatalf("SpawnBatch(-1): %q", msg)
	}
}

func TestPrefabInsideLoop(t *testing.T) {
	s := newShip(t)
	p := ecs.NewPrefab(s.w, s.hull)
	s.w.Despawn(s.doomed)
	var made, dropped ecs.Entity
	var inits []int
	q := ecs.NewQuery1[cpPos](s.w)
	for r := range q.All() {
		if r.Entity != s.hull {
			continue
		}
		made = p.Spawn()
		if !s.w.Alive(made) || s.pos.Has(made) {
			t.Fatal("inside a loop the instance's root is alive and empty")
		}
		dropped = p.Spawn()
		s.w.Despawn(dropped)
		p.SpawnBatchFunc(2, func(i int, inst []ecs.Entity) {
			inits = append(inits, i)
			s.pos.Get(inst[0]).Y = 42
		})
	}
	s.checkInstance(t, made, 0)
	if s.w.Alive(dropped) {
		t.Fatal("the despawned instance root lives")
	}
	if !slices.Equal(inits, []int{0, 1}) {
		t.Fatalf("deferred init calls %v", inits)
	}
}

func TestPrefabMisuse(t *testing.T) {
	w := ecs.NewWorld()
	bag := ecs.NewMap[cpBag](w)
	e := bag.Spawn(cpBag{Items: []int{1}})
	if msg := panicOf(func() { ecs.NewPrefab(w, e) }); !strings.Contains(msg, "NewPrefab") || !strings.Contains(msg, "cpBag") {
		t.Fatalf("prefab of an uncopyable type: %q", msg)
	}
	d := w.Spawn()
	w.Despawn(d)
	if msg := panicOf(func() { ecs.NewPrefab(w, d) }); !strings.Contains(msg, "not alive") {
		t.Fatalf("prefab of a dead entity: %q", msg)
	}
	pos := ecs.NewMap[cpPos](w)
	p := ecs.NewPrefab(w, pos.Spawn(cpPos{}))
	if msg := panicOf(func() { ecs.PrefabValue[cpPos](p, 1) }); !strings.Contains(msg, "out of range") {
		t.Fatalf("PrefabValue out of range: %q", msg)
	}
	if msg := panicOf(func() { ecs.PrefabValue[cpLikes](p, 0) }); !strings.Contains(msg, "not a component type") {
		t.Fatalf("PrefabValue of an unknown type: %q", msg)
	}
	if ecs.PrefabValue[cpBag](p, 0) != nil {
		t.Fatal("PrefabValue of a type the node lacks is not nil")
	}
	w.Parallel().Begin()
	if msg := panicOf(func() { p.Spawn() }); !strings.Contains(msg, "parallel") {
		t.Fatalf("Spawn in a parallel section: %q", msg)
	}
	w.Parallel().End()
}

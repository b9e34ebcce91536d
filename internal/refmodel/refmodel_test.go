package refmodel_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tessera-ecs/tessera/internal/refmodel"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

type pos struct{ X, Y int }
type vel struct{ X, Y int }

type fixture struct {
	w    *refmodel.World
	pos  *refmodel.Store[pos]
	vel  *refmodel.Store[vel]
	name *refmodel.Store[string]
	tag  *refmodel.Store[struct{}]
}

func newFixture() fixture {
	w := refmodel.NewWorld()
	return fixture{
		w:    w,
		pos:  refmodel.NewStore[pos](w, "pos"),
		vel:  refmodel.NewStore[vel](w, "vel"),
		name: refmodel.NewStore[string](w, "name"),
		tag:  refmodel.NewStore[struct{}](w, "tag"),
	}
}

func ids(xs ...refmodel.EntityID) []refmodel.EntityID { return xs }

func TestSpawnDespawnAlive(t *testing.T) {
	f := newFixture()
	if f.w.Alive(0) {
		t.Fatal("the zero id is alive")
	}
	a, b := f.w.Spawn(), f.w.Spawn()
	if a == 0 || b <= a {
		t.Fatalf("ids %d, %d: want increasing non-zero ids", a, b)
	}
	if !f.w.Alive(a) || !f.w.Alive(b) || f.w.Len() != 2 {
		t.Fatalf("after two spawns: alive %v %v, len %d", f.w.Alive(a), f.w.Alive(b), f.w.Len())
	}
	f.w.Despawn(a)
	if f.w.Alive(a) || f.w.Len() != 1 {
		t.Fatalf("after despawn: alive %v, len %d", f.w.Alive(a), f.w.Len())
	}
	if c := f.w.Spawn(); c == a {
		t.Fatal("a despawned id was reused")
	}
	testhelp.MustPanic(t, func() { f.w.Despawn(a) }, "not alive")
	if got := f.w.Entities(); !slices.Equal(got, ids(b, 3)) {
		t.Fatalf("Entities() = %v", got)
	}
}

func TestComponentAccess(t *testing.T) {
	f := newFixture()
	e := f.w.Spawn()
	if f.pos.Has(e) {
		t.Fatal("new entity has pos")
	}
	f.pos.Add(e, pos{1, 2})
	if v, ok := f.pos.Get(e); !ok || v != (pos{1, 2}) {
		t.Fatalf("Get = %v, %v", v, ok)
	}
	testhelp.MustPanic(t, func() { f.pos.Add(e, pos{3, 4}) }, "already has")
	if v, _ := f.pos.Get(e); v != (pos{1, 2}) {
		t.Fatalf("a refused Add changed the value to %v", v)
	}
	f.pos.Set(e, pos{5, 6})
	f.vel.Set(e, vel{7, 8}) // Set adds when absent
	if v, _ := f.pos.Get(e); v != (pos{5, 6}) {
		t.Fatalf("Set did not overwrite: %v", v)
	}
	if !f.vel.Has(e) {
		t.Fatal("Set did not add")
	}
	if !f.pos.Update(e, func(p *pos) { p.X += 10 }) {
		t.Fatal("Update reported no component")
	}
	if v, _ := f.pos.Get(e); v.X != 15 {
		t.Fatalf("Update wrote %v", v)
	}
	if f.name.Update(e, func(*string) { t.Fatal("Update called f without a component") }) {
		t.Fatal("Update reported a component that is absent")
	}
	f.name.Remove(e) // absent: no-op
	f.pos.Remove(e)
	if f.pos.Has(e) || f.pos.Len() != 0 || !f.vel.Has(e) {
		t.Fatalf("after Remove: pos %v (len %d), vel %v", f.pos.Has(e), f.pos.Len(), f.vel.Has(e))
	}
	f.w.Despawn(e)
	if f.vel.Has(e) || f.vel.Len() != 0 {
		t.Fatal("Despawn left a component behind")
	}
	testhelp.MustPanic(t, func() { f.pos.Add(e, pos{}) }, "not alive")
	testhelp.MustPanic(t, func() { f.pos.Set(e, pos{}) }, "not alive")
	testhelp.MustPanic(t, func() { f.pos.Remove(e) }, "not alive")
	if _, ok := f.pos.Get(e); ok {
		t.Fatal("Get on a dead entity found a value")
	}
}

func TestQueryFilters(t *testing.T) {
	f := newFixture()
	P, V, N, T := f.pos.Kind(), f.vel.Kind(), f.name.Kind(), f.tag.Kind()
	// e1: P      e2: P V    e3: P V N   e4: V N T   e5: T   e6: (none)
	e1, e2, e3, e4, e5, e6 := f.w.Spawn(), f.w.Spawn(), f.w.Spawn(), f.w.Spawn(), f.w.Spawn(), f.w.Spawn()
	for _, e := range ids(e1, e2, e3) {
		f.pos.Add(e, pos{})
	}
	for _, e := range ids(e2, e3, e4) {
		f.vel.Add(e, vel{})
	}
	f.name.Add(e3, "c")
	f.name.Add(e4, "d")
	f.tag.Add(e4, struct{}{})
	f.tag.Add(e5, struct{}{})
	_ = e6
	cases := []struct {
		name string
		q    refmodel.Query
		want []refmodel.EntityID
	}{
		{"terms", refmodel.Query{Terms: []refmodel.Kind{P}}, ids(e1, e2, e3)},
		{"intersection", refmodel.Query{Terms: []refmodel.Kind{V, P}}, ids(e2, e3)},
		{"with", refmodel.Query{Terms: []refmodel.Kind{P}, With: []refmodel.Kind{N}}, ids(e3)},
		{"without", refmodel.Query{Terms: []refmodel.Kind{V}, Without: []refmodel.Kind{N}}, ids(e2)},
		{"without two", refmodel.Query{Terms: []refmodel.Kind{V}, Without: []refmodel.Kind{P, T}}, nil},
		{"anyof", refmodel.Query{Terms: []refmodel.Kind{V}, AnyOf: [][]refmodel.Kind{{N, T}}}, ids(e3, e4)},
		{"two anyof groups", refmodel.Query{Terms: []refmodel.Kind{V}, AnyOf: [][]refmodel.Kind{{N}, {P, T}}}, ids(e3, e4)},
		{"anyof only", refmodel.Query{AnyOf: [][]refmodel.Kind{{N, T}}}, ids(e3, e4, e5)},
		{"optional", refmodel.Query{Terms: []refmodel.Kind{P, N}, Optional: []refmodel.Kind{N}}, ids(e1, e2, e3)},
		{"all optional with anyof", refmodel.Query{Terms: []refmodel.Kind{N, T}, Optional: []refmodel.Kind{N, T}, AnyOf: [][]refmodel.Kind{{N, T}}}, ids(e3, e4, e5)},
	}
	for _, c := range cases {
		got := f.w.Match(&c.q)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: Match = %v, want %v", c.name, got, c.want)
		}
		if n := f.w.Count(&c.q); n != len(c.want) {
			t.Errorf("%s: Count = %d, want %d", c.name, n, len(c.want))
		}
		for _, e := range f.w.Entities() {
			if f.w.Matches(&c.q, e) != slices.Contains(c.want, e) {
				t.Errorf("%s: Matches(%d) disagrees with Match", c.name, e)
			}
		}
	}
}

func TestQueryValidate(t *testing.T) {
	f := newFixture()
	P, V := f.pos.Kind(), f.vel.Kind()
	bad := map[string]refmodel.Query{
		"unknown kind":          {Terms: []refmodel.Kind{42}},
		"duplicate term":        {Terms: []refmodel.Kind{P, P}},
		"optional not a term":   {Terms: []refmodel.Kind{P}, Optional: []refmodel.Kind{V}},
		"required and excluded": {Terms: []refmodel.Kind{P}, Without: []refmodel.Kind{P}},
		"with and excluded":     {Terms: []refmodel.Kind{P}, With: []refmodel.Kind{V}, Without: []refmodel.Kind{V}},
		"nothing required":      {Terms: []refmodel.Kind{P}, Optional: []refmodel.Kind{P}},
		"empty anyof":           {Terms: []refmodel.Kind{P}, AnyOf: [][]refmodel.Kind{{}}},
	}
	for name, q := range bad {
		if q.Validate(f.w) == nil {
			t.Errorf("%s: Validate accepted %+v", name, q)
		}
		testhelp.MustPanic(t, func() { f.w.Match(&q) }, "invalid query")
	}
	ok := refmodel.Query{Terms: []refmodel.Kind{P}, Optional: []refmodel.Kind{P}, AnyOf: [][]refmodel.Kind{{P, V}}}
	if err := ok.Validate(f.w); err != nil {
		t.Errorf("Validate refused an optional term with an AnyOf group: %v", err)
	}
}

func TestDeferralInsideEach(t *testing.T) {
	f := newFixture()
	P := f.pos.Kind()
	a, b := f.w.Spawn(), f.w.Spawn()
	f.pos.Add(a, pos{1, 0})
	f.pos.Add(b, pos{2, 0})
	q := &refmodel.Query{Terms: []refmodel.Kind{P}}
	var spawned refmodel.EntityID
	var visited []refmodel.EntityID
	f.w.Each(q, func(e refmodel.EntityID) bool {
		visited = append(visited, e)
		if !f.w.IsIterating() {
			t.Fatal("IsIterating is false inside Each")
		}
		if e != a {
			return true
		}
		spawned = f.w.Spawn()
		if !f.w.Alive(spawned) {
			t.Fatal("Spawn inside an iteration is not immediate")
		}
		f.pos.Add(spawned, pos{9, 9}) // deferred
		f.pos.Set(spawned, pos{8, 8}) // absent now: a second deferred add, overwrites
		f.vel.Add(a, vel{})           // deferred
		testhelp.MustPanic(t, func() { f.pos.Add(a, pos{}) }, "already has")
		f.pos.Set(a, pos{5, 5})  // present: immediate
		f.w.Despawn(b)           // deferred
		f.name.Add(b, "dropped") // judged after the despawn: deferred, then dropped
		f.pos.Set(b, pos{})      // likewise, though b has pos now
		f.pos.Remove(a)          // deferred
		f.pos.Set(a, pos{7, 7})  // a remove is pending: a deferred add after it
		testhelp.MustPanic(t, func() { f.pos.Add(a, pos{}) }, "already has")
		if f.pos.Has(spawned) || f.vel.Has(a) || !f.w.Alive(b) {
			t.Fatal("a structural change inside the iteration was not deferred")
		}
		if v, _ := f.pos.Get(a); v != (pos{5, 5}) {
			t.Fatalf("Set after a deferred remove wrote at once: %v", v)
		}
		if f.w.Pending() != 8 {
			t.Fatalf("Pending() = %d, want 8", f.w.Pending())
		}
		return true
	})
	if !slices.Equal(visited, ids(a, b)) {
		t.Fatalf("visited %v, want %v (b stays alive until the end)", visited, ids(a, b))
	}
	if f.w.IsIterating() || f.w.Pending() != 0 {
		t.Fatal("the iteration did not end cleanly")
	}
	if v, ok := f.pos.Get(spawned); !ok || v != (pos{8, 8}) {
		t.Fatalf("deferred adds applied as %v, %v; want the later one", v, ok)
	}
	if f.w.Alive(b) || f.name.Has(b) {
		t.Fatal("deferred despawn not applied")
	}
	if v, ok := f.pos.Get(a); !ok || v != (pos{7, 7}) || !f.vel.Has(a) {
		t.Fatalf("a: pos %v, %v vel %v, want pos {7 7} (remove then set) and added vel", v, ok, f.vel.Has(a))
	}
}

func TestNestedIterationAppliesAtOutermostEnd(t *testing.T) {
	f := newFixture()
	e := f.w.Spawn()
	f.pos.Add(e, pos{})
	q := &refmodel.Query{Terms: []refmodel.Kind{f.pos.Kind()}}
	f.w.Each(q, func(refmodel.EntityID) bool {
		c := f.w.Iter(q)
		for c.Next() {
			f.vel.Add(c.Entity(), vel{1, 1})
			c.Close() // early close of the inner iteration
		}
		c.Close() // second close: no-op
		if f.vel.Has(e) {
			t.Fatal("the inner iteration's end applied the changes")
		}
		return false // early break of the outer one
	})
	if !f.vel.Has(e) {
		t.Fatal("the outermost iteration's end did not apply the changes")
	}
	testhelp.MustPanic(t, f.w.EndIteration, "no iteration")
}

func TestCursorVisitsInIDOrder(t *testing.T) {
	f := newFixture()
	var want []refmodel.EntityID
	for i := range 20 {
		e := f.w.Spawn()
		if i%3 != 0 {
			f.name.Add(e, fmt.Sprint(i))
			want = append(want, e)
		}
	}
	c := f.w.Iter(&refmodel.Query{Terms: []refmodel.Kind{f.name.Kind()}})
	var got []refmodel.EntityID
	for c.Next() {
		got = append(got, c.Entity())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cursor visited %v, want %v", got, want)
	}
	if c.Next() || f.w.IsIterating() {
		t.Fatal("an exhausted cursor did not close")
	}
}

func TestBatchOperationsSelectWhenApplied(t *testing.T) {
	f := newFixture()
	P, V, N := f.pos.Kind(), f.vel.Kind(), f.name.Kind()
	a, b, c := f.w.Spawn(), f.w.Spawn(), f.w.Spawn()
	f.pos.Add(a, pos{})
	f.pos.Add(b, pos{})
	f.vel.Add(b, vel{3, 3})
	f.name.Add(c, "c")
	withPos := &refmodel.Query{Terms: []refmodel.Kind{P}}
	withVel := &refmodel.Query{Terms: []refmodel.Kind{V}}

	f.vel.AddMatching(withPos, vel{1, 1}) // immediate: overwrites b, adds to a
	for _, e := range ids(a, b) {
		if v, _ := f.vel.Get(e); v != (vel{1, 1}) {
			t.Fatalf("AddMatching gave %d %v", e, v)
		}
	}
	f.w.Each(&refmodel.Query{Terms: []refmodel.Kind{N}}, func(refmodel.EntityID) bool {
		f.pos.Add(c, pos{})                // deferred: c joins withPos before AddMatching applies
		f.vel.RemoveMatching(withPos)      // deferred
		f.name.AddMatching(withPos, "all") // deferred, selects a, b, c
		f.w.DespawnMatching(withVel)       // deferred: nobody has vel by then
		if f.vel.Len() != 2 || f.name.Len() != 1 {
			t.Fatal("a batch operation inside an iteration was not deferred")
		}
		return true
	})
	if f.vel.Len() != 0 || f.w.Len() != 3 {
		t.Fatalf("vel len %d, world len %d: want 0 and 3", f.vel.Len(), f.w.Len())
	}
	if got := f.name.Entities(); !slices.Equal(got, ids(a, b, c)) {
		t.Fatalf("name holders %v, want %v", got, ids(a, b, c))
	}
	f.w.DespawnMatching(withPos)
	if f.w.Len() != 0 {
		t.Fatalf("DespawnMatching left %d entities", f.w.Len())
	}
}

func TestEachEndsIterationWhenBodyPanics(t *testing.T) {
	f := newFixture()
	e := f.w.Spawn()
	f.pos.Add(e, pos{})
	func() {
		defer func() { _ = recover() }()
		f.w.Each(&refmodel.Query{Terms: []refmodel.Kind{f.pos.Kind()}}, func(e refmodel.EntityID) bool {
			f.w.Despawn(e)
			panic("boom")
		})
	}()
	if f.w.IsIterating() || f.w.Alive(e) {
		t.Fatalf("after a panicking body: iterating %v, alive %v", f.w.IsIterating(), f.w.Alive(e))
	}
}

func TestRunSystemsInOrder(t *testing.T) {
	f := newFixture()
	var order []string
	f.w.Run(
		func(*refmodel.World) { order = append(order, "first") },
		func(*refmodel.World) { order = append(order, "second") },
	)
	if !slices.Equal(order, []string{"first", "second"}) {
		t.Fatalf("systems ran as %v", order)
	}
}

func TestKinds(t *testing.T) {
	f := newFixture()
	e := f.w.Spawn()
	f.name.Add(e, "x")
	if f.w.Kinds() != 4 || f.w.KindName(f.name.Kind()) != "name" || f.name.Name() != "name" {
		t.Fatalf("Kinds %d, KindName %q", f.w.Kinds(), f.w.KindName(f.name.Kind()))
	}
	if !f.w.HasKind(e, f.name.Kind()) || f.w.HasKind(e, f.pos.Kind()) {
		t.Fatal("HasKind disagrees with the stores")
	}
	testhelp.MustPanic(t, func() { f.w.HasKind(e, 99) }, "unknown component kind")
}

// Example shows the physics system of the "super simple ECS" blog post: a
// plain function that walks the intersection of the position and velocity
// maps.
func Example() {
	w := refmodel.NewWorld()
	positions := refmodel.NewStore[pos](w, "pos")
	velocities := refmodel.NewStore[vel](w, "vel")
	a, b := w.Spawn(), w.Spawn()
	positions.Add(a, pos{0, 0})
	velocities.Add(a, vel{1, 2})
	positions.Add(b, pos{5, 5}) // no velocity: the system skips it

	physics := func(w *refmodel.World) {
		q := &refmodel.Query{Terms: []refmodel.Kind{positions.Kind(), velocities.Kind()}}
		w.Each(q, func(e refmodel.EntityID) bool {
			v, _ := velocities.Get(e)
			positions.Update(e, func(p *pos) { p.X += v.X; p.Y += v.Y })
			return true
		})
	}
	w.Run(physics, physics)
	pa, _ := positions.Get(a)
	pb, _ := positions.Get(b)
	fmt.Println(pa, pb)
	// Output: {2 4} {5 5}
}

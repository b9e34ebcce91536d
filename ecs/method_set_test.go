package ecs_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/testhelp"
)

// Map.SpawnBatchFunc fills each new entity's T in spawn order, with table
// and sparse storage and inside a loop, as Map2..Map12's do.
func TestMapSpawnBatchFunc(t *testing.T) {
	for _, storage := range []string{"table", "sparse", "in a loop"} {
		t.Run(storage, func(t *testing.T) {
			w := ecs.NewWorld()
			if storage == "sparse" {
				ecs.Register[Mass](w, ecs.Sparse())
			}
			mass := ecs.NewMap[Mass](w)
			q := ecs.NewQuery1[Mass](w)
			var made []ecs.Entity
			batch := func() {
				mass.SpawnBatchFunc(3, func(e ecs.Entity, v *Mass) {
					if v.V != 0 {
						t.Errorf("entity %v starts with %v, want a zero Mass", e, *v)
					}
					v.V = float64(len(made) + 1)
					made = append(made, e)
				})
			}
			if storage == "in a loop" {
				mass.Spawn(Mass{})
				for range q.All() {
					batch()
				}
			} else {
				batch()
			}
			for i, e := range made {
				if got := mass.Get(e).V; got != float64(i+1) {
					t.Fatalf("entity %d: mass %v, want %d", i, got, i+1)
				}
			}
			if len(made) != 3 {
				t.Fatalf("%d entities made, want 3", len(made))
			}
			mass.SpawnBatchFunc(0, nil)
			testhelp.MustPanic(t, func() { mass.SpawnBatchFunc(-2, nil) }, "SpawnBatchFunc[ecs_test.Mass]", "negative count -2")
		})
	}
}

// Panic messages of Map2..Map12 name the operation with all of the
// handle's types, and a query that requires and excludes a type names it.
func TestMessagesNameEveryType(t *testing.T) {
	w := ecs.NewWorld()
	pv := ecs.NewMap2[Position, Velocity](w)
	e := pv.Spawn(Position{}, Velocity{})
	dead := w.Spawn()
	w.Despawn(dead)
	const handle = "Map2[ecs_test.Position,ecs_test.Velocity]"
	testhelp.MustPanic(t, func() { pv.Add(e, Position{}, Velocity{}) }, handle+".Add", "already has ecs_test.Position")
	testhelp.MustPanic(t, func() { pv.Add(dead, Position{}, Velocity{}) }, handle+".Add", dead.String(), "not alive")
	testhelp.MustPanic(t, func() { pv.Remove(dead) }, handle+".Remove", dead.String())
	testhelp.MustPanic(t, func() { pv.Get(dead) }, handle+".Get", dead.String())
	testhelp.MustPanic(t, func() { pv.SpawnBatch(-1, Position{}, Velocity{}) }, handle+".SpawnBatch", "negative count -1")
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Position](w, ecs.Without(ecs.C[Position]())) },
		"NewQuery1", "component type ecs_test.Position is both required and excluded")
	ecs.Register[Mass](w, ecs.Sparse())
	testhelp.MustPanic(t, func() { ecs.NewQuery1[Mass](w, ecs.Without(ecs.C[Mass]())) },
		"component type ecs_test.Mass is both required and excluded")
}

// Map2..Map12 have the verbs of Map, taking all their types at once: their
// method sets differ from Map's only by the exceptions listed here. The
// methods are read from the package's source: listing them by reflection
// would make the linker keep every method of every type in the test binary.
func TestMapNHaveTheVerbsOfMap(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string][]string{} // by receiver type: "Map", "Map2", ...
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			switch x := typ.(type) {
			case *ast.IndexExpr:
				typ = x.X
			case *ast.IndexListExpr:
				typ = x.X
			}
			if id, ok := typ.(*ast.Ident); ok && strings.HasPrefix(id.Name, "Map") {
				methods[id.Name] = append(methods[id.Name], fn.Name.Name)
			}
		}
	}
	var want []string
	for _, name := range methods["Map"] {
		switch name {
		case "Tracked": // a fact about one type
		default:
			want = append(want, name)
		}
	}
	slices.Sort(want)
	if len(want) < 10 {
		t.Fatalf("found only the methods %v of Map", want)
	}
	for n := 2; n <= 12; n++ {
		handle := fmt.Sprintf("Map%d", n)
		got := methods[handle]
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s has the methods %v, want %v", handle, got, want)
		}
	}
}

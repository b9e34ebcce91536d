package inspect_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// Likes is a Multi relation with a value, Owns an exclusive one.
type Likes struct{ Stars int }
type Owns struct{}

// relationWorld serves a world with a hierarchy and two relations:
//
//	root ─┬─ a ── a1
//	      ├─ b
//	      └─ c
//	lone (no parent, no child)
//
// a likes b (5 stars) and lone (2), lone likes b (1); c owns lone.
type relationWorld struct {
	*fixture
	root, a, a1, b, c, lone ecs.Entity
	h                       *ecs.Hierarchy
}

func newRelationWorld(t *testing.T) *relationWorld {
	w := ecs.NewWorld()
	f := &fixture{t: t, w: w}
	rw := &relationWorld{fixture: f, h: ecs.NewHierarchy(w)}
	pos := ecs.NewMap[Position](w)
	for _, e := range []*ecs.Entity{&rw.root, &rw.a, &rw.a1, &rw.b, &rw.c, &rw.lone} {
		*e = pos.Spawn(Position{})
	}
	rw.h.SetParent(rw.a, rw.root)
	rw.h.SetParent(rw.b, rw.root)
	rw.h.SetParent(rw.c, rw.root)
	rw.h.SetParent(rw.a1, rw.a)
	likes := ecs.NewRelation[Likes](w, ecs.Multi())
	likes.Set(rw.a, rw.b, Likes{5})
	likes.Set(rw.a, rw.lone, Likes{2})
	likes.Set(rw.lone, rw.b, Likes{1})
	ecs.NewRelation[Owns](w).Add(rw.c, rw.lone)
	f.in = newInspector(t, w, &f.mu, inspect.Token(token))
	f.srv = newServer(t, f.in)
	return rw
}

// relationDetail is the relation part of GET /api/entities/{id}.
type relationDetail struct {
	ID            string
	Parent        string
	Ancestors     []string
	AncestorsMore bool
	Children      []string
	ChildCount    int
	Pairs         []pairJSON
	PairCount     int
	TargetOf      []pairJSON
	TargetOfCount int
}

type pairJSON struct {
	Relation, GoType, Source, Target string
	Value                            json.RawMessage
}

func (p pairJSON) String() string {
	return fmt.Sprintf("%s:%s>%s=%s", p.GoType, p.Source, p.Target, p.Value)
}

func pairList(ps []pairJSON) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

func TestEntityRelations(t *testing.T) {
	rw := newRelationWorld(t)
	var d relationDetail
	rw.get("/api/entities/"+rw.a.String(), &d)
	if d.Parent != rw.root.String() || !slices.Equal(d.Ancestors, []string{rw.root.String()}) || d.AncestorsMore {
		t.Errorf("a's parent %q, ancestors %v; want %v", d.Parent, d.Ancestors, rw.root)
	}
	if !slices.Equal(d.Children, []string{rw.a1.String()}) || d.ChildCount != 1 {
		t.Errorf("a's children %v (%d); want [%v]", d.Children, d.ChildCount, rw.a1)
	}
	wantPairs := []string{
		fmt.Sprintf("ecs.ChildOf:%v>%v=", rw.a, rw.root), // no value: ChildOf has no fields
		fmt.Sprintf(`inspect_test.Likes:%v>%v={"Stars":5}`, rw.a, rw.b),
		fmt.Sprintf(`inspect_test.Likes:%v>%v={"Stars":2}`, rw.a, rw.lone),
	}
	if got := pairList(d.Pairs); !slices.Equal(got, wantPairs) || d.PairCount != 3 {
		t.Errorf("a's pairs %v (%d); want %v", got, d.PairCount, wantPairs)
	}
	if d.Pairs[1].Relation != "github.com/tessera-ecs/tessera/inspect_test.Likes" || d.Pairs[0].Relation != "github.com/tessera-ecs/tessera/ecs.ChildOf" {
		t.Errorf("relation names %q, %q", d.Pairs[0].Relation, d.Pairs[1].Relation)
	}
	wantTargetOf := []string{fmt.Sprintf("ecs.ChildOf:%v>%v=", rw.a1, rw.a)}
	if got := pairList(d.TargetOf); !slices.Equal(got, wantTargetOf) || d.TargetOfCount != 1 {
		t.Errorf("a is the target of %v (%d); want %v", got, d.TargetOfCount, wantTargetOf)
	}

	d = relationDetail{}
	rw.get("/api/entities/"+rw.a1.String(), &d)
	if d.Parent != rw.a.String() || !slices.Equal(d.Ancestors, []string{rw.a.String(), rw.root.String()}) || d.Children != nil {
		t.Errorf("a1: parent %q, ancestors %v, children %v", d.Parent, d.Ancestors, d.Children)
	}
	d = relationDetail{}
	rw.get("/api/entities/"+rw.root.String(), &d)
	if want := []string{rw.a.String(), rw.b.String(), rw.c.String()}; d.Parent != "" || !slices.Equal(d.Children, want) || d.ChildCount != 3 {
		t.Errorf("root: parent %q, children %v (%d); want none and %v", d.Parent, d.Children, d.ChildCount, want)
	}
	d = relationDetail{}
	rw.get("/api/entities/"+rw.lone.String(), &d)
	wantTargetOf = []string{
		fmt.Sprintf(`inspect_test.Likes:%v>%v={"Stars":2}`, rw.a, rw.lone),
		fmt.Sprintf(`inspect_test.Owns:%v>%v=`, rw.c, rw.lone),
	}
	if got := pairList(d.TargetOf); d.Parent != "" || d.Children != nil || !slices.Equal(got, wantTargetOf) {
		t.Errorf("lone: parent %q, children %v, target of %v; want %v", d.Parent, d.Children, got, wantTargetOf)
	}

	// An entity in no relation answers as before: no relation members.
	var raw map[string]json.RawMessage
	rw.mu.Lock()
	plain := rw.w.Spawn()
	rw.mu.Unlock()
	rw.get("/api/entities/"+plain.String(), &raw)
	if len(raw) != 2 {
		t.Errorf("an entity in no relation answers %v", raw)
	}
}

func TestRelationsEndpoint(t *testing.T) {
	rw := newRelationWorld(t)
	var out struct {
		Relations []struct {
			Name, GoType, OnTargetDespawn string
			Exclusive, Acyclic            bool
			Sources, Targets              int
		}
	}
	rw.get("/api/relations", &out)
	var got []string
	for _, r := range out.Relations {
		got = append(got, fmt.Sprintf("%s %s %v %v %s %d %d", r.Name, r.GoType, r.Exclusive, r.Acyclic, r.OnTargetDespawn, r.Sources, r.Targets))
	}
	want := []string{
		"github.com/tessera-ecs/tessera/ecs.ChildOf ecs.ChildOf true true DespawnSources 4 2",
		"github.com/tessera-ecs/tessera/inspect_test.Likes inspect_test.Likes false false RemovePairs 2 2",
		"github.com/tessera-ecs/tessera/inspect_test.Owns inspect_test.Owns true false RemovePairs 1 1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("relations:\n%v\nwant\n%v", got, want)
	}
}

func TestPairsEndpoint(t *testing.T) {
	rw := newRelationWorld(t)
	var page struct {
		ID, As               string
		Total, Offset, Limit int
		Pairs                []pairJSON
	}
	path := "/api/entities/" + rw.b.String() + "/pairs"
	rw.get(path+"?as=target&relation=inspect_test.Likes&offset=1&limit=5", &page)
	want := []string{fmt.Sprintf(`inspect_test.Likes:%v>%v={"Stars":1}`, rw.lone, rw.b)}
	if got := pairList(page.Pairs); page.As != "target" || page.Total != 2 || page.Offset != 1 || page.Limit != 5 || !slices.Equal(got, want) {
		t.Errorf("b's Likes pairs as target from 1: %+v; want %v of 2", page, want)
	}
	page.Pairs = nil
	rw.get(path, &page)
	want = []string{fmt.Sprintf(`ecs.ChildOf:%v>%v=`, rw.b, rw.root)}
	if got := pairList(page.Pairs); page.As != "source" || page.Total != 1 || !slices.Equal(got, want) {
		t.Errorf("b's pairs as source: %+v; want %v", page, want)
	}
	for _, c := range []struct{ query, want string }{
		{"?as=both", `as="both": want source or target`},
		{"?relation=Hates", `unknown relation "Hates"`},
		{"?relation=inspect_test.Position", `unknown relation "inspect_test.Position"`},
		{"?limit=0", "limit"},
	} {
		status, body := rw.call(http.MethodGet, path+c.query, "")
		wantError(t, c.query, status, body, http.StatusBadRequest, c.want)
	}
}

// hierarchyAnswer is the answer of GET /api/hierarchy[/{id}].
type hierarchyAnswer struct {
	Declared             bool
	ID, Parent           string
	Total, Offset, Limit int
	Nodes                []struct {
		ID         string
		ChildCount int
		Components []string
	}
}

func (h hierarchyAnswer) ids() []string {
	out := []string{}
	for _, n := range h.Nodes {
		out = append(out, n.ID)
	}
	return out
}

func TestHierarchyEndpoint(t *testing.T) {
	rw := newRelationWorld(t)
	var h hierarchyAnswer
	rw.get("/api/hierarchy", &h)
	if !h.Declared || h.Total != 1 || h.Limit != 100 || !slices.Equal(h.ids(), []string{rw.root.String()}) ||
		h.Nodes[0].ChildCount != 3 || !slices.Equal(h.Nodes[0].Components, []string{posName}) {
		t.Errorf("roots: %+v", h)
	}
	h = hierarchyAnswer{}
	rw.get("/api/hierarchy/"+rw.root.String()+"?offset=1&limit=1", &h)
	if h.ID != rw.root.String() || h.Parent != "" || h.Total != 3 || !slices.Equal(h.ids(), []string{rw.b.String()}) {
		t.Errorf("root's children from 1: %+v", h)
	}
	h = hierarchyAnswer{}
	rw.get("/api/hierarchy/"+rw.a.String(), &h)
	if h.Parent != rw.root.String() || h.Total != 1 || !slices.Equal(h.ids(), []string{rw.a1.String()}) || h.Nodes[0].ChildCount != 0 {
		t.Errorf("a's children: %+v", h)
	}
	// Paging past the end lists none; the total stays.
	h = hierarchyAnswer{}
	rw.get("/api/hierarchy/"+rw.root.String()+"?offset=3", &h)
	if h.Total != 3 || len(h.Nodes) != 0 || h.Nodes == nil {
		t.Errorf("root's children from 3: %+v", h)
	}
	for _, c := range []struct{ path, want string }{
		{"/api/hierarchy?limit=1001", "limit=\"1001\": want an integer from 1 to 1000"},
		{"/api/hierarchy?offset=-1", "offset"},
		{"/api/hierarchy/x", "INDEXvGENERATION"},
		{"/api/hierarchy/999v0", "is not alive"},
	} {
		status, body := rw.call(http.MethodGet, c.path, "")
		wantError(t, c.path, status, body, http.StatusBadRequest, c.want)
	}
	status, body := rw.write(http.MethodPost, "/api/hierarchy", "")
	wantError(t, "POST", status, body, http.StatusMethodNotAllowed, "not allowed")

	// A world without a hierarchy says so, and is not given one.
	f := newFixture(t)
	h = hierarchyAnswer{}
	f.get("/api/hierarchy", &h)
	if h.Declared || h.Total != 0 || h.Nodes == nil {
		t.Errorf("no hierarchy: %+v", h)
	}
	if len(f.w.Reflect().Relations()) != 0 {
		t.Error("reading the hierarchy declared ChildOf")
	}
}

// TestHierarchyBounds builds a hierarchy of a million entities (one root
// with 500,000 children, 500 roots with 999 each) and checks that every
// answer about it stays small and quick: the roots' page, the big root's
// detail and a page of its children deep in the list.
func TestHierarchyBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000,000 entities; skipped under -short")
	}
	w := ecs.NewWorld()
	f := &fixture{t: t, w: w}
	h := ecs.NewHierarchy(w)
	big := w.Spawn()
	for range 500_000 {
		h.SetParent(w.Spawn(), big)
	}
	for range 500 {
		root := w.Spawn()
		for range 999 {
			h.SetParent(w.Spawn(), root)
		}
	}
	f.in = newInspector(t, w, &f.mu)
	f.srv = newServer(t, f.in)
	// A regression that makes an answer walk forever fails the run.
	defer time.AfterFunc(30*time.Second, func() { panic("TestHierarchyBounds: the answers took over 30 s") }).Stop()
	start := time.Now()
	for _, c := range []struct {
		path           string
		maxBytes       int
		nodes, total   int
		detailChildren int
	}{
		{path: "/api/hierarchy?limit=1000", maxBytes: 64 << 10, nodes: 501, total: 501},
		{path: "/api/hierarchy", maxBytes: 16 << 10, nodes: 100, total: 501},
		{path: "/api/hierarchy/" + big.String() + "?offset=499950&limit=1000", maxBytes: 16 << 10, nodes: 50, total: 500_000},
		{path: "/api/hierarchy/" + big.String(), maxBytes: 16 << 10, nodes: 100, total: 500_000},
		{path: "/api/entities/" + big.String(), maxBytes: 32 << 10, detailChildren: 100},
		{path: "/api/entities/" + big.String() + "/pairs?as=target&offset=400000&limit=10000", maxBytes: 2 << 20, nodes: 10000, total: 500_000},
	} {
		status, body := f.call(http.MethodGet, c.path, "")
		if status != http.StatusOK || len(body) > c.maxBytes {
			t.Errorf("%s: %d, %d bytes; want 200 and at most %d", c.path, status, len(body), c.maxBytes)
			continue
		}
		var out struct {
			Total      int
			Nodes      []json.RawMessage
			Pairs      []json.RawMessage
			Children   []string
			ChildCount int
		}
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatal(err)
		}
		if c.detailChildren > 0 {
			if len(out.Children) != c.detailChildren || out.ChildCount != 500_000 || len(out.Pairs) != 0 {
				t.Errorf("%s: %d children listed of %d", c.path, len(out.Children), out.ChildCount)
			}
			continue
		}
		if n := len(out.Nodes) + len(out.Pairs); n != c.nodes || out.Total != c.total {
			t.Errorf("%s: %d listed of %d; want %d of %d", c.path, n, out.Total, c.nodes, c.total)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the answers took %v; want well under 5 s", d)
	}
}

package inspect_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

const posName = "github.com/tessera-ecs/tessera/inspect_test.Position"

func TestWorldEndpoint(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	var s struct {
		Entities, Tables, Components, Resources, MemoryBytes int
		Tick                                                 uint64
		Loop, Writes, Paused                                 bool
	}
	f.get("/api/world", &s)
	st := f.w.Stats()
	if s.Entities != f.w.Len() || s.Tables != len(st.Tables) || s.Components != len(st.Components) ||
		s.Resources != 1 || s.MemoryBytes != st.TotalBytes || s.Loop || !s.Writes || s.Paused {
		t.Errorf("summary %+v; world has %d entities, %d tables, %d types, %d bytes", s, f.w.Len(), len(st.Tables), len(st.Components), st.TotalBytes)
	}
	g := newFixture(t)
	g.get("/api/world", &s)
	if s.Writes {
		t.Error("writes reported on without a token")
	}
}

func TestComponentsEndpoint(t *testing.T) {
	f := newFixture(t)
	var out struct {
		Components []struct {
			Name, GoType, Storage string
			Count, Size, Bytes    int
		}
	}
	f.get("/api/components", &out)
	got := map[string]string{}
	for _, c := range out.Components {
		got[c.GoType] = fmt.Sprintf("%s %s %d %d", c.Name, c.Storage, c.Count, c.Size)
	}
	want := map[string]string{
		"inspect_test.Position": posName + " table 167 16",
		"inspect_test.Velocity": "github.com/tessera-ecs/tessera/inspect_test.Velocity table 84 16",
		"inspect_test.Burning":  "github.com/tessera-ecs/tessera/inspect_test.Burning sparse 50 4",
		"inspect_test.Follow":   "github.com/tessera-ecs/tessera/inspect_test.Follow table 0 8",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}

func TestTablesEndpoint(t *testing.T) {
	f := newFixture(t)
	var out struct {
		Tables []struct {
			Components                   []string
			Rows, Capacity, Bytes, Index int
		}
	}
	f.get("/api/tables", &out)
	rows, withPos := 0, 0
	for i, tb := range out.Tables {
		rows += tb.Rows
		if tb.Index != i || tb.Capacity < tb.Rows || tb.Bytes <= 0 && tb.Capacity > 0 {
			t.Errorf("table %d: %+v", i, tb)
		}
		if slices.Contains(tb.Components, posName) {
			withPos += tb.Rows
		}
	}
	if rows != 250 || withPos != 167 || len(out.Tables) != len(f.w.Stats().Tables) {
		t.Errorf("%d rows, %d with Position, %d tables", rows, withPos, len(out.Tables))
	}
}

func TestResourcesEndpoint(t *testing.T) {
	f := newFixture(t)
	var out struct {
		Resources []struct {
			Name, GoType string
			Value        struct{ Points int }
		}
	}
	f.get("/api/resources", &out)
	// sched adds no resource without a FixedLoop: Score is the only one.
	if len(out.Resources) != 1 || out.Resources[0].GoType != "inspect_test.Score" || out.Resources[0].Value.Points != 3 {
		t.Errorf("resources %+v", out.Resources)
	}
}

type entityPage struct {
	Total, Offset, Limit int
	Entities             []struct {
		ID         string
		Components []string
	}
}

func TestEntitiesEndpoint(t *testing.T) {
	f := newFixture(t)
	var p entityPage
	f.get("/api/entities", &p)
	if p.Total != 250 || p.Limit != 100 || len(p.Entities) != 100 {
		t.Fatalf("default page: total %d, limit %d, %d entities", p.Total, p.Limit, len(p.Entities))
	}
	want := slices.Collect(f.w.Reflect().Entities(nil, nil))
	var ids []string
	for off := 0; off < 250; off += 60 {
		f.get(fmt.Sprintf("/api/entities?offset=%d&limit=60", off), &p)
		for _, e := range p.Entities {
			ids = append(ids, e.ID)
		}
	}
	for i, e := range want {
		if i >= len(ids) || ids[i] != e.String() {
			t.Fatalf("paging: entity %d is %v, pages gave %v", i, e, ids[min(i, len(ids)-1)])
		}
	}
	if len(ids) != 250 {
		t.Errorf("paging gave %d entities", len(ids))
	}
	// Filters by Go name and stable name; sparse and table types.
	f.get("/api/entities?with=inspect_test.Position,"+posName[:0]+"inspect_test.Burning&without=inspect_test.Health&limit=10000", &p)
	wantN := 0
	for i := range 250 {
		if i%3 == 0 && i%5 == 0 {
			wantN++
		}
	}
	if p.Total != wantN || len(p.Entities) != wantN {
		t.Errorf("with Position, Burning without Health: %d (%d listed), want %d", p.Total, len(p.Entities), wantN)
	}
	for _, e := range p.Entities {
		if !slices.Contains(e.Components, posName) || slices.Contains(e.Components, strings.Replace(posName, "Position", "Health", 1)) {
			t.Errorf("%s has %v", e.ID, e.Components)
		}
	}
	f.get("/api/entities?with=inspect_test.Position&with=inspect_test.Burning&without=inspect_test.Health&limit=10000", &p)
	if p.Total != wantN {
		t.Errorf("repeated with: %d, want %d", p.Total, wantN)
	}
	f.get("/api/entities?with="+posName+"&offset=1000", &p)
	if p.Total != 167 || len(p.Entities) != 0 {
		t.Errorf("past the end: total %d, %d listed", p.Total, len(p.Entities))
	}
	for _, c := range []struct{ query, want string }{
		{"limit=10001", "limit=\"10001\": want an integer from 1 to 10000"},
		{"limit=0", "limit"},
		{"offset=-1", "offset"},
		{"offset=x", "offset"},
		{"with=NoSuch", `unknown component "NoSuch"`},
		{"without=inspect_test.Nope", "unknown component"},
	} {
		status, body := f.call(http.MethodGet, "/api/entities?"+c.query, "")
		wantError(t, c.query, status, body, http.StatusBadRequest, c.want)
	}
}

type entityDetail struct {
	ID         string
	Components []struct {
		Name, GoType, Storage, Text string
		Value                       json.RawMessage
	}
}

func (d entityDetail) value(goType string) string {
	for _, c := range d.Components {
		if c.GoType == goType {
			return string(c.Value)
		}
	}
	return ""
}

func TestEntityEndpoint(t *testing.T) {
	f := newFixture(t)
	var d entityDetail
	e := f.es[15]
	f.get("/api/entities/"+e.String(), &d)
	if d.ID != e.String() || len(d.Components) != 3 || d.value("inspect_test.Position") != `{"X":15,"Y":0}` ||
		d.value("inspect_test.Burning") != `{"Left":2}` || d.Components[2].Storage != "sparse" {
		t.Errorf("entity %v: %+v", e, d)
	}
	// A type with a String method is shown as that too; one without is not.
	if d.Components[2].Text != "burning for 2.0 s" || d.Components[0].Text != "" {
		t.Errorf("texts %q and %q, want Burning's String() and none for Position", d.Components[2].Text, d.Components[0].Text)
	}
	f.w.Despawn(f.es[16])
	for _, c := range []struct{ id, want string }{
		{f.es[16].String(), "is not alive"},
		{fmt.Sprintf("%dv%d", e.Index(), e.Generation()+1), "is not alive"},
		{"17", "want INDEXvGENERATION"},
		{"v", "want INDEXvGENERATION"},
		{"99999999999v0", "want INDEXvGENERATION"},
		{"0v0", "is not alive"},
	} {
		status, body := f.call(http.MethodGet, "/api/entities/"+c.id, "")
		wantError(t, c.id, status, body, http.StatusBadRequest, c.want)
	}
}

func TestSystemsEndpoint(t *testing.T) {
	f := newFixture(t)
	f.s.Run()
	var out struct {
		Scheduler bool
		Plan      string
		Systems   []struct {
			Name    string
			Stage   int
			Enabled bool
			Runs    int64
		}
	}
	f.get("/api/systems", &out)
	if !out.Scheduler || !strings.Contains(out.Plan, "move") || len(out.Systems) != 2 ||
		out.Systems[0].Name != "move" || !out.Systems[0].Enabled || out.Systems[0].Runs != 1 {
		t.Errorf("systems: %+v", out)
	}
	g := &fixture{t: t, w: ecs.NewWorld()}
	g.in = inspect.New(g.w, inspect.Locker(&g.mu))
	g.srv = newServer(t, g.in)
	g.get("/api/systems", &out)
	if out.Scheduler || len(out.Systems) != 0 {
		t.Errorf("no scheduler: %+v", out)
	}
}

type Pair[A, B any] struct {
	A A
	B B
}

// TestGenericNames filters by a generic type, whose name has a comma.
func TestGenericNames(t *testing.T) {
	f := newFixture(t)
	m := ecs.NewMap[Pair[int, string]](f.w)
	m.Add(f.es[0], Pair[int, string]{1, "a"})
	m.Add(f.es[1], Pair[int, string]{2, "b"})
	var p entityPage
	name := ecs.C[Pair[int, string]]().String()
	if !strings.Contains(name, ",") {
		t.Fatalf("the test needs a name with a comma, got %s", name)
	}
	f.get("/api/entities?with="+url.QueryEscape(name+", inspect_test.Velocity"), &p)
	if p.Total != 1 || p.Entities[0].ID != f.es[0].String() {
		t.Errorf("with %s and Velocity: %+v", name, p)
	}
}

type Explosive struct{ N int }

func (Explosive) MarshalJSON() ([]byte, error) { panic("boom") }

func TestMarshalPanicIsPerComponent(t *testing.T) {
	f := newFixture(t)
	ecs.NewMap[Explosive](f.w).Add(f.es[0], Explosive{})
	var d struct {
		Components []struct {
			GoType string
			Value  json.RawMessage
			Error  string
		}
	}
	f.get("/api/entities/"+f.es[0].String(), &d)
	for _, c := range d.Components {
		if (c.GoType == "inspect_test.Explosive") != (c.Error == "panic while encoding: boom") {
			t.Errorf("%s: %s, error %q", c.GoType, c.Value, c.Error)
		}
	}
}

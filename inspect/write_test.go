package inspect_test

import (
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

const healthName = "github.com/tessera-ecs/tessera/inspect_test.Health"

func TestSetComponent(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	e := f.es[1] // Position, Health
	status, body := f.write(http.MethodPut, "/api/entities/"+e.String()+"/components/"+healthName, `{"HP": 42}`)
	var d entityDetail
	if status != http.StatusOK || json.Unmarshal(body, &d) != nil || d.value("inspect_test.Health") != `{"HP":42}` {
		t.Fatalf("PUT Health: %d %s", status, body)
	}
	if hp := ecs.NewMap[Health](f.w).Get(e).HP; hp != 42 || f.sets != 1 {
		t.Errorf("HP %d, %d OnSet calls; want 42 and 1", hp, f.sets)
	}
	// An add by the Go name, moving the entity to another table.
	status, body = f.write(http.MethodPut, "/api/entities/"+e.String()+"/components/inspect_test.Velocity", `{"X": -1}`)
	if status != http.StatusOK || ecs.NewMap[Velocity](f.w).Get(e).X != -1 {
		t.Errorf("PUT Velocity: %d %s", status, body)
	}
	// Entities inside values get the world's tag.
	target := f.es[3]
	status, body = f.write(http.MethodPut, "/api/entities/"+e.String()+"/components/inspect_test.Follow",
		`{"Target": {"index": `+itoa(target.Index())+`, "generation": 0}}`)
	if got := ecs.NewMap[Follow](f.w).Get(e).Target; status != http.StatusOK || got != target {
		t.Errorf("PUT Follow: %d %s, target %v want %v", status, body, got, target)
	}
}

// TestRefusedWrites sends every kind of bad write and checks each answers
// its status with a JSON error naming the problem and changes nothing.
func TestRefusedWrites(t *testing.T) {
	f := newFixture(t, inspect.Token(token), inspect.MaxBody(256))
	e := f.es[1].String()
	dead := f.es[2]
	f.w.Despawn(dead)
	put := "/api/entities/" + e + "/components/inspect_test.Health"
	auth := []string{"Authorization", "Bearer " + token}
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		want                     string
	}{
		{"no token", http.MethodPut, put, `{"HP":1}`, nil, 403, "Authorization: Bearer"},
		{"wrong token", http.MethodPut, put, `{"HP":1}`, []string{"Authorization", "Bearer nope"}, 403, "token"},
		{"token prefix", http.MethodPut, put, `{"HP":1}`, []string{"Authorization", "Bearer " + token[:5]}, 403, "token"},
		{"basic auth", http.MethodPut, put, `{"HP":1}`, []string{"Authorization", "Basic " + token}, 403, "token"},
		{"malformed JSON", http.MethodPut, put, `{"HP":`, auth, 400, "unexpected EOF"},
		{"wrong kind", http.MethodPut, put, `{"HP":"many"}`, auth, 400, `component inspect_test.Health: field "HP": want a number (int), got the string "many"`},
		{"unknown field", http.MethodPut, put, `{"HP":1,"MP":2}`, auth, 400, `unknown field "MP"`},
		{"two values", http.MethodPut, put, `{"HP":1}{"HP":2}`, auth, 400, "data after the value"},
		{"unknown component", http.MethodPut, "/api/entities/" + e + "/components/Mana", `{}`, auth, 400, `unknown component "Mana"`},
		{"dead entity", http.MethodPut, "/api/entities/" + dead.String() + "/components/inspect_test.Health", `{"HP":1}`, auth, 400, "is not alive"},
		{"bad id", http.MethodPut, "/api/entities/x/components/inspect_test.Health", `{"HP":1}`, auth, 400, "INDEXvGENERATION"},
		{"too large", http.MethodPut, put, `{"HP":1` + strings.Repeat(" ", 300) + `}`, auth, 413, "larger than 256 bytes"},
		{"remove absent", http.MethodDelete, "/api/entities/" + e + "/components/inspect_test.Velocity", "", auth, 400, "has no"},
		{"remove unknown", http.MethodDelete, "/api/entities/" + e + "/components/Mana", "", auth, 400, "unknown component"},
		{"despawn dead", http.MethodDelete, "/api/entities/" + dead.String(), "", auth, 400, "is not alive"},
		{"despawn no token", http.MethodDelete, "/api/entities/" + e, "", nil, 403, "token"},
		{"spawn unknown", http.MethodPost, "/api/entities", `{"components":{"inspect_test.Health":{"HP":1},"Mana":{}}}`, auth, 400, `unknown component "Mana"`},
		{"spawn bad value", http.MethodPost, "/api/entities", `{"components":{"inspect_test.Health":{"HP":1},"inspect_test.Position":{"X":"a"}}}`, auth, 400, `component inspect_test.Position: field "X": want a number (float64)`},
		{"spawn twice", http.MethodPost, "/api/entities", `{"components":{"inspect_test.Health":{"HP":1},"` + healthName + `":{"HP":2}}}`, auth, 400, "given twice"},
		{"spawn unknown key", http.MethodPost, "/api/entities", `{"comps":{}}`, auth, 400, `unknown field "comps"`},
		{"system no body", http.MethodPut, "/api/systems/move", `{}`, auth, 400, `"enabled"`},
		{"system unknown", http.MethodPut, "/api/systems/fly", `{"enabled":false}`, auth, 400, "fly"},
		{"system bad kind", http.MethodPut, "/api/systems/move", `{"enabled":"no"}`, auth, 400, "bool"},
		{"loop without loop", http.MethodPost, "/api/loop/pause", "", auth, 409, "no loop"},
		{"method", http.MethodPost, put, `{}`, auth, 405, "method POST not allowed"},
		{"GET only", http.MethodPost, "/api/world", "", auth, 405, "not allowed"},
		{"unknown path", http.MethodGet, "/api/nothing", "", nil, 404, "no such endpoint"},
	}
	before := f.checksum()
	for _, c := range cases {
		status, body := f.call(c.method, c.path, c.body, c.headers...)
		wantError(t, c.name, status, body, c.status, c.want)
		if f.checksum() != before || f.sets != 0 || f.w.Len() != 249 {
			t.Fatalf("%s changed the world", c.name)
		}
	}
	for _, s := range f.s.Stats() {
		if !s.Enabled {
			t.Errorf("a refused write disabled %s", s.Name)
		}
	}
}

func TestWritesOffWithoutToken(t *testing.T) {
	f := newFixture(t)
	before := f.checksum()
	status, body := f.call(http.MethodDelete, "/api/entities/"+f.es[0].String(), "", "Authorization", "Bearer anything")
	wantError(t, "despawn without a token configured", status, body, 403, "writes are off")
	if f.checksum() != before {
		t.Error("the world changed")
	}
}

func TestRemoveDespawnSpawn(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	e := f.es[0] // Position, Velocity, Burning
	status, body := f.write(http.MethodDelete, "/api/entities/"+e.String()+"/components/inspect_test.Burning", "")
	var d entityDetail
	if status != 200 || json.Unmarshal(body, &d) != nil || len(d.Components) != 2 || ecs.NewMap[Burning](f.w).Has(e) {
		t.Errorf("remove Burning: %d %s", status, body)
	}
	status, body = f.write(http.MethodDelete, "/api/entities/"+e.String(), "")
	if status != 200 || !strings.Contains(string(body), `"despawned":"`+e.String()+`"`) || f.w.Alive(e) {
		t.Errorf("despawn: %d %s", status, body)
	}
	n := f.w.Len()
	status, body = f.write(http.MethodPost, "/api/entities", `{"components":{"inspect_test.Health":{"HP":7},"inspect_test.Burning":{"Left":1.5}}}`)
	if status != http.StatusCreated || json.Unmarshal(body, &d) != nil || f.w.Len() != n+1 {
		t.Fatalf("spawn: %d %s", status, body)
	}
	idx, gen, _ := strings.Cut(d.ID, "v")
	spawned, ok := f.w.Reflect().EntityAt(atoi(idx))
	if !ok || itoa(spawned.Generation()) != gen || ecs.NewMap[Health](f.w).Get(spawned).HP != 7 || ecs.NewMap[Burning](f.w).Get(spawned).Left != 1.5 {
		t.Errorf("spawned %s: %+v", d.ID, d)
	}
	status, body = f.write(http.MethodPost, "/api/entities", `{}`)
	if status != http.StatusCreated || f.w.Len() != n+2 {
		t.Errorf("empty spawn: %d %s", status, body)
	}
}

func TestEnableSystem(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	status, body := f.write(http.MethodPut, "/api/systems/score", `{"enabled": false}`)
	if status != 200 || !strings.Contains(string(body), `"enabled":false`) {
		t.Fatalf("disable: %d %s", status, body)
	}
	f.s.Run()
	if got := ecs.GetResource[Score](f.w).Points; got != 3 {
		t.Errorf("a disabled system ran: Points %d", got)
	}
	f.write(http.MethodPut, "/api/systems/score", `{"enabled": true}`)
	f.s.Run()
	if got := ecs.GetResource[Score](f.w).Points; got != 4 {
		t.Errorf("an enabled system did not run: Points %d", got)
	}
}

type Trap struct{ Armed bool } // its OnAdd panics
type Doom struct{ Now bool }   // its OnAdd despawns the entity
type Odd struct{ F float64 }   // NaN cannot be written as JSON

// TestWritesThatHooksRefuse covers the answers of writes that hooks
// turn: a panic answers 500 and leaves the world usable, a despawn is
// reported as such, and a value JSON cannot hold is shown with its error.
func TestWritesThatHooksRefuse(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	ecs.OnAdd(f.w, func(e ecs.Entity, v *Trap) { panic("trap sprung on " + e.String()) })
	ecs.OnAdd(f.w, func(e ecs.Entity, v *Doom) { f.w.Despawn(e) })
	ecs.NewMap[Odd](f.w).Add(f.es[0], Odd{F: math.NaN()})
	e := f.es[1].String()
	status, body := f.write(http.MethodPut, "/api/entities/"+e+"/components/inspect_test.Trap", `{"Armed": true}`)
	wantError(t, "a panicking hook", status, body, http.StatusInternalServerError, "trap sprung on "+e)
	if f.w.IsIterating() || f.w.Pending() != 0 {
		t.Errorf("the world was left mid-change: iterating %v, %d pending", f.w.IsIterating(), f.w.Pending())
	}
	status, body = f.write(http.MethodPut, "/api/entities/"+e+"/components/inspect_test.Health", `{"HP": 1}`)
	if status != 200 {
		t.Errorf("a write after the panic: %d %s", status, body)
	}
	status, body = f.write(http.MethodPut, "/api/entities/"+e+"/components/inspect_test.Doom", `{"Now": true}`)
	if status != 200 || string(body) != `{"despawned":"`+e+`"}`+"\n" || f.w.Alive(f.es[1]) {
		t.Errorf("a hook that despawns: %d %s", status, body)
	}
	var d struct {
		Components []struct {
			GoType string
			Value  json.RawMessage
			Error  string
		}
	}
	f.get("/api/entities/"+f.es[0].String(), &d)
	found := false
	for _, c := range d.Components {
		if c.GoType == "inspect_test.Odd" {
			found = true
			if string(c.Value) != "null" || !strings.Contains(c.Error, "unsupported value: NaN") {
				t.Errorf("NaN component: %s, error %q", c.Value, c.Error)
			}
		}
	}
	if !found {
		t.Error("the Odd component is not listed")
	}
}

// TestRunAsFastAsItCan drives the loop with tps 0 and checks it ticks and
// stops with its context.
func TestRunAsFastAsItCan(t *testing.T) {
	f := newFixture(t)
	f.looped(0)
	f.waitFor("ticks at full speed", func(s summary) bool { return s.Tick > 100 })
}

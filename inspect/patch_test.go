package inspect_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// Vec, Meta and Body are the component types of the strict write tests:
// nested structs, a pointer, a map, a slice, small integers, a JSON tag
// and a promoted field.
type Vec struct{ X, Y float64 }

type Meta struct{ Level int }

type Body struct {
	Meta
	Name   string
	Pos    Vec
	Vel    *Vec
	Tags   map[string]int
	Path   []Vec
	Small  int8
	Mask   uint8 `json:"mask"`
	Hidden int   `json:"-"`
}

const bodyName = "github.com/tessera-ecs/tessera/inspect_test.Body"

// bodyWorld serves a world of one entity with a full Body and a Health,
// with writes on, under a mutex. sets counts OnSet[Body] calls.
type bodyWorld struct {
	*fixture
	e    ecs.Entity
	body *ecs.Map[Body]
}

func newBodyWorld(t testing.TB) *bodyWorld {
	w := ecs.NewWorld()
	f := &fixture{t: t, w: w}
	bodies := ecs.NewMap[Body](w)
	ecs.NewMap[Health](w)
	e := bodies.Spawn(fullBody())
	ecs.NewMap[Health](w).Add(e, Health{HP: 10})
	ecs.OnSet(w, func(ecs.Entity, *Body) { f.sets++ })
	f.in = newInspector(t, w, &f.mu, inspect.Token(token))
	f.srv = newServer(t, f.in)
	return &bodyWorld{fixture: f, e: e, body: bodies}
}

func fullBody() Body {
	return Body{Meta: Meta{Level: 2}, Name: "ship", Pos: Vec{1, 2}, Vel: &Vec{3, 4},
		Tags: map[string]int{"a": 1, "b": 2}, Path: []Vec{{1, 1}, {2, 2}, {3, 3}}, Small: -5, Mask: 7}
}

func (b *bodyWorld) path() string {
	return "/api/entities/" + b.e.String() + "/components/inspect_test.Body"
}

// patch sends a PATCH of body with the token and the merge patch type.
func (b *bodyWorld) patch(body string, headers ...string) (int, []byte) {
	b.t.Helper()
	h := append([]string{"Authorization", "Bearer " + token, "Content-Type", "application/merge-patch+json"}, headers...)
	return b.call(http.MethodPatch, b.path(), body, h...)
}

func (b *bodyWorld) get() Body {
	b.mu.Lock()
	defer b.mu.Unlock()
	v := *b.body.Get(b.e)
	if v.Vel != nil {
		vel := *v.Vel
		v.Vel = &vel
	}
	return v
}

// TestPatchMerges applies merge patches (RFC 7386) and checks each
// changes what it names and keeps the rest.
func TestPatchMerges(t *testing.T) {
	b := newBodyWorld(t)
	for _, c := range []struct {
		name, patch string
		change      func(*Body)
	}{
		{"one field", `{"Name": "boat"}`, func(v *Body) { v.Name = "boat" }},
		{"nothing", `{}`, func(*Body) {}},
		{"nested merge", `{"Pos": {"Y": 5}}`, func(v *Body) { v.Pos.Y = 5 }},
		{"null zeroes a field", `{"Pos": {"X": null}, "Small": null}`, func(v *Body) { v.Pos.X, v.Small = 0, 0 }},
		{"null zeroes a pointer", `{"Vel": null}`, func(v *Body) { v.Vel = nil }},
		{"merge into a nil pointer", `{"Vel": {"Y": 9}}`, func(v *Body) { v.Vel = &Vec{Y: 9} }},
		{"merge into a pointer", `{"Vel": {"X": 8}}`, func(v *Body) { v.Vel.X = 8 }},
		{"null removes a map entry", `{"Tags": {"a": null, "c": 3}}`, func(v *Body) { v.Tags = map[string]int{"b": 2, "c": 3} }},
		{"array replaced whole", `{"Path": [{"X": 9}]}`, func(v *Body) { v.Path = []Vec{{X: 9}} }},
		{"empty array", `{"Path": []}`, func(v *Body) { v.Path = []Vec{} }},
		{"tagged and promoted fields", `{"mask": 255, "Level": 7}`, func(v *Body) { v.Mask, v.Level = 255, 7 }},
		{"ranges' ends", `{"Small": -128, "Pos": {"X": 1e308}}`, func(v *Body) { v.Small, v.Pos.X = -128, 1e308 }},
	} {
		want := b.get()
		c.change(&want)
		sets := b.sets
		status, body := b.patch(c.patch)
		var d entityDetail
		if status != http.StatusOK || json.Unmarshal(body, &d) != nil || d.ID != b.e.String() {
			t.Fatalf("%s: PATCH %s: %d %s", c.name, c.patch, status, body)
		}
		if got := b.get(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: PATCH %s gave\n%+v; want\n%+v", c.name, c.patch, got, want)
		}
		if b.sets != sets+1 {
			t.Errorf("%s: %d OnSet calls; want 1", c.name, b.sets-sets)
		}
	}
	// Plain JSON and no type at all are read as a merge patch too.
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", ""} {
		status, body := b.call(http.MethodPatch, b.path(), `{"Name": "`+ct+`"}`, "Authorization", "Bearer "+token, "Content-Type", ct)
		if status != http.StatusOK || b.get().Name != ct {
			t.Errorf("PATCH as %q: %d %s, name %q", ct, status, body, b.get().Name)
		}
	}
}

// TestPutReplaces checks that PUT keeps its meaning: the body is the whole
// value, and a field it leaves out is zero.
func TestPutReplaces(t *testing.T) {
	b := newBodyWorld(t)
	status, body := b.call(http.MethodPut, b.path(), `{"Name": "raft", "Pos": {"Y": 1}}`, "Authorization", "Bearer "+token)
	if got := b.get(); status != http.StatusOK || !reflect.DeepEqual(got, Body{Name: "raft", Pos: Vec{Y: 1}}) {
		t.Errorf("PUT: %d %s, value %+v", status, body, got)
	}
}

// TestStrictWritesRefused sends PATCH and PUT bodies that name fields the
// type lacks, or values that do not fit: each is a 400 naming the
// component type and the field, and nothing changes.
func TestStrictWritesRefused(t *testing.T) {
	b := newBodyWorld(t)
	const typ = "component inspect_test.Body: "
	cases := []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"unknown field", http.MethodPatch, `{"Name": "x", "Speed": 3}`, 400, typ + `unknown field "Speed"`},
		{"case misspelt", http.MethodPatch, `{"name": "x"}`, 400, typ + `unknown field "name" (did you mean "Name"?)`},
		{"misspelt nested field", http.MethodPatch, `{"Pos": {"x": 1}}`, 400, typ + `unknown field "Pos.x" (did you mean "Pos.X"?)`},
		{"typo nested field", http.MethodPatch, `{"Vel": {"Z": 1}}`, 400, typ + `unknown field "Vel.Z"`},
		{"unknown field in an array", http.MethodPatch, `{"Path": [{"X": 1}, {"W": 2}]}`, 400, typ + `unknown field "Path[1].W"`},
		{"field hidden by a tag", http.MethodPatch, `{"Hidden": 1}`, 400, typ + `unknown field "Hidden"`},
		{"Go name of a tagged field", http.MethodPatch, `{"Mask": 1}`, 400, typ + `unknown field "Mask" (did you mean "mask"?)`},
		{"string into a float", http.MethodPatch, `{"Pos": {"X": "far"}}`, 400, typ + `field "Pos.X": want a number (float64), got the string "far"`},
		{"number into a string", http.MethodPatch, `{"Name": 3}`, 400, typ + `field "Name": want a string (string), got the number 3`},
		{"int8 out of range", http.MethodPatch, `{"Small": 300}`, 400, typ + `field "Small": 300 is out of range for int8`},
		{"uint8 negative", http.MethodPatch, `{"mask": -1}`, 400, typ + `field "mask": -1 is out of range for uint8`},
		{"fraction into an int", http.MethodPatch, `{"Small": 1.5}`, 400, typ + `field "Small": 1.5 is not written as an integer`},
		{"float64 out of range", http.MethodPatch, `{"Pos": {"Y": 1e999}}`, 400, typ + `field "Pos.Y": 1e999 is out of range for float64`},
		{"map value", http.MethodPatch, `{"Tags": {"a": "one"}}`, 400, typ + `field "Tags[\"a\"]": want a number (int)`},
		{"array element", http.MethodPatch, `{"Path": [{"X": 1}, {"Y": true}]}`, 400, typ + `field "Path[1].Y": want a number (float64), got true`},
		{"object for an array", http.MethodPatch, `{"Path": {"X": 1}}`, 400, typ + `field "Path": want an array`},
		{"null patch", http.MethodPatch, `null`, 400, typ + `a merge patch of null`},
		{"number for a struct", http.MethodPatch, `7`, 400, typ + `want an object (inspect_test.Body), got the number 7`},
		{"malformed", http.MethodPatch, `{"Name": `, 400, typ + `unexpected EOF`},
		{"two values", http.MethodPatch, `{} {}`, 400, typ + `data after the value`},
		{"put unknown field", http.MethodPut, `{"Name": "x", "Pos": {"Z": 1}}`, 400, typ + `unknown field "Pos.Z"`},
		{"put case misspelt", http.MethodPut, `{"NAME": "x"}`, 400, typ + `unknown field "NAME" (did you mean "Name"?)`},
		{"put out of range", http.MethodPut, `{"Small": 128}`, 400, typ + `field "Small": 128 is out of range for int8`},
		{"put null", http.MethodPut, `null`, 400, typ + `null is not a value`},
	}
	before := b.checksum()
	for _, c := range cases {
		status, body := b.call(c.method, b.path(), c.body, "Authorization", "Bearer "+token, "Content-Type", "application/merge-patch+json")
		wantError(t, c.name, status, body, c.status, c.want)
		if b.checksum() != before || b.sets != 0 {
			t.Fatalf("%s changed the world", c.name)
		}
	}
	if got := b.get(); !reflect.DeepEqual(got, fullBody()) {
		t.Errorf("after refused writes: %+v", got)
	}
}

// TestPatchRefusals checks the refusals of PATCH that are not about the
// body's fields: media type, token, a component the entity lacks.
func TestPatchRefusals(t *testing.T) {
	b := newBodyWorld(t)
	before := b.checksum()
	for _, ct := range []string{"application/json-patch+json", "text/plain", "application/x-www-form-urlencoded", "not a type"} {
		req, _ := http.NewRequest(http.MethodPatch, b.srv.URL+b.path(), strings.NewReader(`{"Name": "x"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType || resp.Header.Get("Accept-Patch") != "application/merge-patch+json" ||
			!strings.Contains(e.Error, "application/merge-patch+json") {
			t.Errorf("PATCH as %q: %d, Accept-Patch %q, %q", ct, resp.StatusCode, resp.Header.Get("Accept-Patch"), e.Error)
		}
	}
	status, body := b.call(http.MethodPatch, b.path(), `{"Name": "x"}`, "Content-Type", "application/merge-patch+json")
	if b.checksum() != before {
		t.Error("a PATCH of another media type changed the world")
	}
	wantError(t, "no token", status, body, http.StatusForbidden, "Authorization: Bearer")
	// A type the world does not know, then one it knows and the entity lacks.
	other := "/api/entities/" + b.e.String() + "/components/inspect_test.Position"
	status, body = b.call(http.MethodPatch, other, `{}`, "Authorization", "Bearer "+token)
	wantError(t, "unknown component", status, body, http.StatusBadRequest, `unknown component "inspect_test.Position"`)
	b.mu.Lock()
	ecs.NewMap[Health](b.w).Remove(b.e)
	before = b.w.Checksum()
	b.mu.Unlock()
	status, body = b.call(http.MethodPatch, "/api/entities/"+b.e.String()+"/components/inspect_test.Health", `{"HP": 1}`, "Authorization", "Bearer "+token)
	wantError(t, "absent component", status, body, http.StatusNotFound, "has no github.com/tessera-ecs/tessera/inspect_test.Health: PUT adds a component")
	if b.checksum() != before {
		t.Error("a refused PATCH changed the world")
	}
}

// TestSpawnIsStrict checks that POST /api/entities reads each component
// as strictly as PUT does.
func TestSpawnIsStrict(t *testing.T) {
	b := newBodyWorld(t)
	n := b.w.Len()
	status, body := b.write(http.MethodPost, "/api/entities", `{"components": {"`+bodyName+`": {"Pos": {"y": 1}}}}`)
	wantError(t, "spawn", status, body, http.StatusBadRequest, `component inspect_test.Body: unknown field "Pos.y" (did you mean "Pos.Y"?)`)
	if b.w.Len() != n {
		t.Error("a refused spawn spawned")
	}
}

package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// readBody returns the request's body, which ServeHTTP has read into
// memory already, under the limit and the deadline (takeBody).
func readBody(r *http.Request) ([]byte, *httpError) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, badRequest("reading the body: %v", err)
	}
	return data, nil
}

// decodeStrict reads exactly one JSON value of dst's type from data,
// refusing unknown fields.
func decodeStrict(data []byte, dst any) *httpError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return badRequest("body: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("body: data after the JSON value")
	}
	return nil
}

// afterWrite answers a write to e: the entity as it is now, or that a hook
// or observer despawned it.
func (in *Inspector) afterWrite(e ecs.Entity) any {
	if !in.w.Alive(e) {
		return map[string]string{"despawned": e.String()}
	}
	return in.entity(e)
}

// setComponent gives the entity the component from the JSON body, adding
// it or replacing its value whole (fields the body leaves out are zero),
// through a command buffer (so hooks and observers fire as for any other
// add or set). The body is read strictly (strictValue).
func (in *Inspector) setComponent(id, name string, body []byte) (any, *httpError) {
	e, c, err := in.entityComponent(id, name)
	if err != nil {
		return nil, err
	}
	v, err := in.strictValue(c, body)
	if err != nil {
		return nil, err
	}
	cmds := in.w.NewCommands()
	cmds.SetValue(e, v)
	in.w.Apply(cmds)
	return in.afterWrite(e), nil
}

// entityComponent resolves the entity and component of a component path.
func (in *Inspector) entityComponent(id, name string) (ecs.Entity, ecs.ComponentInfo, *httpError) {
	e, err := parseEntity(in.w, id)
	if err != nil {
		return e, ecs.ComponentInfo{}, err
	}
	c, err := component(in.w, name)
	return e, c, err
}

func (in *Inspector) removeComponent(id, name string) (any, *httpError) {
	e, c, err := in.entityComponent(id, name)
	if err != nil {
		return nil, err
	}
	if _, has := in.w.Reflect().Value(e, c.Type); !has {
		return nil, badRequest("entity %v has no %s", e, c.Name)
	}
	cmds := in.w.NewCommands()
	cmds.RemoveValue(e, c.Type)
	in.w.Apply(cmds)
	return in.afterWrite(e), nil
}

func (in *Inspector) despawn(id string) (any, *httpError) {
	e, err := parseEntity(in.w, id)
	if err != nil {
		return nil, err
	}
	cmds := in.w.NewCommands()
	cmds.Despawn(e)
	in.w.Apply(cmds)
	return map[string]string{"despawned": e.String()}, nil
}

// spawnRequest is the body of POST /api/entities.
type spawnRequest struct {
	Components map[string]json.RawMessage `json:"components"`
}

// spawn makes an entity with the components of the body, all decoded
// before anything changes, added in the order of their stable names.
func (in *Inspector) spawn(body []byte) (any, *httpError) {
	var req spawnRequest
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	type named struct {
		name string
		v    any
	}
	var vals []named
	for _, name := range slices.Sorted(maps.Keys(req.Components)) {
		raw := req.Components[name]
		c, err := component(in.w, name)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(vals, func(n named) bool { return n.name == c.Name }) {
			return nil, badRequest("component %s given twice", c.Name)
		}
		v, err := in.strictValue(c, raw)
		if err != nil {
			return nil, err
		}
		vals = append(vals, named{c.Name, v})
	}
	slices.SortFunc(vals, func(a, b named) int {
		if a.name < b.name {
			return -1
		}
		return 1
	})
	cmds := in.w.NewCommands()
	pending := cmds.Spawn()
	for _, n := range vals {
		cmds.SetValue(pending, n.v)
	}
	in.w.Apply(cmds)
	e, _ := cmds.Resolve(pending)
	return in.afterWrite(e), nil
}

// systemRequest is the body of PUT /api/systems/{name}.
type systemRequest struct {
	Enabled *bool `json:"enabled"`
}

func (in *Inspector) setSystem(name string, body []byte) (any, *httpError) {
	if in.s == nil {
		return nil, errorf(http.StatusConflict, "no scheduler attached (inspect.Scheduler)")
	}
	var req systemRequest
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	if req.Enabled == nil {
		return nil, badRequest(`body: want {"enabled": true} or {"enabled": false}`)
	}
	if err := in.s.Enable(name, *req.Enabled); err != nil {
		return nil, badRequest("%v", err)
	}
	list, _ := in.systems()
	for _, row := range list.(systemList).Systems {
		if row.Name == name {
			return row, nil
		}
	}
	return nil, errorf(http.StatusInternalServerError, "system %q vanished", name)
}

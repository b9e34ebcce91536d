package inspect

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

// worldSummary is the answer of GET /api/world.
type worldSummary struct {
	Entities       int      `json:"entities"`
	Tables         int      `json:"tables"`
	Components     int      `json:"components"`
	Resources      int      `json:"resources"`
	MemoryBytes    int      `json:"memoryBytes"`
	Tick           uint64   `json:"tick"`
	TicksPerSecond float64  `json:"ticksPerSecond"`
	Paused         bool     `json:"paused"`
	Loop           bool     `json:"loop"`
	Writes         bool     `json:"writes"`
	TickTime       tickTime `json:"tickTime"`
}

func (in *Inspector) summary() (any, *httpError) {
	st := in.w.Stats()
	s := worldSummary{
		Entities: st.Entities, Tables: len(st.Tables), Components: len(st.Components),
		Resources: len(in.w.Reflect().Resources()), MemoryBytes: st.TotalBytes,
		Tick: in.tick(), Paused: in.paused, Loop: in.looping.Load(), Writes: in.policy.Token != nil,
	}
	s.TickTime, s.TicksPerSecond = in.samples.summary(time.Now())
	return s, nil
}

// componentRow is one entry of GET /api/components.
type componentRow struct {
	Name    string `json:"name"`
	GoType  string `json:"goType"`
	Storage string `json:"storage"`
	Count   int    `json:"count"`
	Size    int    `json:"size"`
	Bytes   int    `json:"bytes"`
	Tracked bool   `json:"tracked"`
}

func (in *Inspector) componentList() (any, *httpError) {
	st := in.w.Stats()
	rows := []componentRow{}
	for i, c := range in.w.Reflect().Components() {
		rows = append(rows, componentRow{c.Name, c.GoType.String(), c.Storage.String(), c.Count, int(c.GoType.Size()), st.Components[i].Bytes, c.Tracked})
	}
	return map[string]any{"components": rows}, nil
}

// tableRow is one entry of GET /api/tables.
type tableRow struct {
	Index      int      `json:"index"`
	Components []string `json:"components"`
	Rows       int      `json:"rows"`
	Capacity   int      `json:"capacity"`
	Bytes      int      `json:"bytes"`
}

func (in *Inspector) tableList() (any, *httpError) {
	names := map[reflect.Type]string{}
	for _, c := range in.w.Reflect().Components() {
		names[c.GoType] = c.Name
	}
	rows := []tableRow{}
	for i, t := range in.w.Stats().Tables {
		row := tableRow{Index: i, Components: []string{}, Rows: t.Rows, Capacity: t.Capacity, Bytes: t.Bytes}
		for _, ct := range t.Components {
			name, ok := names[ct]
			if !ok { // a type a relation keeps its pairs in
				name = ct.String()
			}
			row.Components = append(row.Components, name)
		}
		rows = append(rows, row)
	}
	return map[string]any{"tables": rows}, nil
}

// resourceRow is one entry of GET /api/resources; Error says why Value is
// null when the resource cannot be written as JSON.
type resourceRow struct {
	Name   string          `json:"name"`
	GoType string          `json:"goType"`
	Value  json.RawMessage `json:"value"`
	Error  string          `json:"error,omitempty"`
}

func (in *Inspector) resourceList() (any, *httpError) {
	rows := []resourceRow{}
	for _, r := range in.w.Reflect().Resources() {
		row := resourceRow{Name: r.Name, GoType: r.GoType.String()}
		row.Value, row.Error = marshalValue(r.Value)
		rows = append(rows, row)
	}
	return map[string]any{"resources": rows}, nil
}

// marshalValue writes v as JSON, or null and the reason (a MarshalJSON
// method that panics included).
func marshalValue(v any) (out json.RawMessage, reason string) {
	defer func() {
		if p := recover(); p != nil {
			out, reason = json.RawMessage("null"), fmt.Sprintf("panic while encoding: %v", p)
		}
	}()
	data, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null"), err.Error()
	}
	return data, ""
}

// Paging of GET /api/entities.
const (
	defaultLimit = 100
	maxLimit     = 10000
)

// entityRow is one entry of GET /api/entities.
type entityRow struct {
	ID         string   `json:"id"`
	Components []string `json:"components"`
}

// entityPage is the answer of GET /api/entities.
type entityPage struct {
	Total    int         `json:"total"`
	Offset   int         `json:"offset"`
	Limit    int         `json:"limit"`
	Entities []entityRow `json:"entities"`
}

// pageParams reads offset and limit: integers, offset >= 0 and limit from
// 1 to maxLimit (default defaultLimit).
func pageParams(r *http.Request) (offset, limit int, err *httpError) {
	return pageParamsUpTo(r, maxLimit)
}

// pageParamsUpTo is pageParams with a limit from 1 to maxLimit.
func pageParamsUpTo(r *http.Request, maxLimit int) (offset, limit int, err *httpError) {
	limit = defaultLimit
	for _, p := range []struct {
		name     string
		dst      *int
		min, max int
	}{{"offset", &offset, 0, math.MaxInt32}, {"limit", &limit, 1, maxLimit}} {
		s := r.URL.Query().Get(p.name)
		if s == "" {
			continue
		}
		n, e := strconv.Atoi(s)
		if e != nil || n < p.min || n > p.max {
			return 0, 0, badRequest("%s=%q: want an integer from %d to %d", p.name, s, p.min, p.max)
		}
		*p.dst = n
	}
	return offset, limit, nil
}

func (in *Inspector) entityList(r *http.Request, offset, limit int) (any, *httpError) {
	with, err := components(in.w, r.URL.Query()["with"])
	if err != nil {
		return nil, err
	}
	without, err := components(in.w, r.URL.Query()["without"])
	if err != nil {
		return nil, err
	}
	es, total := pageOf(in.w.Reflect().Entities(with, without), offset, limit)
	page := entityPage{Total: total, Offset: offset, Limit: limit, Entities: make([]entityRow, 0, len(es))}
	names := map[reflect.Type]string{}
	for _, c := range in.w.Reflect().Components() {
		names[c.GoType] = c.Name
	}
	var cts []ecs.ComponentType
	for _, e := range es {
		row := entityRow{ID: e.String(), Components: []string{}}
		cts = in.w.Reflect().ComponentsOf(e, cts[:0])
		for _, c := range cts {
			row.Components = append(row.Components, names[c.Type()])
		}
		page.Entities = append(page.Entities, row)
	}
	return page, nil
}

// valueRow is one component of GET /api/entities/{id}.
type valueRow struct {
	Name    string          `json:"name"`
	GoType  string          `json:"goType"`
	Storage string          `json:"storage"`
	Value   json.RawMessage `json:"value"`
	Error   string          `json:"error,omitempty"`
	Text    string          `json:"text,omitempty"` // String(), when the type has one
}

// stringOf is v's String() when v has one (the generated code of tessera
// gen gives every type one), "" otherwise or when it panics.
func stringOf(v any) (text string) {
	s, ok := v.(fmt.Stringer)
	if !ok {
		return ""
	}
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	return s.String()
}

// entityDetail is the answer of GET /api/entities/{id} and of the writes
// to one entity.
type entityDetail struct {
	ID         string     `json:"id"`
	Components []valueRow `json:"components"`
	entityRelations
}

func (in *Inspector) entity(e ecs.Entity) entityDetail {
	out := entityDetail{ID: e.String(), Components: []valueRow{}}
	infos := map[reflect.Type]ecs.ComponentInfo{}
	for _, c := range in.w.Reflect().Components() {
		infos[c.GoType] = c
	}
	for _, c := range in.w.Reflect().ComponentsOf(e, nil) {
		info := infos[c.Type()]
		v, _ := in.w.Reflect().Value(e, c)
		row := valueRow{Name: info.Name, GoType: info.GoType.String(), Storage: info.Storage.String()}
		row.Value, row.Error = marshalValue(v)
		row.Text = stringOf(v)
		out.Components = append(out.Components, row)
	}
	out.entityRelations = in.relationsOf(e)
	return out
}

// systemRow is one system of GET /api/systems.
type systemRow struct {
	Name    string `json:"name"`
	Stage   int    `json:"stage"`
	Enabled bool   `json:"enabled"`
	Runs    int64  `json:"runs"`
	LastNs  int64  `json:"lastNs"`
	MeanNs  int64  `json:"meanNs"`
	MaxNs   int64  `json:"maxNs"`
	TotalNs int64  `json:"totalNs"`
}

// systemList is the answer of GET /api/systems.
type systemList struct {
	Scheduler bool        `json:"scheduler"`
	Plan      string      `json:"plan"`
	Systems   []systemRow `json:"systems"`
}

func (in *Inspector) systems() (any, *httpError) {
	out := systemList{Systems: []systemRow{}}
	if in.s == nil {
		return out, nil
	}
	out.Scheduler, out.Plan = true, in.s.Plan()
	for _, st := range in.s.Stats() {
		out.Systems = append(out.Systems, systemRow{st.Name, st.Stage, st.Enabled, st.Runs,
			st.Last.Nanoseconds(), st.Mean.Nanoseconds(), st.Max.Nanoseconds(), st.Total.Nanoseconds()})
	}
	return out, nil
}

// pageOf returns the entities seq yields from the offset-th on (counting
// from 0), at most limit of them, and how many it yields in all, so a
// client can page through a large world. Complexity: O(entities seq
// yields).
func pageOf(seq iter.Seq[ecs.Entity], offset, limit int) ([]ecs.Entity, int) {
	var page []ecs.Entity
	total := 0
	for e := range seq {
		if total >= offset && len(page) < limit {
			page = append(page, e)
		}
		total++
	}
	return page, total
}

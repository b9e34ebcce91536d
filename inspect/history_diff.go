package inspect

import (
	"net/http"
	"strconv"

	"github.com/tessera-ecs/tessera/ecs"
)

// diffRow is one difference of a diff answer.
type diffRow struct {
	Kind   string `json:"kind"`   // "only in A", "only in B", "differs", "order differs"
	Part   string `json:"part"`   // "entities", "component", "relation", "resource"
	Type   string `json:"type"`   // the part's name: a component type's stable name, say
	Entity string `json:"entity"` // "7v1", or "" for a resource or the entity index
	Field  string `json:"field"`  // the field's path inside the value, "" for the whole value
	A      string `json:"a"`
	B      string `json:"b"`
}

// partRow counts the differences in one part.
type partRow struct {
	Part string `json:"part"`
	Type string `json:"type"`
	N    int    `json:"n"`
}

// diffAnswer is a diff report as JSON: the answer of GET
// /api/history/diff, and a branch's comparison with the main line.
type diffAnswer struct {
	A           uint64    `json:"a"` // the ticks compared; for a branch, both its last tick
	B           uint64    `json:"b"`
	Total       int       `json:"total"`
	Entities    int       `json:"entities"`
	Parts       []partRow `json:"parts"`
	Differences []diffRow `json:"differences"`
}

func diffJSON(a, b uint64, r ecs.DiffReport) *diffAnswer {
	out := &diffAnswer{A: a, B: b, Total: r.Total, Entities: r.Entities, Parts: []partRow{}, Differences: []diffRow{}}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, partRow{p.Part.String(), p.Type, p.N})
	}
	for _, d := range r.Differences {
		row := diffRow{Kind: d.Kind.String(), Part: d.Part.String(), Type: d.Type, Field: d.Field, A: d.A, B: d.B}
		if !d.Entity.IsZero() {
			row.Entity = d.Entity.String()
		}
		out.Differences = append(out.Differences, row)
	}
	return out
}

// diffQuery is the parameters of GET /api/history/diff.
type diffQuery struct {
	a, b  uint64
	limit int
}

// diffParams reads a and b (tick numbers, required) and limit (1 to
// maxLimit, default defaultLimit).
func diffParams(r *http.Request) (diffQuery, *httpError) {
	q := diffQuery{limit: defaultLimit}
	var err *httpError
	for _, p := range []struct {
		name string
		dst  *uint64
	}{{"a", &q.a}, {"b", &q.b}} {
		s := r.URL.Query().Get(p.name)
		if s == "" {
			return q, badRequest("%s: want the tick numbers a and b to compare", p.name)
		}
		if *p.dst, err = parseTick(p.name, s); err != nil {
			return q, err
		}
	}
	if s := r.URL.Query().Get("limit"); s != "" {
		n, e := strconv.Atoi(s)
		if e != nil || n < 1 || n > maxLimit {
			return q, badRequest("limit=%q: want an integer from 1 to %d", s, maxLimit)
		}
		q.limit = n
	}
	return q, nil
}

// diffTicks answers GET /api/history/diff: ecs.Diff of the ring's
// snapshots of two ticks, read where they are (the world is not touched).
func (in *Inspector) diffTicks(q diffQuery) (any, *httpError) {
	a, err := in.snapshotAt(q.a)
	if err != nil {
		return nil, err
	}
	b, err := in.snapshotAt(q.b)
	if err != nil {
		return nil, err
	}
	return diffJSON(q.a, q.b, ecs.Diff(a, b, q.limit)), nil
}

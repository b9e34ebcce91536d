package inspect

import (
	"encoding/json"
	"iter"
	"net/http"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// Bounds of the relation lists in an entity's detail: the rest is read
// page by page (GET /api/entities/{id}/pairs, GET /api/hierarchy/{id}).
const (
	relationLimit = 100 // pairs as source, as target, and children
	ancestorLimit = 100 // ancestors, nearest first
)

var childOf = reflect.TypeFor[ecs.ChildOf]()

// pairRow is one relation pair in an entity's detail and in GET
// /api/entities/{id}/pairs. Value is left out for a pair type without
// fields (a plain link such as ecs.ChildOf).
type pairRow struct {
	Relation string          `json:"relation"` // the pair type's stable name
	GoType   string          `json:"goType"`
	Source   string          `json:"source"`
	Target   string          `json:"target"`
	Value    json.RawMessage `json:"value,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// entityRelations is the relation part of GET /api/entities/{id}: the
// entity's place in the hierarchy (ecs.ChildOf) and its pairs of every
// relation, each list bounded by relationLimit with its full count beside
// it. Each member is left out when it is empty or zero: an entity in no
// relation answers as before relations were shown.
type entityRelations struct {
	Parent        string    `json:"parent,omitempty"`
	Ancestors     []string  `json:"ancestors,omitempty"`     // nearest first, at most ancestorLimit
	AncestorsMore bool      `json:"ancestorsMore,omitempty"` // more ancestors than listed
	Children      []string  `json:"children,omitempty"`      // in the order they were attached
	ChildCount    int       `json:"childCount,omitempty"`
	Pairs         []pairRow `json:"pairs,omitempty"` // as source
	PairCount     int       `json:"pairCount,omitempty"`
	TargetOf      []pairRow `json:"targetOf,omitempty"` // pairs whose target it is
	TargetOfCount int       `json:"targetOfCount,omitempty"`
}

// relationNames maps each declared relation's pair type to its info.
func (in *Inspector) relationNames() map[reflect.Type]ecs.RelationInfo {
	out := map[reflect.Type]ecs.RelationInfo{}
	for _, r := range in.w.Reflect().Relations() {
		out[r.GoType] = r
	}
	return out
}

// pairRowOf writes p for the API.
func pairRowOf(p ecs.PairInfo, infos map[reflect.Type]ecs.RelationInfo) pairRow {
	row := pairRow{Relation: infos[p.Relation].Name, GoType: p.Relation.String(), Source: p.Source.String(), Target: p.Target.String()}
	if !(p.Relation.Kind() == reflect.Struct && p.Relation.NumField() == 0) {
		row.Value, row.Error = marshalValue(p.Value)
	}
	return row
}

// take collects the pairs of seq from the skip-th (counting from 0), at
// most n of them, as rows.
func take(seq iter.Seq[ecs.PairInfo], skip, n int, infos map[reflect.Type]ecs.RelationInfo) []pairRow {
	rows := []pairRow{}
	for p := range seq {
		if skip > 0 {
			skip--
			continue
		}
		if len(rows) == n {
			break
		}
		rows = append(rows, pairRowOf(p, infos))
	}
	return rows
}

// relationsOf reads e's relations for its detail. Complexity: O(relations
// + ancestorLimit + 3 x relationLimit), whatever the size of the trees.
func (in *Inspector) relationsOf(e ecs.Entity) entityRelations {
	r := in.w.Reflect()
	infos := in.relationNames()
	var out entityRelations
	out.PairCount, out.TargetOfCount = r.NumPairs(e, nil)
	out.Pairs = take(r.PairsOf(e, nil), 0, relationLimit, infos)
	out.TargetOf = take(r.PairsTo(e, nil), 0, relationLimit, infos)
	if _, ok := infos[childOf]; !ok {
		return out
	}
	_, out.ChildCount = r.NumPairs(e, childOf)
	for p := range r.PairsTo(e, childOf) {
		if len(out.Children) == relationLimit {
			break
		}
		out.Children = append(out.Children, p.Source.String())
	}
	for x := e; ; {
		p, ok := parentOf(r, x)
		if !ok {
			break
		}
		if len(out.Ancestors) == ancestorLimit {
			out.AncestorsMore = true
			break
		}
		out.Ancestors = append(out.Ancestors, p.String())
		x = p
	}
	if len(out.Ancestors) > 0 {
		out.Parent = out.Ancestors[0]
	}
	return out
}

// parentOf returns e's parent in the hierarchy, if it has one.
func parentOf(r ecs.Reflection, e ecs.Entity) (ecs.Entity, bool) {
	for p := range r.PairsOf(e, childOf) {
		return p.Target, true
	}
	return ecs.Entity{}, false
}

// relationRow is one entry of GET /api/relations.
type relationRow struct {
	Name            string `json:"name"`
	GoType          string `json:"goType"`
	Exclusive       bool   `json:"exclusive"`
	Acyclic         bool   `json:"acyclic"`
	SplitByTarget   bool   `json:"splitByTarget"`
	OnTargetDespawn string `json:"onTargetDespawn"`
	Sources         int    `json:"sources"`
	Targets         int    `json:"targets"`
}

func (in *Inspector) relationList() (any, *httpError) {
	rows := []relationRow{}
	for _, r := range in.w.Reflect().Relations() {
		rows = append(rows, relationRow{r.Name, r.GoType.String(), r.Exclusive, r.Acyclic, r.SplitByTarget, r.OnTargetDespawn.String(), r.Sources, r.Targets})
	}
	return map[string]any{"relations": rows}, nil
}

// relationNamed resolves a relation by the stable name or, when only one
// relation has it, the Go name of its pair type.
func (in *Inspector) relationNamed(name string) (reflect.Type, *httpError) {
	var found []ecs.RelationInfo
	for _, r := range in.w.Reflect().Relations() {
		if r.Name == name {
			return r.GoType, nil
		}
		if r.GoType.String() == name {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, badRequest("unknown relation %q (see GET /api/relations)", name)
	case 1:
		return found[0].GoType, nil
	}
	return nil, badRequest("relation name %q is ambiguous: use the stable name (%s or %s)", name, found[0].Name, found[1].Name)
}

// pairPage is the answer of GET /api/entities/{id}/pairs.
type pairPage struct {
	ID     string    `json:"id"`
	As     string    `json:"as"`
	Total  int       `json:"total"`
	Offset int       `json:"offset"`
	Limit  int       `json:"limit"`
	Pairs  []pairRow `json:"pairs"`
}

// pairList pages through the pairs an entity is the source (as=source,
// the default) or the target (as=target) of, of one relation
// (relation=NAME) or all.
func (in *Inspector) pairList(r *http.Request, offset, limit int) (any, *httpError) {
	e, err := parseEntity(in.w, r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	var rel reflect.Type
	if name := r.URL.Query().Get("relation"); name != "" {
		if rel, err = in.relationNamed(name); err != nil {
			return nil, err
		}
	}
	page := pairPage{ID: e.String(), As: r.URL.Query().Get("as"), Offset: offset, Limit: limit}
	x := in.w.Reflect()
	asSource, asTarget := x.NumPairs(e, rel)
	seq := x.PairsOf(e, rel)
	switch page.As {
	case "", "source":
		page.As, page.Total = "source", asSource
	case "target":
		page.Total, seq = asTarget, x.PairsTo(e, rel)
	default:
		return nil, badRequest("as=%q: want source or target", page.As)
	}
	page.Pairs = take(seq, offset, limit, in.relationNames())
	return page, nil
}

// relationRoutes adds the routes of relations and the hierarchy to m.
func (in *Inspector) relationRoutes(m *http.ServeMux) {
	m.HandleFunc("/api/relations", methods{
		http.MethodGet: in.answer(http.StatusOK, func(*http.Request) (any, *httpError) { return in.relationList() }),
	}.serve)
	m.HandleFunc("/api/entities/{id}/pairs", methods{http.MethodGet: in.paged(maxLimit, in.pairList)}.serve)
	m.HandleFunc("/api/hierarchy", methods{http.MethodGet: in.paged(maxHierarchyLimit, in.hierarchyRoots)}.serve)
	m.HandleFunc("/api/hierarchy/{id}", methods{http.MethodGet: in.paged(maxHierarchyLimit, in.hierarchyChildren)}.serve)
}

// paged answers a GET that takes offset and limit (limit at most max),
// read before the request goes to the world.
func (in *Inspector) paged(max int, fn func(r *http.Request, offset, limit int) (any, *httpError)) http.HandlerFunc {
	return func(rw http.ResponseWriter, r *http.Request) {
		offset, limit, err := pageParamsUpTo(r, max)
		if err != nil {
			writeError(rw, err)
			return
		}
		in.answer(http.StatusOK, func(r *http.Request) (any, *httpError) { return fn(r, offset, limit) })(rw, r)
	}
}

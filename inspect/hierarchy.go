package inspect

import (
	"net/http"
	"reflect"

	"github.com/tessera-ecs/tessera/ecs"
)

// maxHierarchyLimit bounds one page of the hierarchy view (default
// defaultLimit): however large the hierarchy, one answer lists at most
// this many nodes, and a client expands the tree a node at a time.
const maxHierarchyLimit = 1000

// hierarchyNode is one node of GET /api/hierarchy and /api/hierarchy/{id}.
type hierarchyNode struct {
	ID         string   `json:"id"`
	ChildCount int      `json:"childCount"`
	Components []string `json:"components"` // stable names, as in GET /api/entities
}

// hierarchyPage is the answer of GET /api/hierarchy (the roots) and GET
// /api/hierarchy/{id} (the children of id).
type hierarchyPage struct {
	Declared bool            `json:"declared"` // the world declares ecs.ChildOf
	ID       string          `json:"id,omitempty"`
	Parent   string          `json:"parent,omitempty"` // id's parent
	Total    int             `json:"total"`
	Offset   int             `json:"offset"`
	Limit    int             `json:"limit"`
	Nodes    []hierarchyNode `json:"nodes"`
}

// hierarchyDeclared reports whether the world declares ecs.ChildOf,
// without declaring it.
func (in *Inspector) hierarchyDeclared() bool {
	for _, r := range in.w.Reflect().Relations() {
		if r.GoType == childOf {
			return true
		}
	}
	return false
}

// hierarchyRoots pages through the roots of the hierarchy: the entities
// with children and no parent, in entity index order. Complexity:
// O(entities with children), whatever the page.
func (in *Inspector) hierarchyRoots(_ *http.Request, offset, limit int) (any, *httpError) {
	page := hierarchyPage{Declared: in.hierarchyDeclared(), Offset: offset, Limit: limit}
	roots, total := pageOf(in.w.Reflect().RelationRoots(childOf), offset, limit)
	page.Total = total
	page.Nodes = in.hierarchyNodes(roots)
	return page, nil
}

// hierarchyChildren pages through the children of one entity, in the
// order they were attached. Complexity: O(offset + limit).
func (in *Inspector) hierarchyChildren(r *http.Request, offset, limit int) (any, *httpError) {
	e, err := parseEntity(in.w, r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	x := in.w.Reflect()
	page := hierarchyPage{Declared: in.hierarchyDeclared(), ID: e.String(), Offset: offset, Limit: limit}
	if p, ok := parentOf(x, e); ok {
		page.Parent = p.String()
	}
	_, page.Total = x.NumPairs(e, childOf)
	var children []ecs.Entity
	for p := range x.PairsTo(e, childOf) {
		if offset > 0 {
			offset--
			continue
		}
		if len(children) == limit {
			break
		}
		children = append(children, p.Source)
	}
	page.Nodes = in.hierarchyNodes(children)
	return page, nil
}

// hierarchyNodes describes es for the hierarchy view.
func (in *Inspector) hierarchyNodes(es []ecs.Entity) []hierarchyNode {
	x := in.w.Reflect()
	names := map[reflect.Type]string{}
	for _, c := range x.Components() {
		names[c.GoType] = c.Name
	}
	nodes := make([]hierarchyNode, 0, len(es))
	var cts []ecs.ComponentType
	for _, e := range es {
		n := hierarchyNode{ID: e.String(), Components: []string{}}
		_, n.ChildCount = x.NumPairs(e, childOf)
		cts = x.ComponentsOf(e, cts[:0])
		for _, c := range cts {
			n.Components = append(n.Components, names[c.Type()])
		}
		nodes = append(nodes, n)
	}
	return nodes
}

package ecs

import "fmt"

// TargetVar is a query variable holding a relation's target, set before
// each pass: a query made with [Relation.ToVar] visits the sources of
// whatever target the variable holds when the pass starts (flecs' query
// variables, set per iteration with ecs_iter_set_var). The zero TargetVar
// holds no target, and such a query visits nothing.
type TargetVar struct{ e Entity }

// Set makes t the target of the next passes of the queries that use v.
func (v *TargetVar) Set(t Entity) { v.e = t }

// Get returns the target v holds.
func (v *TargetVar) Get() Entity { return v.e }

// To returns a query filter that keeps the sources of pairs with target t:
// the entities e for which Has(e, t). The query walks t's list of sources,
// O(sources of t) per pass, whatever the size of the world; the target is
// fixed for the query's life (a despawned target has no sources). Use
// [Relation.ToVar] to choose the target per pass. For a relation declared
// [SplitByTarget] the filter is a table filter instead: the query matches
// t's tables only, checks nothing per entity and hands out whole tables in
// its Chunks form. Panics when t belongs to another world.
func (rel *Relation[T]) To(t Entity) Filter {
	if rel.r.w.foreign(t) {
		panic(rel.r.w.deadMessage(rel.r.name()+".To", t, nil))
	}
	return Filter{kind: filterRelTo, rel: rel.r, to: t}
}

// ToVar returns a query filter like To whose target is read from v when
// each pass starts, so one query serves every target (the children of
// each node of a tree, in turn). For a relation declared [SplitByTarget]
// a pass walks the rows of the target's tables, O(tables of the target +
// their rows), and the Chunks form hands out one chunk per table.
func (rel *Relation[T]) ToVar(v *TargetVar) Filter {
	if v == nil {
		panic(rel.r.name() + ".ToVar: nil TargetVar")
	}
	return Filter{kind: filterRelTo, rel: rel.r, toVar: v}
}

// AsSource returns the component type that every source of the relation
// has and no other entity has: With(r.AsSource()) keeps entities with at
// least one target, Without(r.AsSource()) those with none (the roots of a
// hierarchy). It is sparse, so such a query checks it per entity.
func (rel *Relation[T]) AsSource() ComponentType {
	r, info := rel.r, rel.r.out.info
	return ComponentType{typ: info.typ, id: func(reg *registry) componentID {
		if reg.w != r.w {
			panic(fmt.Sprintf("ecs: a filter on %s of another world", r.name()))
		}
		return info.id
	}}
}

// AsTarget returns the component type that every target of the relation
// has and no other entity has: With(r.AsTarget()) keeps the entities that
// some source points at (the parents of a hierarchy).
func (rel *Relation[T]) AsTarget() ComponentType {
	r, info := rel.r, rel.r.in.info
	return ComponentType{typ: info.typ, id: func(reg *registry) componentID {
		if reg.w != r.w {
			panic(fmt.Sprintf("ecs: a filter on %s of another world", r.name()))
		}
		return info.id
	}}
}

// target returns the target of a filterRelTo filter for the pass that
// starts now.
func (f *Filter) target() Entity {
	if f.toVar != nil {
		return f.toVar.e
	}
	return f.to
}

// relToMatch reports whether e has a pair with the target of every To
// filter of c from the from-th on.
func (c *queryCache) relToMatch(e Entity, from int) bool {
	for i := from; i < len(c.relTo); i++ {
		f := &c.relTo[i]
		t := f.target()
		if t.IsZero() || !containsEntity(f.rel.targets(e), t) {
			return false
		}
	}
	return true
}

func containsEntity(s []Entity, e Entity) bool {
	for _, x := range s {
		if x == e {
			return true
		}
	}
	return false
}

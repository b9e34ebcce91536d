package ecs

import (
	"fmt"
	"reflect"
	"strings"
)

// A relation keeps its pairs in component types of package ecs (see
// relation_values.go) that users cannot name. Messages name the relation
// instead, as its handle does (Relation[main.Likes]), or the call that
// gives such a type to a filter (Relation[main.Likes].AsSource()).

var relationSideType = reflect.TypeFor[relationSide]()

// RelationSide reports whether t is one of the two component types in
// which a relation keeps its pairs (those [Relation.RelationTypes]
// returns and [Relation.AsSource] and [Relation.AsTarget] name), and if
// so returns the relation's pair type T, as in Relation[T], and whether t
// is the side its sources hold (else the side its targets hold). An
// access checker meets these types (see [AccessChecker]); package sched
// names the relation with it in its messages. It returns nil, false,
// false for any other type and for nil. Complexity: O(1); it may
// allocate, so keep it out of hot paths.
func RelationSide(t reflect.Type) (pair reflect.Type, source, ok bool) {
	if t == nil || t.PkgPath() != relationSideType.PkgPath() || !t.Implements(relationSideType) {
		return nil, false, false
	}
	pair, source = reflect.Zero(t).Interface().(relationSide).relationSide()
	return pair, source, true
}

// typeLabel names t in messages: its Go name, or for one of a relation's
// types, the filter call that names it, such as
// Relation[main.Likes].AsSource().
func typeLabel(t reflect.Type) string {
	if t == nil {
		return "<nil>"
	}
	pair, source, ok := RelationSide(t)
	if !ok {
		return t.String()
	}
	if source {
		return fmt.Sprintf("Relation[%v].AsSource()", pair)
	}
	return fmt.Sprintf("Relation[%v].AsTarget()", pair)
}

// label is typeLabel of the type info describes.
func (info *componentInfo) label() string { return typeLabel(info.typ) }

// pairsOf returns the relation whose pairs info's type holds, or nil.
func (info *componentInfo) pairsOf() *relation {
	if info.sparse == nil {
		return nil
	}
	return info.sparse.rel
}

// savedRelation reports whether name, a component type's stable name in
// a save file, is one of a relation's types, and returns the relation's
// pair type (its stable name, as the file spells it) and the side's kind:
// "relOne" (the sources of an exclusive relation), "relMany" (the sources
// of a Multi relation) or "relIn" (the targets).
func savedRelation(name string) (pair, kind string, ok bool) {
	rest, found := strings.CutPrefix(name, relationSideType.PkgPath()+".")
	if !found || !strings.HasSuffix(rest, "]") {
		return "", "", false
	}
	for _, k := range [...]string{"relOne", "relMany", "relIn"} {
		if p, found := strings.CutPrefix(rest, k+"["); found {
			return strings.TrimSuffix(p, "]"), k, true
		}
	}
	return "", "", false
}

// shortTypeName turns a type's stable name into its Go name as reflect
// prints it: every package path cut to its last element, as in
// github.com/x/game.Pair[github.com/x/geo.Cell] to game.Pair[geo.Cell].
func shortTypeName(name string) string {
	var b strings.Builder
	start := 0 // where the current word began in b
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch c {
		case '/':
			s := b.String()[:start]
			b.Reset()
			b.WriteString(s)
			continue
		case '[', ']', ',', ' ', '*', '(', ')':
			b.WriteByte(c)
			start = b.Len()
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// savedTypeLabel names, in a message about a file, the component type the
// file calls name: component type "name", or for one of a relation's
// types, the relation, as in the pairs of Relation[main.Likes].
func savedTypeLabel(name string) string {
	if pair, _, ok := savedRelation(name); ok {
		return fmt.Sprintf("the pairs of Relation[%s]", shortTypeName(pair))
	}
	return fmt.Sprintf("component type %q", name)
}

// unknownTypeMessage is the message of a load that meets a component type,
// named name in the file, that byName (w's types by stable name) lacks: a
// relation w has not declared, or has declared with the other kind, is
// named as the relation, with the call that declares it.
func unknownTypeMessage(name string, byName map[string]*componentInfo) string {
	pair, kind, ok := savedRelation(name)
	if !ok {
		return fmt.Sprintf("component type %q is not known to this world; use its Map or Register it before Load", name)
	}
	short := shortTypeName(pair)
	prefix := relationSideType.PkgPath() + "."
	declare := fmt.Sprintf("ecs.NewRelation[%s](w)", short)
	if short == "ecs.ChildOf" {
		declare = "ecs.NewHierarchy(w) or " + declare
	}
	switch {
	case kind == "relOne" && byName[prefix+"relMany["+pair+"]"] != nil:
		return fmt.Sprintf("relation %s was saved exclusive (one target per source), and this world declares it Multi; declare it as it was saved, with %s without ecs.Multi(), before Load", short, declare)
	case kind == "relMany" && byName[prefix+"relOne["+pair+"]"] != nil:
		return fmt.Sprintf("relation %s was saved Multi (any number of targets per source), and this world declares it exclusive; declare it as it was saved, with ecs.NewRelation[%s](w, ecs.Multi()), before Load", short, short)
	}
	full := ""
	if pair != short {
		full = " (" + pair + ")"
	}
	return fmt.Sprintf("relation %s%s is not declared in this world; declare it with %s, with the options it was saved with, before Load", short, full, declare)
}

// subject names the type info describes as the subject of a message:
// component type main.Pos, or the pairs of Relation[main.Likes].
func (info *componentInfo) subject() string {
	if r := info.pairsOf(); r != nil {
		return "the pairs of " + r.name()
	}
	return fmt.Sprintf("component type %v", info.typ)
}

// valuePath is the root of the paths to fields of info's type in
// messages (main.Pos.X): for one of a relation's types, the relation
// (Relation[main.Likes].Value.X).
func (info *componentInfo) valuePath() string {
	if r := info.pairsOf(); r != nil {
		return r.name()
	}
	return info.typ.String()
}

package ecs

import "strings"

// describe names the query for messages, by its constructor's type
// parameters and filters, such as "Query2[main.Pos, main.Vel] Without[main.Dead]".
// Optional terms are marked with a question mark. It allocates; call it only
// to build a message.
func (q *queryCache) describe() string {
	var b strings.Builder
	b.WriteString(strings.TrimPrefix(q.op, "New"))
	b.WriteByte('[')
	for i, id := range q.terms {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q.w.reg.infos[id].label())
		if q.optional[i] {
			b.WriteByte('?')
		}
	}
	b.WriteByte(']')
	for _, f := range q.filters {
		if f.kind == filterOptional {
			continue
		}
		if f.kind == filterRelTo {
			if f.toVar != nil {
				b.WriteString(" " + f.rel.name() + ".ToVar")
			} else {
				b.WriteString(" " + f.rel.name() + ".To[" + f.to.String() + "]")
			}
			continue
		}
		b.WriteString([...]string{" With[", " Without[", " AnyOf["}[f.kind])
		for i, ct := range f.types {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q.w.reg.infos[ct.id(&q.w.reg)].label())
		}
		b.WriteByte(']')
	}
	return b.String()
}

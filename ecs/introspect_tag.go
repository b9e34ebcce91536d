package ecs

import "reflect"

// tagEntities gives w's tag to every Entity that v, an addressable value
// fresh from encoding/json (so nothing in it is shared), holds: in
// exported fields, array and slice elements, behind pointers, and in map
// keys and values. The zero Entity stays zero.
func (w *World) tagEntities(v reflect.Value) {
	t := v.Type()
	if isEntityType(t) {
		// SAFETY: t is Entity or defined from it, so the addressable value
		// has Entity's layout.
		e := (*Entity)(v.Addr().UnsafePointer())
		if e.index != 0 {
			*e = Entity{e.index, e.gen&genMask | w.entities.tag}
		} else {
			*e = Entity{}
		}
		return
	}
	if !holdsEntity(t, true, map[reflect.Type]bool{}) {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				w.tagEntities(v.Field(i))
			}
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			w.tagEntities(v.Index(i))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			w.tagEntities(v.Elem())
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys, vals := []reflect.Value{}, []reflect.Value{}
		for it := v.MapRange(); it.Next(); {
			k, x := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
			k.Set(it.Key())
			x.Set(it.Value())
			w.tagEntities(k)
			w.tagEntities(x)
			keys, vals = append(keys, k), append(vals, x)
		}
		v.Clear()
		for i := range keys {
			v.SetMapIndex(keys[i], vals[i])
		}
	}
}

package ecs

import "fmt"

// ComponentOption configures a component type in [Register].
type ComponentOption func(*componentOptions)

type componentOptions struct {
	storage Storage
	hint    int
	name    string
	track   bool
}

// Sparse selects [SparseStorage] for the type.
func Sparse() ComponentOption { return func(o *componentOptions) { o.storage = SparseStorage } }

// CapacityHint says how many entities will hold the type, so its storage is
// allocated once up front: the dense arrays of a sparse type, the columns of
// the tables a table type creates. A student game engine's parallel
// lock-free ECS (the Run/Sync design) learned that memory has to be planned
// per component type. Values below 1 mean no hint.
func CapacityHint(n int) ComponentOption { return func(o *componentOptions) { o.hint = n } }

// Name gives the type a stable name in save files ([World.Save]) and
// checksums, in place of its package path and type name, so files written
// before a type was renamed or moved still load. Names must be unique in a
// world; Register panics when one is taken. (Stable names, as Bevy's
// scenes key components by type path.)
func Name(name string) ComponentOption { return func(o *componentOptions) { o.name = name } }

// Register configures component type T in w. It is optional: types need no
// registration unless they want non-default options. It must come before
// any other use of T in w (a Map, a query, a filter), since the storage of a
// type cannot change once values may exist; otherwise it panics.
func Register[T any](w *World, opts ...ComponentOption) {
	w.mustNotShare("Register", nil)
	var o componentOptions
	for _, opt := range opts {
		opt(&o)
	}
	before := len(w.reg.infos)
	id := idOf[T](&w.reg)
	info := w.reg.infos[id]
	if len(w.reg.infos) == before {
		panic(fmt.Sprintf("ecs: Register[%v]: the type is already in use in this world; register it before its first use", info.typ))
	}
	info.hint = max(o.hint, 0)
	if o.name != "" {
		if other := w.reg.named(o.name); other != nil && other != info {
			panic(fmt.Sprintf("ecs: Register[%v]: the name %q is taken by %v", info.typ, o.name, other.typ))
		}
		info.name = o.name
	}
	info.track = o.track
	if o.track {
		w.tracking = true
	}
	if o.storage == SparseStorage {
		info.sparse = newSparseSet(w, info, info.hint)
		w.sparse = append(w.sparse, info.sparse)
	}
}

package ecs

import "fmt"

// Storage says where a component type's values live.
type Storage uint8

const (
	// TableStorage, the default, keeps the type in the archetype tables:
	// one column per table, the fastest to iterate. Adding or removing the
	// type moves the entity's row to another table.
	TableStorage Storage = iota
	// SparseStorage keeps the type in a paged sparse set of its own. Adding
	// and removing it never moves table rows, so it suits components that
	// come and go often, and rare ones; iterating it costs a lookup per
	// entity.
	SparseStorage
)

// String returns "table" or "sparse".
func (s Storage) String() string {
	if s == SparseStorage {
		return "sparse"
	}
	return "table"
}

// componentStore is where a world's component values live: the archetype
// tables, the sparse sets, and the query caches, which every new table is
// offered to (part of World).
type componentStore struct {
	bySlot     []*table // bySlot[s] is the table of slot s: deadTable, then the tables
	tables     []*table // bySlot[1:]: the world's tables, by id
	tableByKey map[string]*table
	empty      *table

	queries []*queryCache
	sparse  []*sparseSet // the sparse sets, in registration order
}

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

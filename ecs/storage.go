package ecs

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

package ecs

import "unsafe"

// This file holds the lookups behind Map.Get, TryGet and Has. Their fast
// path is small enough for the compiler to inline into the caller's loop:
// one record read from the flat entity index, one column base address read
// from the type's per-table column list (componentInfo.cols), and the
// value's address: one load shorter than the chain of Ark's Map.Get, which
// reads a column struct between the list and the value. Everything else (sparse
// storage, a world with a checker, dead handles and missing components) goes
// to an out-of-line twin.
//
// The twin is passed in as a parameter, not called by name: Go's inliner
// charges a call to a parameter far less than a call to a named function
// that it cannot inline, and once the fast path is inlined the parameter is a
// known function, so the call is direct. Go 1.26 inlines a function whose
// cost is at most 80; valueAt costs about 71 and Map.Get just under 80 with its
// generic wrapper (check with go build -gcflags=-m=2).

// lookupSlow is the out-of-line twin of valueAt and hasValue.
type lookupSlow = func(e Entity, info *componentInfo) unsafe.Pointer

// valueAt returns the address of e's value of info's type, or what slow
// returns when e's record is not alive or has no column of that type.
func (info *componentInfo) valueAt(e Entity, slow lookupSlow) unsafe.Pointer {
	r := &info.index.recs[e.index&info.index.mask]
	// SAFETY: cols is indexed without a bounds check (which would push
	// Map.Get over the inliner's budget): it has one entry per slot of the
	// registry, and every table of the world, deadTable included, has a
	// slot below that (addColumnSlot grows every list when a table is made,
	// and a new type's list starts at the registry's slots).
	base := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(info.cols)), uintptr(r.slot)*unsafe.Sizeof(unsafe.Pointer(nil))))
	if r.gen != e.gen {
		// One branch to the slow path instead of two: with a single way
		// in, the compiler saves the caller's loop registers there, not
		// on the fast path (two stores per Get in a loop of Gets).
		base = nil
	}
	if base != nil {
		// SAFETY: base is the column of this type in r's table, whose row
		// r.row is live, so the address lies inside the column's array.
		return unsafe.Add(base, uintptr(r.row)*info.size)
	}
	return slow(e, info)
}

// hasValue reports whether e is alive and has a value of info's type, or
// what slow says when the fast path cannot tell.
func (info *componentInfo) hasValue(e Entity, slow lookupSlow) bool {
	r := &info.index.recs[e.index&info.index.mask]
	// SAFETY: as in valueAt.
	base := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(info.cols)), uintptr(r.slot)*unsafe.Sizeof(unsafe.Pointer(nil))))
	if r.gen != e.gen {
		base = nil // as in valueAt: one branch to the slow path
	}
	if base != nil {
		return true
	}
	return slow(e, info) != nil
}

// getSlow is Map.Get for sparse storage, a checked world, and every error.
//
//go:noinline
func getSlow(e Entity, info *componentInfo) unsafe.Pointer {
	if p := checkedLookup(e, info, "Get"); p != nil {
		return p
	}
	w := info.w
	if w.entities.lookup(e) == nil {
		panic(w.deadMessage("Get", e, info))
	}
	panic(missingComponent(w, "Get", e, info))
}

// tryGetSlow is Map.TryGet for sparse storage, a checked world, and every
// miss: nil when e is dead or has no value.
//
//go:noinline
func tryGetSlow(e Entity, info *componentInfo) unsafe.Pointer {
	return checkedLookup(e, info, "TryGet")
}

// hasSlow is Map.Has for sparse storage, a checked world, and every miss:
// non-nil when e is alive and has a value.
//
//go:noinline
func hasSlow(e Entity, info *componentInfo) unsafe.Pointer {
	return checkedLookup(e, info, "Has")
}

// checkedLookup reports a read of info's type by op to the world's access
// checker, if any, and returns lookupValue.
func checkedLookup(e Entity, info *componentInfo, op string) unsafe.Pointer {
	if w := info.w; w.checker != nil {
		w.checkComponent(info, false, op)
	}
	return lookupValue(e, info)
}

// lookupValue returns the address of e's value of info's type, or nil when
// e is dead or has none: the general lookup, for sparse and table storage.
func lookupValue(e Entity, info *componentInfo) unsafe.Pointer {
	if info.sparse != nil {
		return info.sparse.get(e)
	}
	w := info.w
	r := w.entities.lookup(e)
	if r == nil {
		return nil
	}
	t := w.tableOf(r)
	c := t.column(info.id)
	if c < 0 {
		return nil
	}
	return t.columns[c].at(r.row)
}

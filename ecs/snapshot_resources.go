package ecs

import (
	"reflect"
	"unsafe"
)

// resourceState is a snapshot's copy of one resource type.
type resourceState struct {
	ptr any // the *T the world held, nil when it had none
	val any // a *T of the snapshot's own holding the value, reused
}

// resourceHolder is the part of a resourceSlot[T] that snapshots use
// without knowing T.
type resourceHolder interface {
	// refused reports whether the slot holds a value snapshots cannot copy.
	refused() bool
	saveTo(st *resourceState)
	// restoreFrom puts back what st saved; a nil st means the resource did
	// not exist then.
	restoreFrom(st *resourceState)
	// pointer returns the resource's address, nil when there is none;
	// ensure returns it, making a zero value first when there is none.
	pointer() unsafe.Pointer
	ensure() unsafe.Pointer
}

func (s *resourceSlot[T]) pointer() unsafe.Pointer {
	// SAFETY: s.v is nil or a live T, and callers read it as the type they
	// looked the slot up by in World.resources, T.
	return unsafe.Pointer(s.v)
}

func (s *resourceSlot[T]) ensure() unsafe.Pointer {
	if s.v == nil {
		s.v = new(T)
	}
	// SAFETY: as in pointer.
	return unsafe.Pointer(s.v)
}

func (s *resourceSlot[T]) refused() bool { return s.v != nil && s.policy == refuseValues }

func (s *resourceSlot[T]) saveTo(st *resourceState) {
	if s.v == nil {
		st.ptr = nil
		return
	}
	buf, _ := st.val.(*T)
	if buf == nil {
		buf = new(T)
		st.val = buf
	}
	s.copyValue(buf, s.v)
	st.ptr = s.v
}

func (s *resourceSlot[T]) restoreFrom(st *resourceState) {
	if st == nil || st.ptr == nil {
		s.v = nil
		return
	}
	s.v = st.ptr.(*T)
	s.copyValue(s.v, st.val.(*T))
}

func (s *resourceSlot[T]) copyValue(dst, src *T) {
	if s.policy == cloneValues {
		*dst = any(src).(Cloner[T]).Clone()
		return
	}
	*dst = *src
}

// snapshotResources saves every resource of w into s.
func (w *World) snapshotResources(s *Snapshot) {
	if s.res == nil {
		s.res = make(map[reflect.Type]*resourceState, len(w.resources))
	}
	for t, slot := range w.resources {
		st := s.res[t]
		if st == nil {
			st = &resourceState{}
			s.res[t] = st
		}
		slot.(resourceHolder).saveTo(st)
	}
}

// restoreResources puts back the resources s saved; resource types first
// used since then are left without a value.
func (w *World) restoreResources(s *Snapshot) {
	for t, slot := range w.resources {
		slot.(resourceHolder).restoreFrom(s.res[t])
	}
}

// refusedResource returns the type of a resource that snapshots cannot
// copy, or nil.
func (w *World) refusedResource() reflect.Type {
	var found reflect.Type
	for t, slot := range w.resources {
		// The lowest type name, so the message does not depend on map order.
		if slot.(resourceHolder).refused() && (found == nil || t.String() < found.String()) {
			found = t
		}
	}
	return found
}

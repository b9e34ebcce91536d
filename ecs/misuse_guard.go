package ecs

import "fmt"

// misuseGuard is what catches a world used in a way it does not allow
// (part of World): structural changes inside a parallel section, accesses
// a scheduler did not declare, and two goroutines changing the world at
// once. Its flag checked sits at the start of World, for Map.Get.
type misuseGuard struct {
	shared   bool          // a parallel section is open (Parallel().Begin)
	mutating bool          // a structural mutation is in progress (see enter)
	checker  AccessChecker // told of accesses, nil unless set
	// methodsOf names the operation (Save, Load, Checksum, Snapshot...)
	// that is calling the stored types' own methods, or is "" (see
	// beginMethods).
	methodsOf string
}

// enter marks the start of a structural mutation, panicking, naming op, if
// one is already in progress.
//
// A World is not safe for concurrent use outside a parallel section, and
// two goroutines changing one world at once corrupt it silently (a row
// written twice, a count lost). In the spirit of the Go runtime's
// "concurrent map writes" check, every structural mutation marks the world
// while it runs: the core of a spawn, a despawn, a move between tables, a
// batch's moves, a sparse set's add or remove, and queueing a deferred
// change. These cores never call user code (hooks and observers run before
// or after them), so they never nest: finding the mark already set means
// another goroutine is in the middle of one. It is a best-effort check,
// like the runtime's, that catches most races at the cost of two stores per
// mutation; the race detector (go test -race) catches them all.
func (w *World) enter(op string) {
	if w.mutating {
		w.concurrentUse(op)
	}
	w.mutating = true
}

// leave marks the end of the structural mutation enter began.
func (w *World) leave() { w.mutating = false }

func (w *World) concurrentUse(op string) {
	if w.methodsOf != "" {
		panic(methodsMessage(op, w.methodsOf))
	}
	panic(concurrentMessage(op))
}

// beginMethods marks w, until endMethods, as running op, which calls the
// stored types' own methods (BinaryCodec's EncodeSave and DecodeSave,
// Cloner's Clone, Checksummer's Checksum, json.Marshaler and
// json.Unmarshaler) while it reads w or before it writes it whole. Such a
// method that changes w (spawns, despawns, adds or removes a component,
// or calls an operation that must not run inside another) would change
// the world under op's feet: a save of a world that is not the one asked
// for, a load that overwrites what the method made. The mark makes it
// panic instead, naming both operations. It costs two stores per op and
// nothing per structural change: it sets the flag enter already tests.
func (w *World) beginMethods(op string) {
	if w.mutating {
		w.concurrentUse(op)
	}
	w.mutating, w.methodsOf = true, op
}

// endMethods ends what beginMethods began; deferred, so a method that
// panics leaves w usable.
func (w *World) endMethods() { w.mutating, w.methodsOf = false, "" }

// methodsMessage is the panic message of op called while running calls
// the stored types' own methods: from one of them, or from another
// goroutine.
func methodsMessage(op, running string) string {
	return fmt.Sprintf("ecs: %s: called while %s runs, from a component's, resource's or event's own method (EncodeSave, DecodeSave, Clone, Checksum, MarshalJSON, UnmarshalJSON), which must not change the world or call %s on it, or from another goroutine (a World is not safe for concurrent use)", op, running, running)
}

// concurrentMessage is the panic message of a structural change that finds
// another one in progress, or its traces (see table.removeRow).
func concurrentMessage(op string) string {
	return fmt.Sprintf("ecs: %s: concurrent structural change: another goroutine is changing this World at the same time; a World is not safe for concurrent use outside a parallel section (World.Parallel().Begin), where structural changes go to Commands buffers", op)
}

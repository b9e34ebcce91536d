package ecs

import (
	"fmt"
	"io"
	"iter"
	"slices"
	"unsafe"
)

// Merge reads a file written by [World.Save] into w, which may already
// hold entities: every entity of the file becomes a new entity of w, with
// the file's components, and every [Entity] inside the loaded component
// values is rewritten to the new entity it names, so the references
// between the file's entities survive the move. It returns the mapping
// from the file's entities to the new ones. This is EnTT's continuous
// loader (entt::continuous_loader): a level, a prefab library or another
// player's save merged into a running game.
//
// The new entities are spawned in the order of their index in the file,
// as Spawn would hand out ids, so the same world merging the same file
// gets the same ids; the rows of each table keep the file's order, after
// the rows w already had. An Entity value naming no living entity of the
// file (one despawned before the save, or a handle of another world)
// becomes the zero Entity, which is never alive: a merged value never
// names an entity of w by accident.
//
// The file's component types must be known to w, by stable name and with
// the storage they were saved with, as for [World.Load], and fields are
// matched by name as there. The file's resources are read and left out:
// Merge changes no resource of w (use Load for a whole world, resources
// included). Like Load, Merge fires no hook and no observer; enter and
// leave observers count the new entities that match as members. Code
// that must see each new entity (a spatial index kept by an OnAdd hook)
// walks [EntityMapping.All] afterwards.
//
// It returns an error, and leaves w exactly as it was, for any file it
// cannot read, with the checks and guarantees of Load; it never panics on
// bad input. It panics inside an iteration, a hook, an observer or a
// parallel section. Complexity: O(file size + the entity values inside
// it), whatever the bytes, with Load's bounds on time and memory; a
// resource is skipped in time bounded by its bytes, as a field is.
func (w *World) Merge(in io.Reader) (*EntityMapping, error) {
	w.mustBeSettled("Merge")
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("ecs: Merge: %w", err)
	}
	d := &decoder{data: data, op: "Merge", merge: true, budget: loadBudget(len(data))}
	img, err := w.decodeImage(d)
	if err == nil {
		err = w.roomFor(img, d.op)
	}
	if err != nil {
		return nil, err
	}
	return w.mergeImage(img, d.fixups), nil
}

// MergeJSON reads a file written by [World.SaveJSON] into w as
// [World.Merge] does a binary one, with the same result and guarantees.
func (w *World) MergeJSON(in io.Reader) (*EntityMapping, error) {
	w.mustBeSettled("MergeJSON")
	d := &decoder{op: "MergeJSON", merge: true}
	img, err := w.decodeJSON(in, d)
	if err == nil {
		err = w.roomFor(img, d.op)
	}
	if err != nil {
		return nil, err
	}
	return w.mergeImage(img, d.fixups), nil
}

// EntityMapping maps the entities of a file given to [World.Merge] or
// [World.MergeJSON] to the entities they became. The file names its
// entities by index and generation, without the tag of the world that
// saved it; Get accepts a handle of that world (or any handle with the
// same index and generation). Memory: 12 bytes per entity index of the
// file.
type EntityMapping struct {
	gens  []uint32 // per file index from 1: the file's generation
	local []Entity // per file index from 0: the new entity, or zero
	n     int
}

// Get returns the entity that the file's entity saved became, and true;
// or the zero Entity and false when saved was not a living entity of the
// file. saved's world tag is ignored: a handle of the world that wrote the
// file finds its entity. O(1).
func (m *EntityMapping) Get(saved Entity) (Entity, bool) {
	i := saved.index
	if i == 0 || int(i) >= len(m.local) || m.gens[i-1] != saved.gen&genMask {
		return Entity{}, false
	}
	e := m.local[i]
	return e, e != Entity{}
}

// Len returns the number of entities the merge made, the living entities
// of the file.
func (m *EntityMapping) Len() int { return m.n }

// All yields each living entity of the file with the entity it became, in
// the order of the file's indices (the order the new entities were
// spawned in). The file's handles carry no world's tag: they equal no
// handle of a living world, and are meant for Get-like lookups by index
// and generation, or for display.
func (m *EntityMapping) All() iter.Seq2[Entity, Entity] {
	return func(yield func(Entity, Entity) bool) {
		for i, e := range m.local {
			if e != (Entity{}) && !yield(Entity{uint32(i), m.gens[i-1]}, e) {
				return
			}
		}
	}
}

// roomFor returns an error when the living entities of img do not fit in
// w (see [MaxEntities]), so that Merge refuses the file as a whole.
func (w *World) roomFor(img *loadImage, op string) error {
	if room := w.entities.room(); img.alive > room {
		return fmt.Errorf("ecs: %s: the file's %d entities do not fit: a world holds at most MaxEntities (%d) entities, and this one has room for %d more",
			op, img.alive, MaxEntities, room)
	}
	return nil
}

// mergeImage adds a checked image's entities to w as new entities,
// rewrites the entity values at fixups (the file's handles, untagged) to
// the new ones, and returns the mapping.
func (w *World) mergeImage(img *loadImage, fixups []unsafe.Pointer) *EntityMapping {
	m := w.fillMerged(img, fixups)
	w.placeAll()
	w.recountMembers()
	return m
}

// fillMerged adds the image's entities, rows and sparse values to w (see
// mergeImage).
func (w *World) fillMerged(img *loadImage, fixups []unsafe.Pointer) *EntityMapping {
	w.enter("Merge")
	defer w.leave()
	x := &w.entities
	m := &EntityMapping{gens: img.gens, local: make([]Entity, len(img.gens)+1), n: img.alive}
	alive := make([]uint32, 0, img.alive)
	for _, lt := range img.tables {
		alive = append(alive, lt.ents...)
	}
	slices.Sort(alive)
	x.reserve(len(alive))
	for _, i := range alive {
		m.local[i], _ = x.alloc() // placed in its table below
	}
	for _, p := range fixups {
		// SAFETY: p is the address of an Entity inside a value decoded
		// for this image (a column, sparse value or slice element it
		// allocated), which nothing else references yet.
		v := (*Entity)(p)
		if e, ok := m.Get(*v); ok {
			*v = e
		} else {
			*v = Entity{}
		}
	}
	w.placeImage(img, func(i uint32) Entity { return m.local[i] })
	return m
}

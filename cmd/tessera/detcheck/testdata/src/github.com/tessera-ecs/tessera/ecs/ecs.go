// Package ecs stands in for Tessera's ecs package in detcheck's tests: the
// names detcheck looks for, with the real signatures (detcheck's
// api_test.go checks them against the real package).
package ecs

type Entity uint64

type World struct{}

func NewWorld() *World { return &World{} }

type Commands struct{}

func (c *Commands) Despawn(e Entity) {}

func OnAdd[T any](w *World, fn func(e Entity, v *T)) {}

type Map[T any] struct{}

func NewMap[T any](w *World) *Map[T] { return &Map[T]{} }

func (m *Map[T]) SpawnFunc(init func(e Entity, v *T)) Entity { return 0 }

type Map2[A, B any] struct{}

func NewMap2[A, B any](w *World) *Map2[A, B] { return &Map2[A, B]{} }

type ComponentOption func()

func Register[T any](w *World, opts ...ComponentOption) {}

type Resource[T any] struct{}

func NewResource[T any](w *World) *Resource[T] { return &Resource[T]{} }

func AddResource[T any](w *World, v *T) {}

func GetResource[T any](w *World) *T { return nil }

type Events[E any] struct{}

func EventsOf[E any](w *World) *Events[E] { return &Events[E]{} }

type RelationOption func()

type Relation[T any] struct{}

func NewRelation[T any](w *World, opts ...RelationOption) *Relation[T] { return &Relation[T]{} }

type Query1[A any] struct{}

type Filter struct{}

func NewQuery1[A any](w *World, filters ...Filter) *Query1[A] { return &Query1[A]{} }

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

package ecs

// The fixed-arity types (Query1..Query8 with their rows, chunks and cursors,
// and Map2..Map12) come from the text/template generator in internal/gen.

//go:generate go run ./internal/gen

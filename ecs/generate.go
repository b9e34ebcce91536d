package ecs

// The fixed-arity types (Query1..Query8 with their rows, chunks and cursors,
// and Map2..Map12) come from the text/template generator in internal/gen,
// run by this directive; edit its templates (internal/gen/*.tmpl), not the
// _gen.go files.
//
//go:generate go run ./internal/gen

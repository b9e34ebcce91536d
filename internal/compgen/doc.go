// Package compgen reads component definitions written in JSON, the input of
// the code generator that turns them into Go: the fix the "super simple ECS"
// blog post (one map per component type) ends on, where every new component
// had to be added by hand to the spawning, serialisation and debug code,
// and its author defined components in external JSON files and generated
// that code as a build step instead.
//
// This package parses and checks the definitions; the generator that
// writes Go from [Defs] builds on it.
//
// # The format
//
// A definition file is one JSON object:
//
//	{
//	  "package": "game",
//	  "components": [
//	    {"name": "Position", "doc": "is where an entity is.",
//	     "fields": [{"name": "X", "type": "float32"}, {"name": "Y", "type": "float32", "default": 1.5}]},
//	    {"name": "Health", "stableName": "game.Health",
//	     "fields": [{"name": "HP", "type": "int32", "default": 100}]},
//	    {"name": "Frozen", "tag": true, "storage": "sparse"}
//	  ],
//	  "archetypes": [
//	    {"name": "Ship", "components": ["Position", "Health"], "defaults": {"Health": {"HP": 50}}}
//	  ]
//	}
//
// A component has a name (an exported Go identifier), an optional doc,
// storage ("table", the default, or "sparse"), an optional stable name for
// save files (ecs.Name), and fields, or "tag": true for none. A field has a
// name, a doc, a type and an optional default. Types: bool, int, int8 to
// int64, uint, uint8 to uint64, float32, float64, string, Entity (no
// default: entities are made at run time), [N]T, []T, another component of
// the definitions (by value; a component may hold itself only through a
// slice), or a Go type by import path ("image/color.RGBA", checked by the
// compiler). An archetype names a bundle of components, with default
// values per component, for typed spawn helpers. Every file names the same
// package; names are shared across files.
//
// # Errors
//
// [Parse] reports every problem it finds, not just the first, each as
// file:line:col and a message, sorted: unknown fields of the format,
// values of the wrong JSON kind, invalid or duplicate names, unknown
// types, defaults of the wrong kind or out of range, and components that
// hold themselves by value. A file that is not JSON stops at its syntax
// error, and the others are still checked. Parse never panics, whatever
// the bytes (FuzzParse).
package compgen

// Package compgen reads component definitions written in JSON, the input of
// the code generator that turns them into Go: the fix the "super simple ECS"
// blog post (one map per component type) ends on, where every new component
// had to be added by hand to the spawning, serialisation and debug code,
// and its author defined components in external JSON files and generated
// that code as a build step instead.
//
// [Parse] reads and checks the definitions; [Generate] writes their Go
// code; the tessera command's "gen" subcommand runs both, for
// //go:generate.
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
// the definitions (by value; no component may hold itself, even through a
// slice, as a save file could not describe it: entities refer to other
// entities with Entity fields), or a Go type by import path
// ("image/color.RGBA", checked by the compiler; it takes no default). A
// field of a component type without a default takes that component's
// defaults, as do the elements an array or slice default lists; elements
// past those are zero. An archetype names a bundle of components, with default
// values per component, for typed spawn helpers. Every file names the same
// package; names are shared across files.
//
// # The generated code
//
// For each component X: the type, with its doc comment; DefaultX(), its
// default value; String(), a debug form; EncodeSave and DecodeSave, the
// ecs.BinaryCodec methods through which World.Save and World.Load skip
// reflection (left out when a field has an imported type, which falls back
// to reflection); and Clone(), a deep copy, when X holds a slice, so that
// snapshots accept it (ecs.Cloner), with Checksum() (ecs.Checksummer), so
// that World.Checksum sees what the slices hold. Then one Register(w) that registers
// every type with its storage and stable name. For each archetype A: a
// type A made by NewA(w), with Defaults, Spawn, SpawnWith, SpawnBatch and
// SpawnBatchFunc, all spawning into the archetype's table in one move (an
// ecs.MapN underneath, so at most 12 components).
//
// # Errors
//
// [Parse] reports every problem it finds, not just the first, each as
// file:line:col and a message, sorted: unknown fields of the format,
// values of the wrong JSON kind, invalid or duplicate names, unknown
// types, defaults of the wrong kind or out of range, components that
// hold themselves, fields named like a generated method, names the
// generated code would declare twice (X and DefaultX, A and NewA,
// Register) and archetypes of more than 12 components. A file that is not JSON stops at its syntax
// error, and the others are still checked. Parse never panics, whatever
// the bytes (FuzzParse).
package compgen

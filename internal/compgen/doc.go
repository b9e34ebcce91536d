// Package compgen reads component definitions written in JSON, the input of
// the code generator that turns them into Go: the fix the "super simple ECS"
// blog post (one map per component type) ends on, where every new component
// had to be added by hand to the spawning, serialisation and debug code,
// and its author defined components in external JSON files and generated
// that code as a build step instead.
//
// [Parse] reads and checks the definitions; [Generate] writes their Go
// code; the command tessera-gen (cmd/tessera-gen, of the root module, for
// //go:generate lines that go run or go tool it at the version a module
// requires) runs both, as does the tessera command's "gen" subcommand:
//
//	//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen -o components_gen.go components.json
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
// A stable name must not be another component's default stable name,
// which ecs makes of the package's import path, a dot and the type's name
// (example.com/game.Health): the generated Register would panic on the
// two. [ParseWith] takes the import path ([Options]); the commands read it
// from the go.mod above the output's directory.
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
// The code is linear in the size of the definitions. A component's
// defaults are written in full once, in DefaultX: a value elsewhere that
// takes them (a field of type X with no default of its own, an object of
// some of X's fields, an archetype's values) repeats them only when they
// are short, and otherwise starts from DefaultX(). The code for a nested
// type writes each level once: loops nest at most three deep, deeper
// levels being closures that each loop once, and types nested more than
// two deep are named by local aliases.
//
// # Limits
//
// So that any input gives an error quickly or code linear in its size,
// in time and memory linear in it too, the definitions are bounded; a
// limit crossed is reported where it is crossed:
//
//   - a file: at most [MaxFileBytes] (4 MiB), [MaxValues] JSON values
//     (524,288) and [MaxJSONDepth] levels of nesting (64);
//   - all files together: at most [MaxComponents] components and
//     [MaxArchetypes] archetypes (4096 each);
//   - a component: at most [MaxFields] fields (1024), and values that
//     nest at most [MaxTypeDepth] levels deep (64: one per field, per [] or
//     [N] and per component held, so a field's type has at most 63 levels
//     of [] and [N]), the depth of types ecs.World.Load reads;
//   - names of packages, components, fields and archetypes: at most
//     [MaxNameBytes] bytes (255);
//   - an array type: at most 1048576 elements, through nested arrays;
//   - the problems listed: the first [MaxErrors] found (1000), then the
//     next with the count of the others.
//
// # Errors
//
// [Parse] reports every problem it finds, not just the first (up to
// [MaxErrors]), each as file:line:col and a message, sorted: the limits
// above, unknown fields of the format,
// values of the wrong JSON kind, invalid or duplicate names, unknown
// types, defaults of the wrong kind or out of range, components that
// hold themselves, fields named like a generated method, names the
// generated code would declare twice (X and DefaultX, A and NewA,
// Register), stable names Register would panic on, and archetypes of more
// than 12 components. A file that is not JSON stops at its syntax error,
// and the others are still checked. Parse never panics, whatever the
// bytes (FuzzParse).
package compgen

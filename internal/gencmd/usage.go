package gencmd

import (
	"fmt"

	"github.com/tessera-ecs/tessera/internal/compgen"
)

// usage returns the help of the generator run as prog.
func usage(prog string) string {
	return fmt.Sprintf(`Usage: %s [-o out.go] defs.json...

Reads component definitions written in JSON and writes one gofmt'ed Go file:
the component types, DefaultX functions, String, Clone for types with slices,
save codecs without reflection (ecs.BinaryCodec), one Register(w), and typed
spawn helpers per archetype. The format is described in the README
("Components from JSON") and in the package internal/compgen.

The generator is the command github.com/tessera-ecs/tessera/cmd/tessera-gen,
which needs nothing but Go (tessera gen, a subcommand of the tessera command,
is the same). In a package whose module requires Tessera, put one of these
beside the JSON file. The first runs the version the go.mod requires, so
the code fits the ecs package it compiles against:

	//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen -o components_gen.go components.json

The second, after go get -tool github.com/tessera-ecs/tessera/cmd/tessera-gen
has put a tool directive in the go.mod:

	//go:generate go tool tessera-gen -o components_gen.go components.json

The third names the version itself, as go run then ignores the go.mod (make
it the version of Tessera that the go.mod requires):

	//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen@v0.1.0 -o components_gen.go components.json

Every problem of every file is reported as file:line:col: message, and then
nothing is written and the exit status is 1.

A stableName that is another component's default stable name (the import
path of the package, a dot and the type's name) is refused, as the generated
Register would panic on it. The import path is read from the go.mod above the
directory of -o (or the current directory, where go generate runs); without
one, it is taken to end in the package's name.

The definitions are bounded, so that any of them give an error quickly or
code linear in their size: a file of at most %d bytes, %d JSON
values and %d levels of nesting; %d components and %d archetypes
in all; %d fields per component; names of %d bytes; a component's
values nested at most %d levels deep (a level per field, per [] or [N] and
per component held, so a field's type has at most %d levels of [] and
[N]), the depth ecs.World.Load reads; and %d problems listed. A limit
crossed is reported at its file:line:col. See
go doc github.com/tessera-ecs/tessera/internal/compgen.

Flags:
`, prog, compgen.MaxFileBytes, compgen.MaxValues, compgen.MaxJSONDepth, compgen.MaxComponents, compgen.MaxArchetypes,
		compgen.MaxFields, compgen.MaxNameBytes, compgen.MaxTypeDepth, compgen.MaxTypeDepth-1, compgen.MaxErrors)
}

package compgen

import (
	"strconv"
	"unicode/utf8"
)

// The limits of the definitions [Parse] reads. Within them Parse and
// [Generate] take time and memory linear in the size of the files, and
// write code of a size linear in it too; past one, Parse reports an error
// at the place it is crossed (file:line:col) and reads no further there.
const (
	// MaxFileBytes is the size of the largest definition file: 4 MiB.
	MaxFileBytes = 4 << 20
	// MaxValues is the most JSON values one file holds: objects, arrays,
	// strings, numbers, booleans and nulls, keys not counted. It bounds the
	// memory a file takes once read, and the size of its defaults.
	MaxValues = 1 << 19
	// MaxJSONDepth is how deeply a file's JSON values nest: the file's
	// object is at level 0, a field's default at level 5.
	MaxJSONDepth = 64
	// MaxTypeDepth is how deeply a component's values nest: one level for
	// each field, each [N] or [] of its type, and each component a field
	// holds by value, down to a basic type or Entity. A field of type
	// [][]int32 is 3 levels deep, so a component's field types may nest
	// [] and [N] at most 63 deep. It is the depth of types ecs.World.Load
	// reads from a save file: World.Save writes deeper ones, but Load
	// refuses them.
	MaxTypeDepth = 64
	// MaxComponents is the most components the definitions declare, all
	// files together.
	MaxComponents = 4096
	// MaxArchetypes is the most archetypes the definitions declare, all
	// files together.
	MaxArchetypes = 4096
	// MaxFields is the most fields one component has.
	MaxFields = 1024
	// MaxNameBytes is the longest name, in bytes, of a package, component,
	// field or archetype.
	MaxNameBytes = 255
	// MaxErrors is how many problems Parse lists in full: the first it
	// finds, sorted, then the next one with the count of those after it.
	MaxErrors = 1000
)

// quoteClipped is s as a Go string literal for an error message, cut
// after 60 bytes (at a character boundary) with an ellipsis: a message
// quotes a type or a key, whatever its size, in a line one can read.
func quoteClipped(s string) string {
	const most = 60
	if len(s) <= most {
		return strconv.Quote(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// clipped is s for a message: as it is, or quoted and cut when long.
func clipped(s string) string {
	if len(s) <= 60 {
		return s
	}
	return quoteClipped(s)
}

// Command tessera-gen writes the Go code of component definitions written
// in JSON: the types, their DefaultX functions, String, Clone for types
// with slices, save codecs without reflection (ecs.BinaryCodec), one
// Register(w) and typed spawn helpers per archetype.
//
//	tessera-gen [-o out.go] defs.json...
//
// It belongs to Tessera's root module and imports nothing but the standard
// library and that module, so go run and go tool build it at the version
// of Tessera a module requires, with nothing else to download. In a
// package whose module requires Tessera, beside the JSON file:
//
//	//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen -o components_gen.go components.json
//
// or, once go get -tool github.com/tessera-ecs/tessera/cmd/tessera-gen
// has written a tool directive in the go.mod:
//
//	//go:generate go tool tessera-gen -o components_gen.go components.json
//
// or at a version named in the line (go run then ignores the go.mod; name
// the version of Tessera that the go.mod requires, so that the code fits
// the ecs package it is compiled with):
//
//	//go:generate go run github.com/tessera-ecs/tessera/cmd/tessera-gen@v0.1.0 -o components_gen.go components.json
//
// Without -o the code goes to standard output. Every problem of every file
// is reported as file:line:col: message, and then nothing is written. The
// exit status is 0 when the code was written, 1 when the definitions have
// problems or a file cannot be read or written, 2 for bad usage.
// "tessera-gen -h" gives the limits on the definitions; the format is that
// of package internal/compgen (go doc
// github.com/tessera-ecs/tessera/internal/compgen). The tessera command's
// gen subcommand is the same generator.
package main

import (
	"os"

	"github.com/tessera-ecs/tessera/internal/gencmd"
)

func main() {
	os.Exit(gencmd.Run("tessera-gen", os.Args[1:], os.Stdout, os.Stderr))
}

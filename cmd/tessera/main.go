// Command tessera runs Tessera's demo scenarios, generates component code
// from JSON definitions and checks code for what makes a world differ
// between machines or runs.
//
//	tessera demo [flags]   run the particle system, the game-like scenario or the
//	                       predator-prey world and report; with -connect URL,
//	                       replicate a tessera serve's world instead
//	tessera serve [flags]  run the game (or particle) scenario headless and
//	                       replicate it over WebSocket (package net/netcode)
//	tessera gen [-o out.go] defs.json...
//	                       write the Go code of component definitions (the
//	                       generator of cmd/tessera-gen, which is the one
//	                       to name in //go:generate lines)
//	tessera desync A.log B.log
//	                       the first tick at which two -checksums logs differ,
//	                       and the types that differ there
//	tessera vet [packages] run go vet with the determinism analyzer
//	                       (package detcheck) on the packages (default ./...)
//	tessera diff [-n N] [-json] A.sav B.sav
//	                       compare two save files: exit status 0 when equal,
//	                       1 when they differ, 2 on error
//
// Run "tessera demo -h", "tessera serve -h", "tessera gen -h",
// "tessera vet -h" or "tessera diff -h" for the flags.
//
// The binary is also a go vet tool: when go vet runs it (with -V=full,
// -flags or a *.cfg file), it runs the detcheck analyzer, so
//
//	go vet -vettool=$(command -v tessera) ./...
//
// does what tessera vet does.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if isVetTool(os.Args[1:]) {
		runVetTool()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status: 0 on
// success, 2 for bad usage, 1 when the run itself fails.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "gen":
		return gen(args[1:], stdout, stderr)
	case "vet":
		return vet(args[1:], stdout, stderr)
	case "desync":
		return desyncCmd(args[1:], stdout, stderr)
	case "diff":
		return diffSaves(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "tessera: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: tessera <command> [flags]

Commands:
  demo    run the particle system (default), the game-like scenario or the
          predator-prey world and report
          ticks per second, tick times, memory and each system's share;
          with -connect URL, a client of tessera serve
  serve   run the game (or particle) scenario headless and replicate it
          over WebSocket to clients (tessera demo -connect) with a token
  gen     write the Go code (types, save codecs, Register, spawn helpers)
          of component definitions written in JSON (the same generator as
          go run github.com/tessera-ecs/tessera/cmd/tessera-gen)
  vet     run go vet with the determinism analyzer: report code that makes
          a world differ between machines, runs or worker counts
          (go vet -vettool=$(command -v tessera) ./... does the same)
  diff    compare two save files (-save): entities, components, values
          field by field, relations, resources, event queues; exit status
          0 when equal, 1 when they differ, 2 on error
  desync  compare two demo -checksums logs: the first tick at which they
          differ, and the component types, relations, resources and event
          queues that differ there

Run "tessera demo -h", "tessera serve -h", "tessera gen -h", "tessera vet -h"
or "tessera diff -h" for their flags.
`)
}

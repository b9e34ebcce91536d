// Command tessera runs Tessera's demo scenarios and generates component
// code from JSON definitions.
//
//	tessera demo [flags]   run the particle system, the game-like scenario or the
//	                       predator-prey world and report
//	tessera gen [-o out.go] defs.json...
//	                       write the Go code of component definitions
//
// Run "tessera demo -h" or "tessera gen -h" for the flags.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
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
	case "gen":
		return gen(args[1:], stdout, stderr)
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
          ticks per second, tick times, memory and each system's share
  gen     write the Go code (types, save codecs, Register, spawn helpers)
          of component definitions written in JSON

Run "tessera demo -h" or "tessera gen -h" for their flags.
`)
}

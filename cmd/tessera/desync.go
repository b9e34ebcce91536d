package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tessera-ecs/tessera/desync"
)

// desyncCmd compares two -checksums logs: the first tick at which they
// differ and the parts (component types, relations, resources, event
// queues) that differ there. Exit status 0 when they agree on every tick
// both hold, 1 when they differ, 2 on bad usage or an unreadable log.
func desyncCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tessera desync", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: tessera desync A.log B.log

Compares two logs that tessera demo -checksums (or package desync) wrote, tick
by tick, and prints the first tick at which they differ and the parts of the
world that differ there. Exit status: 0 if they agree, 1 if they differ, 2 on
error.
`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "tessera desync: want two log files")
		fs.Usage()
		return 2
	}
	var logs [2][]desync.Frame
	for i, path := range fs.Args() {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(stderr, "tessera desync:", err)
			return 2
		}
		logs[i], err = desync.ReadLog(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "tessera desync: %s: %v\n", path, err)
			return 2
		}
	}
	d, ok := desync.FirstDivergence(logs[0], logs[1])
	if !ok {
		fmt.Fprintf(stdout, "the logs agree on every tick both hold (%d and %d ticks)\n", len(logs[0]), len(logs[1]))
		return 0
	}
	fmt.Fprintln(stdout, d)
	fmt.Fprintf(stdout, "to name the entities and fields: run both again with -ticks %d -save FILE, then tessera diff the two files\n", d.Tick)
	return 1
}

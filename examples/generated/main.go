package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
)

func main() {
	n := flag.Int("n", 10_000, "entities")
	ticks := flag.Int("ticks", 100, "ticks to run before the save")
	seed := flag.Uint64("seed", 1, "seed of the spawned values")
	flag.Parse()
	if err := run(os.Stdout, *n, *ticks, *seed, true); err != nil {
		fmt.Fprintln(os.Stderr, "generated:", err)
		os.Exit(1)
	}
}

// run plays the game for ticks ticks on n entities, then saves the world
// and loads it back through the generated codecs, and writes what it
// sees to out (with the save and load times when timed).
func run(out io.Writer, n, ticks int, seed uint64, timed bool) error {
	if n < 2 || ticks < 0 {
		return fmt.Errorf("want -n of at least 2 and -ticks of at least 0, got %d and %d", n, ticks)
	}
	w := newWorld(n, seed)
	g := newGame(w)

	// A snapshot before the ticks: Inventory holds a slice, and its
	// generated Clone is what lets the snapshot take it.
	var start ecs.Snapshot
	w.Snapshot(&start)
	for range ticks {
		g.tick()
	}
	sum := w.Checksum()
	fmt.Fprintf(out, "%d entities, %d ticks, checksum %016x\n", w.Len(), ticks, sum)

	chars := ecs.NewQuery3[Player, Health, Sprite](w)
	for r := range chars.All() {
		fmt.Fprintf(out, "first character: %v %v %v\n", *r.A, *r.B, *r.C)
		break
	}

	var file bytes.Buffer
	began := time.Now()
	if err := w.Save(&file); err != nil {
		return err
	}
	saved := time.Since(began)
	back := ecs.NewWorld()
	Register(back)
	began = time.Now()
	if err := back.Load(bytes.NewReader(file.Bytes())); err != nil {
		return err
	}
	loaded := time.Since(began)
	if back.Checksum() != sum {
		return fmt.Errorf("the loaded world's checksum %016x differs from the saved one's", back.Checksum())
	}
	fmt.Fprintf(out, "saved %d bytes and loaded them back: same checksum\n", file.Len())
	if timed {
		fmt.Fprintf(out, "save %v, load %v (generated codecs, no reflection)\n", saved.Round(time.Microsecond), loaded.Round(time.Microsecond))
	}

	w.Restore(&start)
	g.tick()
	fresh := newWorld(n, seed)
	newGame(fresh).tick()
	if w.Checksum() != fresh.Checksum() {
		return fmt.Errorf("after Restore and one tick, checksum %016x; a fresh world's is %016x", w.Checksum(), fresh.Checksum())
	}
	fmt.Fprintln(out, "restored the snapshot from before the ticks: one tick on from it matches a fresh world's")
	return nil
}

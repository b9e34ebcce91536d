package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/tessera-ecs/tessera/internal/compgen"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, 2000, 30, 7, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, want := range []string{"2000 entities, 30 ticks, checksum ", "first character: Player{Rng: Rand32{State: ",
		"saved ", "restored the snapshot"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want it to start %q", i, lines[i], want)
		}
	}
	var again bytes.Buffer
	if err := run(&again, 2000, 30, 7, false); err != nil || again.String() != out.String() {
		t.Errorf("a second run printed otherwise (%v):\n%s", err, again.String())
	}
	if err := run(&again, 1, 0, 0, false); err == nil {
		t.Error("run accepted one entity")
	}
}

// TestGeneratedCodeIsCurrent: components_gen.go is what tessera gen writes
// from components.json today (go generate ./examples/generated).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	data, err := os.ReadFile("components.json")
	if err != nil {
		t.Fatal(err)
	}
	defs, errs := compgen.Parse(compgen.File{Name: "components.json", Data: data})
	if errs != nil {
		t.Fatal(errs)
	}
	want, err := compgen.Generate(defs, []string{"components.json"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("components_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("components_gen.go is stale: run go generate ./examples/generated")
	}
}

// TestReflectionTwinSavesTheSameBytes: the world of the benchmark's
// reflection side is the same world: it saves to the same bytes.
func TestReflectionTwinSavesTheSameBytes(t *testing.T) {
	w := newWorld(500, 3)
	g := newGame(w)
	for range 5 {
		g.tick()
	}
	file := saveOf(w)
	twin := loadPlain(file)
	if !bytes.Equal(saveOf(twin), file) {
		t.Fatal("the reflection twin saves other bytes")
	}
	if loadGenerated(file).Checksum() != w.Checksum() {
		t.Fatal("the generated load gives another checksum")
	}
}

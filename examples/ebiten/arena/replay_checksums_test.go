package arena

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// replayPlan saves, rewinds and loads during a 320-frame replay: the
// headless replay that CI runs on amd64, arm64, 386 and wasm.
const replayPlan = "60:save,120:rewind=30,200:load,250:save,280:load"

// replayChecksums replays the script with replayPlan on the given workers
// and returns the world's checksum after every frame. It also checks that a
// load gives back the checksum the save had.
func replayChecksums(t *testing.T, workers int) []uint64 {
	t.Helper()
	plan, err := ParsePlan(replayPlan)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seed: 11, Rocks: 300, Workers: workers}
	r := &replayer{cfg: cfg, g: New(cfg)}
	defer func() { r.g.Close() }()
	var sums []uint64
	var saved uint64
	for f := range 320 {
		for ; len(plan) > 0 && plan[0].Frame == f; plan = plan[1:] {
			if err := plan[0].Apply(r); err != nil {
				t.Fatalf("frame %d: %v", f, err)
			}
			switch plan[0].Do {
			case "save":
				saved = r.g.W.Checksum()
			case "load":
				if got := r.g.W.Checksum(); got != saved {
					t.Fatalf("frame %d: the loaded world's checksum is %016x, the saved one's %016x", f, got, saved)
				}
			}
		}
		r.g.Step(Script(int(r.g.Score().Tick)))
		sums = append(sums, r.g.W.Checksum())
	}
	return sums
}

// TestReplayChecksumsPerFrame: the replay gives the same checksum after
// every frame on 1 and 2 workers. With TESSERA_CHECKSUMS_OUT set it writes
// them to that file, a line per frame, for CI to compare across machines.
func TestReplayChecksumsPerFrame(t *testing.T) {
	one, two := replayChecksums(t, 1), replayChecksums(t, 2)
	for f := range one {
		if one[f] != two[f] {
			t.Fatalf("frame %d: checksum %016x on 1 worker, %016x on 2", f, one[f], two[f])
		}
	}
	if one[0] == one[len(one)-1] {
		t.Fatal("the world did not change in the replay")
	}
	if path := os.Getenv("TESSERA_CHECKSUMS_OUT"); path != "" {
		var b strings.Builder
		for f, s := range one {
			fmt.Fprintf(&b, "%d %016x\n", f+1, s)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

package arena

import (
	"reflect"
	"strings"
	"testing"
)

func TestParsePlan(t *testing.T) {
	plan, err := ParsePlan("120:save,200:rewind=40,200:load")
	want := []Act{{120, "save", 0}, {200, "rewind", 40}, {200, "load", 0}}
	if err != nil || !reflect.DeepEqual(plan, want) {
		t.Fatalf("ParsePlan = %v, %v; want %v", plan, err, want)
	}
	if plan, err := ParsePlan(""); plan != nil || err != nil {
		t.Fatalf("the empty plan: %v, %v", plan, err)
	}
	for bad, says := range map[string]string{
		"save":                "want frame:action",
		"-1:save":             "want frame:action",
		"x:save":              "want frame:action",
		"10:jump":             "the action is save, load or rewind=N",
		"10:rewind=0":         "want rewind=N",
		"10:rewind=":          "want rewind=N",
		"10:save,5:load":      `"5:load": frames must not go down`,
		"10:save,,20:load":    `plan item ""`,
		"10:rewind=5,20:load": `"20:load": a load before any save`,
	} {
		if _, err := ParsePlan(bad); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParsePlan(%q) = %v; want an error saying %q", bad, err, says)
		}
	}
}

// TestReplay: a plan that saves at tick 50, rewinds 30 ticks at frame 100
// and loads the save at frame 120 ends, after 150 frames, at tick 80 with
// the world a plain run of 80 ticks gives, since the script's input
// depends on the tick alone.
func TestReplay(t *testing.T) {
	cfg := Config{Seed: 7, Rocks: 400, Workers: 2, Debug: true}
	plan, err := ParsePlan("50:save,100:rewind=30,120:load")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(cfg, 150, plan)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	plain := newTestGame(t, 1)
	Run(plain, 80)
	if g.Score() != plain.Score() || digest(g) != digest(plain) || g.W.Checksum() != plain.W.Checksum() {
		t.Fatalf("replayed to %+v; a plain run of 80 ticks gives %+v (digests equal: %v, checksums equal: %v)",
			g.Score(), plain.Score(), digest(g) == digest(plain), g.W.Checksum() == plain.W.Checksum())
	}
	if _, err := Replay(cfg, 20, []Act{{Frame: 10, Do: "load"}}); err == nil || !strings.Contains(err.Error(), "load before any save") {
		t.Fatalf("a load before any save: %v", err)
	}
	if _, err := Replay(cfg, 20, []Act{{Frame: 20, Do: "save"}}); err == nil || !strings.Contains(err.Error(), "save at frame 20, but the run has 20 frames") {
		t.Fatalf("an act past the last frame: %v", err)
	}
}

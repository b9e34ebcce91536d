package arena

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Act is one of the things a player does besides steering, at a given
// frame: what the F5 (save) and F9 (load) keys do, or a rewind. A frame is
// one call of the game loop's Update, counted from 0; the world's tick
// goes back on a load or a rewind, the frame does not, so a plan written
// in frames cannot loop. A rewind of N ticks happens at once, and the
// frame's tick then runs (holding R instead takes a frame per tick back
// and runs none).
type Act struct {
	Frame int    // the Update call it happens at, from 0, before that frame's tick
	Do    string // "save", "load" or "rewind"
	N     int    // for "rewind": how many ticks back (stopping at the ring's oldest)
}

// ParsePlan reads a plan written as comma-separated frame:action items,
// the action save, load or rewind=N, in frame order:
// "120:save,200:rewind=40,260:load". The empty string is the empty plan.
// It returns an error naming the first item it cannot read, or a load
// that comes before every save (it would read a file of another run).
func ParsePlan(s string) ([]Act, error) {
	var plan []Act
	if s == "" {
		return nil, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		frame, action, ok := strings.Cut(item, ":")
		f, err := strconv.Atoi(frame)
		if !ok || err != nil || f < 0 {
			return nil, fmt.Errorf("plan item %q: want frame:action with a frame of at least 0", item)
		}
		a := Act{Frame: f, Do: action}
		if n, ok := strings.CutPrefix(action, "rewind="); ok {
			a.Do = "rewind"
			if a.N, err = strconv.Atoi(n); err != nil || a.N < 1 {
				return nil, fmt.Errorf("plan item %q: want rewind=N with N of at least 1", item)
			}
		} else if action != "save" && action != "load" {
			return nil, fmt.Errorf("plan item %q: the action is save, load or rewind=N", item)
		}
		if len(plan) > 0 && f < plan[len(plan)-1].Frame {
			return nil, fmt.Errorf("plan item %q: frames must not go down", item)
		}
		if a.Do == "load" && !slices.ContainsFunc(plan, func(a Act) bool { return a.Do == "save" }) {
			return nil, fmt.Errorf("plan item %q: a load before any save", item)
		}
		plan = append(plan, a)
	}
	return plan, nil
}

// Actor is what a plan's acts act on: the front end, whose F5, F9 and R
// keys call the same methods, or Replay's game kept in memory.
type Actor interface {
	Save() error  // F5: save the world
	Load() error  // F9: replace the game with the last save
	Rewind() bool // one tick back; false when the ring holds nothing older
}

// Apply does a to x: a save, a load, or up to N rewinds (fewer when the
// ring runs out). It returns the save's or the load's error.
func (a Act) Apply(x Actor) error {
	switch a.Do {
	case "save":
		return x.Save()
	case "load":
		return x.Load()
	case "rewind":
		for i := 0; i < a.N && x.Rewind(); i++ {
		}
	}
	return nil
}

// Replay plays frames frames of [Script] on a new game made from cfg, as
// the front end does with -script and -plan: before the tick of frame f
// it applies each of plan's acts at f, in order. Save keeps the world in
// memory, load replaces the game with one loaded from the last save (on
// cfg's workers), rewind goes back up to N ticks. It returns the game at
// the end, which the caller closes, or an error for an act at frame
// frames or later (it would never happen), a load before any save, or a
// save or load that failed.
func Replay(cfg Config, frames int, plan []Act) (*Game, error) {
	if err := PlanFits(plan, frames); err != nil {
		return nil, err
	}
	r := &replayer{cfg: cfg, g: New(cfg)}
	for f := range frames {
		for ; len(plan) > 0 && plan[0].Frame == f; plan = plan[1:] {
			if err := plan[0].Apply(r); err != nil {
				r.g.Close()
				return nil, err
			}
		}
		r.g.Step(Script(int(r.g.Score().Tick)))
	}
	return r.g, nil
}

// replayer is Replay's Actor: a game and its last save, in memory.
type replayer struct {
	cfg   Config
	g     *Game
	saved []byte
}

func (r *replayer) Save() error {
	var b bytes.Buffer
	if err := r.g.Save(&b); err != nil {
		return err
	}
	r.saved = b.Bytes()
	return nil
}

func (r *replayer) Load() error {
	if r.saved == nil {
		return errors.New("replay: load before any save")
	}
	back, err := Load(r.cfg, bytes.NewReader(r.saved))
	if err != nil {
		return err
	}
	r.g.Close()
	r.g = back
	return nil
}

func (r *replayer) Rewind() bool { return r.g.Rewind() }

// PlanFits returns an error when an act of plan is at frame frames or
// later, which a run of frames frames never reaches.
func PlanFits(plan []Act, frames int) error {
	if len(plan) > 0 && plan[len(plan)-1].Frame >= frames {
		a := plan[len(plan)-1]
		return fmt.Errorf("plan: %s at frame %d, but the run has %d frames (0 to %d)", a.Do, a.Frame, frames, frames-1)
	}
	return nil
}

package inspect

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/tessera-ecs/tessera/ecs"
)

// maxBranchTicks bounds the ticks one branch replays: they run in one job,
// on the world's goroutine, while the loop waits.
const maxBranchTicks = 10000

// branch is an open branch: the world as it would be at tick to had the
// ticks after from run with other systems or another value. Its state is
// kept in snap, never in the world, which stays the main line's.
type branch struct {
	from, to uint64
	systems  map[string]bool
	edits    []branchEdit
	snap     ecs.Snapshot
	diff     *diffAnswer // main line (A) against the branch (B) at tick to
	note     string      // why diff is nil
}

// branchEdit is one value a branch sets at its first tick.
type branchEdit struct {
	Entity    string          `json:"entity"`
	Component string          `json:"component"`
	Value     json.RawMessage `json:"value,omitempty"`
}

// branchRequest is the body of POST /api/branch.
type branchRequest struct {
	Tick    *uint64         `json:"tick"`    // where the branch starts: a tick the history holds
	Ticks   *int            `json:"ticks"`   // ticks to run; default: up to the newest tick held
	Systems map[string]bool `json:"systems"` // systems to turn off (false) or on (true) in the branch
	Set     []branchEdit    `json:"set"`     // values to set before the first tick
	Limit   int             `json:"limit"`   // differences to list, 1 to maxLimit (default defaultLimit)
}

// branchState is the answer of POST and GET /api/branch, and the branch
// of GET /api/history (without its diff).
type branchState struct {
	From    uint64          `json:"from"`
	To      uint64          `json:"to"`
	Ticks   uint64          `json:"ticks"`
	Systems map[string]bool `json:"systems"`
	Set     []branchEdit    `json:"set"`
	Diff    *diffAnswer     `json:"diff,omitempty"`
	Note    string          `json:"note,omitempty"`
}

func (b *branch) state(withDiff bool) branchState {
	s := branchState{From: b.from, To: b.to, Ticks: b.to - b.from, Systems: b.systems, Set: b.edits, Note: b.note}
	if withDiff {
		s.Diff = b.diff
	}
	return s
}

// replayStep is how a branch runs one tick: the Replay option's step, or
// the scheduler's Run, or nil when there is neither.
func (in *Inspector) replayStep() func() {
	switch {
	case in.tt.replay != nil:
		return in.tt.replay
	case in.s != nil:
		return in.s.Run
	}
	return nil
}

// decodedEdit is a branchEdit whose value is decoded.
type decodedEdit struct {
	branchEdit
	c ecs.ComponentInfo
	v any
}

// startBranch answers POST /api/branch. Everything the request names is
// checked before anything changes; then, in this one job, the live state
// is saved, the snapshot of the starting tick restored, the values set and
// the systems switched, the ticks replayed and the result saved into the
// branch's own snapshot, and the live state and the systems put back.
// The world is the main line's again when the job ends, whatever happens
// in it (a panic included), and the loop is held until the branch is left.
func (in *Inspector) startBranch(body []byte) (any, *httpError) {
	if b := in.tt.branch; b != nil {
		return nil, errorf(http.StatusConflict, "a branch from tick %d is open: leave it first (DELETE /api/branch)", b.from)
	}
	if err := in.needRing(); err != nil {
		return nil, err
	}
	var req branchRequest
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	if req.Tick == nil {
		return nil, badRequest(`body: want {"tick": N, ...}, the tick the branch starts from`)
	}
	step := in.replayStep()
	if step == nil {
		return nil, errorf(http.StatusConflict, "a branch cannot run ticks: give the inspector a Scheduler or a Replay step")
	}
	start, err := in.snapshotAt(*req.Tick)
	if err != nil {
		return nil, err
	}
	newest, _ := in.tt.ring.Newest()
	n := int64(newest - *req.Tick)
	if req.Ticks != nil {
		n = int64(*req.Ticks)
	}
	if n < 0 || n > maxBranchTicks {
		return nil, badRequest("ticks %d: want 0 to %d", n, maxBranchTicks)
	}
	limit := defaultLimit
	if req.Limit != 0 {
		if req.Limit < 1 || req.Limit > maxLimit {
			return nil, badRequest("limit %d: want 1 to %d", req.Limit, maxLimit)
		}
		limit = req.Limit
	}
	names := slices.Sorted(maps.Keys(req.Systems))
	if len(names) > 0 && in.s == nil {
		return nil, errorf(http.StatusConflict, "no scheduler attached (inspect.Scheduler): a branch cannot switch systems")
	}
	was := map[string]bool{}
	if in.s != nil {
		for _, st := range in.s.Stats() {
			was[st.Name] = st.Enabled
		}
	}
	for _, name := range names {
		if _, ok := was[name]; !ok {
			return nil, badRequest("no system named %q", name)
		}
	}
	edits := make([]decodedEdit, 0, len(req.Set))
	for _, e := range req.Set {
		c, err := component(in.w, e.Component)
		if err != nil {
			return nil, err
		}
		v, derr := in.w.Reflect().DecodeValue(c.Type, e.Value)
		if derr != nil {
			return nil, badRequest("set %s on %s: %v", c.Name, e.Entity, derr)
		}
		edits = append(edits, decodedEdit{branchEdit{Entity: e.Entity, Component: c.Name, Value: e.Value}, c, v})
	}
	if err := in.w.CanSnapshot(); err != nil {
		return nil, errorf(http.StatusConflict, "cannot branch: %v", err)
	}

	b := &branch{from: *req.Tick, to: *req.Tick + uint64(n), systems: map[string]bool{}, edits: []branchEdit{}}
	for _, name := range names {
		b.systems[name] = req.Systems[name]
	}
	for _, e := range edits {
		b.edits = append(b.edits, e.branchEdit)
	}
	if herr := in.runBranch(b, start, edits, names, was, int(n), step); herr != nil {
		return nil, herr
	}
	if main := in.tt.ring.At(b.to); main != nil {
		b.diff = diffJSON(b.to, b.to, ecs.Diff(main, &b.snap, limit))
	} else {
		b.note = fmt.Sprintf("the main line has no tick %d to compare with: its history ends at tick %d", b.to, newest)
	}
	in.tt.branch = b
	return b.state(true), nil
}

// runBranch plays b in the world and saves its end into b.snap, then puts
// the live state and the systems back (deferred, so also on a panic or an
// edit naming an entity that was not alive then).
func (in *Inspector) runBranch(b *branch, start *ecs.Snapshot, edits []decodedEdit, names []string, was map[string]bool, n int, step func()) *httpError {
	in.w.Snapshot(&in.tt.live)
	before := uint64(0)
	if in.s != nil {
		before = in.s.Ticks()
	}
	defer func() {
		if in.s != nil {
			in.tt.replayed += in.s.Ticks() - before
			for _, name := range names {
				_ = in.s.Enable(name, was[name]) // the name was checked
			}
		}
	}()
	defer in.backToLive()
	in.w.Restore(start)
	cmds := in.w.NewCommands()
	for _, e := range edits {
		ent, err := parseEntity(in.w, e.Entity)
		if err != nil {
			return badRequest("set %s: at tick %d, %s", e.c.Name, b.from, err.msg)
		}
		cmds.SetValue(ent, e.v)
	}
	in.w.Apply(cmds)
	for _, name := range names {
		_ = in.s.Enable(name, b.systems[name])
	}
	for range n {
		step()
	}
	in.w.Snapshot(&b.snap)
	return nil
}

// branchNow answers GET /api/branch.
func (in *Inspector) branchNow() (any, *httpError) {
	if in.tt.branch == nil {
		return nil, errorf(http.StatusConflict, "no branch is open (POST /api/branch)")
	}
	return in.tt.branch.state(true), nil
}

// leftBranch is the answer of DELETE /api/branch.
type leftBranch struct {
	Left uint64 `json:"left"` // the tick the branch started from
	Tick uint64 `json:"tick"` // the main line's tick, where the loop goes on
}

// leaveBranch answers DELETE /api/branch: the branch is dropped and the
// loop goes on from the main line, which the branch never changed.
func (in *Inspector) leaveBranch() (any, *httpError) {
	b := in.tt.branch
	if b == nil {
		return nil, errorf(http.StatusConflict, "no branch is open to leave")
	}
	in.tt.branch = nil
	return leftBranch{Left: b.from, Tick: in.tick()}, nil
}

package inspect_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
)

// driver runs a fixture's loop on a goroutine of its own, as a game's
// loop would, but ticks only when the test asks: between asks it serves
// the requests (Serve), so the tests know exactly which ticks ran.
type driver struct {
	f    *fixture
	jobs chan func()
}

// drive starts the loop and runs its first Tick, which saves tick 0 and
// runs tick 1.
func (f *fixture) drive() *driver {
	d := &driver{f: f, jobs: make(chan func())}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case job := <-d.jobs:
				job()
			case <-time.After(time.Millisecond):
				f.in.Serve()
			}
		}
	}()
	f.t.Cleanup(func() { close(stop); <-done })
	d.tick(1)
	return d
}

// onLoop runs fn on the loop's goroutine, between ticks, and waits for it.
func (d *driver) onLoop(fn func()) {
	done := make(chan struct{})
	d.jobs <- func() { fn(); close(done) }
	<-done
}

// tick calls Tick n times and returns how many ran a tick.
func (d *driver) tick(n int) (ran int) {
	d.onLoop(func() {
		for range n {
			if d.f.in.Tick(d.f.s.Run) {
				ran++
			}
		}
	})
	return ran
}

func (d *driver) checksum() (sum uint64) {
	d.onLoop(func() { sum = d.f.w.Checksum() })
	return sum
}

// historyFixture is a fixture with a ring of depth ticks and the token,
// driven by the test: the ring holds ticks 0 and 1 when it returns.
func historyFixture(t *testing.T, depth int, opts ...inspect.Option) (*fixture, *driver) {
	f := newFixture(t, append([]inspect.Option{inspect.Token(token), inspect.History(ecs.NewSnapshotRing(depth))}, opts...)...)
	return f, f.drive()
}

type historyAnswer struct {
	Depth, Count   int
	Ticks          []uint64
	Contiguous     bool
	Oldest, Newest *uint64
	Saving, Replay bool
	Error          string
	Branch         *branchAnswer
}

type diffAnswer struct {
	A, B, Total, Entities int
	Parts                 []struct {
		Part, Type string
		N          int
	}
	Differences []struct{ Kind, Part, Type, Entity, Field, A, B string }
}

type branchAnswer struct {
	From, To, Ticks uint64
	Systems         map[string]bool
	Diff            *diffAnswer
	Note            string
}

// positionX reads the X of the Position of entity id, through the API.
func (f *fixture) positionX(path string) float64 {
	f.t.Helper()
	var e struct {
		Components []struct {
			Name  string
			Value json.RawMessage
		}
	}
	f.get(path, &e)
	for _, c := range e.Components {
		if strings.HasSuffix(c.Name, ".Position") {
			var p Position
			if err := json.Unmarshal(c.Value, &p); err != nil {
				f.t.Fatal(err)
			}
			return p.X
		}
	}
	f.t.Fatalf("GET %s: no Position", path)
	return 0
}

// TestHistoryScrub reads the world as it was at past ticks, and checks
// that doing so leaves the live world exactly as it was.
func TestHistoryScrub(t *testing.T) {
	f, d := historyFixture(t, 16)
	if ran := d.tick(5); ran != 5 {
		t.Fatalf("%d ticks ran of 5", ran)
	}
	var h historyAnswer
	f.get("/api/history?list=1", &h)
	if h.Depth != 16 || h.Count != 7 || !h.Contiguous || !slices.Equal(h.Ticks, []uint64{0, 1, 2, 3, 4, 5, 6}) || *h.Oldest != 0 || *h.Newest != 6 || !h.Saving || !h.Replay || h.Branch != nil {
		t.Fatalf("history: %+v", h)
	}
	e0 := "/api/entities/" + f.es[0].String() // moves 1 in X a tick, from 0
	before := d.checksum()
	for _, tick := range []int{0, 2, 6} {
		if x := f.positionX(fmt.Sprintf("%s?at=%d", e0, tick)); x != float64(tick) {
			t.Errorf("at=%d: X %v, want %d", tick, x, tick)
		}
	}
	var page struct{ Total int }
	f.get("/api/entities?at=3&with=inspect_test.Velocity", &page)
	if page.Total != 84 {
		t.Errorf("at=3: %d entities with Velocity, want 84", page.Total)
	}
	for _, path := range []string{"/api/world?at=1", "/api/components?at=1", "/api/tables?at=1", "/api/resources?at=2"} {
		var v any
		f.get(path, &v)
	}
	var res struct{ Resources []struct{ Value Score } }
	f.get("/api/resources?at=2", &res)
	if len(res.Resources) != 1 || res.Resources[0].Value.Points != 3+2 {
		t.Errorf("score at tick 2: %+v, want 5", res.Resources)
	}
	if x := f.positionX(e0); x != 6 {
		t.Errorf("live X %v after reading the past, want 6", x)
	}
	if after := d.checksum(); after != before {
		t.Errorf("reading the past changed the world: checksum %x then %x", before, after)
	}

	// Misuse: a tick not held, a bad tick, no branch, writes to the past.
	status, body := f.call(http.MethodGet, e0+"?at=99", "")
	wantError(t, "at a tick not held", status, body, http.StatusConflict, "tick 99 is not held: the history holds ticks 0 to 6")
	status, body = f.call(http.MethodGet, e0+"?at=yesterday", "")
	wantError(t, "at a bad tick", status, body, http.StatusBadRequest, "want a tick number")
	status, body = f.call(http.MethodGet, e0+"?at=1&at=2", "")
	wantError(t, "two ats", status, body, http.StatusBadRequest, "at given 2 times")
	status, body = f.call(http.MethodGet, e0+"?at=branch", "")
	wantError(t, "at=branch without one", status, body, http.StatusConflict, "no branch is open")
	status, body = f.write(http.MethodPut, e0+"/components/inspect_test.Position?at=2", `{"X": 50}`)
	wantError(t, "write while scrubbing", status, body, http.StatusConflict, "a past tick is read-only")
	status, body = f.write(http.MethodDelete, e0+"?at=2", "")
	wantError(t, "despawn while scrubbing", status, body, http.StatusConflict, "a past tick is read-only")
	if after := d.checksum(); after != before {
		t.Errorf("refused writes changed the world: checksum %x then %x", before, after)
	}

	// The ring forgets the oldest ticks as new ones come.
	d.tick(12)
	h = historyAnswer{}
	f.get("/api/history", &h)
	if h.Count != 16 || h.Ticks != nil || *h.Oldest != 3 || *h.Newest != 18 {
		t.Errorf("after 18 ticks, a ring of 16 holds %+v", h)
	}
	status, body = f.call(http.MethodGet, e0+"?at=2", "")
	wantError(t, "at a tick forgotten", status, body, http.StatusConflict, "tick 2 is not held")
}

// TestHistoryDiff compares two ticks the ring holds.
func TestHistoryDiff(t *testing.T) {
	f, d := historyFixture(t, 16)
	d.tick(4)
	var r diffAnswer
	f.get("/api/history/diff?a=1&b=4&limit=3", &r)
	// 84 movers' Position, and the Score resource.
	if r.A != 1 || r.B != 4 || r.Total != 85 || r.Entities != 84 || len(r.Differences) != 3 {
		t.Fatalf("diff 1..4: %+v", r)
	}
	if len(r.Parts) != 2 || !strings.HasSuffix(r.Parts[0].Type, "inspect_test.Position") || r.Parts[0].N != 84 || r.Parts[1].Part != "resource" || r.Parts[1].N != 1 {
		t.Errorf("parts: %+v", r.Parts)
	}
	first := r.Differences[0]
	if first.Kind != "differs" || first.Part != "component" || first.Entity != f.es[0].String() || first.Field != "X" || first.A != "1" || first.B != "4" {
		t.Errorf("first difference: %+v", first)
	}
	f.get("/api/history/diff?a=3&b=3", &r)
	if r.Total != 0 || len(r.Differences) != 0 {
		t.Errorf("a tick against itself: %+v", r)
	}
	for _, c := range []struct {
		query  string
		status int
		want   string
	}{
		{"a=1&b=40", http.StatusConflict, "tick 40 is not held"},
		{"a=1", http.StatusBadRequest, "want the tick numbers a and b"},
		{"a=x&b=1", http.StatusBadRequest, "want a tick number"},
		{"a=1&b=2&limit=0", http.StatusBadRequest, "limit"},
	} {
		status, body := f.call(http.MethodGet, "/api/history/diff?"+c.query, "")
		wantError(t, c.query, status, body, c.status, c.want)
	}
	status, body := f.write(http.MethodPost, "/api/history/diff?a=1&b=2", "")
	wantError(t, "POST diff", status, body, http.StatusMethodNotAllowed, "not allowed")
}

// TestBranch replays from a past tick with a system off, compares with the
// main line, and leaves: the main line must be exactly as before, and go
// on as a world that never branched does.
func TestBranch(t *testing.T) {
	f, d := historyFixture(t, 32)
	d.tick(10) // ticks 0 to 11 held
	before := d.checksum()
	e0 := "/api/entities/" + f.es[0].String()

	status, body := f.write(http.MethodPost, "/api/branch", `{"tick": 5, "systems": {"move": false}}`)
	if status != http.StatusCreated {
		t.Fatalf("branch: %d %s", status, body)
	}
	var b branchAnswer
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	if b.From != 5 || b.To != 11 || b.Ticks != 6 || !maps2Equal(b.Systems, map[string]bool{"move": false}) || b.Diff == nil {
		t.Fatalf("branch: %s", body)
	}
	// Without move, the 84 movers stay where they were at tick 5; the
	// score system ran in both lines.
	if b.Diff.Total != 84 || len(b.Diff.Parts) != 1 || !strings.HasSuffix(b.Diff.Parts[0].Type, "inspect_test.Position") {
		t.Errorf("branch diff: %+v", b.Diff)
	}
	if d0 := b.Diff.Differences[0]; d0.Entity != f.es[0].String() || d0.Field != "X" || d0.A != "11" || d0.B != "5" {
		t.Errorf("first difference: %+v", d0)
	}
	if x := f.positionX(e0 + "?at=branch"); x != 5 {
		t.Errorf("X in the branch %v, want 5", x)
	}
	if x := f.positionX(e0); x != 11 {
		t.Errorf("live X %v while branching, want 11", x)
	}
	var again branchAnswer
	f.get("/api/branch", &again)
	if again.From != 5 || again.Diff == nil || again.Diff.Total != 84 {
		t.Errorf("GET /api/branch: %+v", again)
	}
	var h historyAnswer
	f.get("/api/history", &h)
	if h.Branch == nil || h.Branch.From != 5 || h.Branch.Diff != nil {
		t.Errorf("history's branch: %+v", h.Branch)
	}

	// The main line is held: no tick runs, no write lands.
	if ran := d.tick(3); ran != 0 {
		t.Errorf("%d ticks ran while a branch was open", ran)
	}
	status, body = f.write(http.MethodPost, "/api/branch", `{"tick": 6}`)
	wantError(t, "branch while branching", status, body, http.StatusConflict, "a branch from tick 5 is open")
	status, body = f.write(http.MethodPut, e0+"/components/inspect_test.Position", `{"X": 50}`)
	wantError(t, "write while branching", status, body, http.StatusConflict, "leave the branch first")
	status, body = f.write(http.MethodPut, "/api/systems/move", `{"enabled": false}`)
	wantError(t, "system switch while branching", status, body, http.StatusConflict, "leave the branch first")
	status, body = f.write(http.MethodPost, "/api/loop/step", "")
	wantError(t, "step while branching", status, body, http.StatusConflict, "leave the branch first")
	if status, body := f.write(http.MethodPost, "/api/loop/pause", ""); status != http.StatusOK {
		t.Errorf("pause while branching: %d %s", status, body)
	}
	if status, body := f.write(http.MethodPost, "/api/loop/resume", ""); status != http.StatusOK {
		t.Errorf("resume while branching: %d %s", status, body)
	}

	status, body = f.write(http.MethodDelete, "/api/branch", "")
	if status != http.StatusOK || !strings.Contains(string(body), `"left":5`) || !strings.Contains(string(body), `"tick":11`) {
		t.Fatalf("leave: %d %s", status, body)
	}
	if after := d.checksum(); after != before {
		t.Fatalf("the main line changed: checksum %x before the branch, %x after leaving", before, after)
	}
	status, body = f.write(http.MethodDelete, "/api/branch", "")
	wantError(t, "leave without a branch", status, body, http.StatusConflict, "no branch is open")
	status, body = f.call(http.MethodGet, "/api/branch", "")
	wantError(t, "GET without a branch", status, body, http.StatusConflict, "no branch is open")
	var sys struct {
		Systems []struct {
			Name    string
			Enabled bool
		}
	}
	f.get("/api/systems", &sys)
	for _, s := range sys.Systems {
		if !s.Enabled {
			t.Errorf("system %s still off after leaving", s.Name)
		}
	}

	// The main line goes on as if no branch happened: as a twin world
	// that ran the same ticks without one.
	d.tick(3)
	twin := newFixture(t)
	for range 14 {
		twin.s.Run()
	}
	if got, want := d.checksum(), twin.w.Checksum(); got != want {
		t.Errorf("after 14 ticks, checksum %x; a world that never branched has %x", got, want)
	}
	if s := f.summary(); s.Tick != 14 {
		t.Errorf("summary tick %d, want 14: the branch's ticks count", s.Tick)
	}
	f.get("/api/history", &h)
	if *h.Newest != 14 || h.Branch != nil {
		t.Errorf("history after leaving: newest %d, branch %+v", *h.Newest, h.Branch)
	}
}

func maps2Equal(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestBranchEdit sets a value at a past tick and runs no tick: the branch
// differs from the main line by that value alone.
func TestBranchEdit(t *testing.T) {
	f, d := historyFixture(t, 32)
	d.tick(4)
	before := d.checksum()
	id := f.es[0].String()
	status, body := f.write(http.MethodPost, "/api/branch",
		`{"tick": 3, "ticks": 0, "set": [{"entity": "`+id+`", "component": "inspect_test.Position", "value": {"X": 100}}]}`)
	if status != http.StatusCreated {
		t.Fatalf("branch: %d %s", status, body)
	}
	var b branchAnswer
	json.Unmarshal(body, &b)
	if b.To != 3 || b.Diff == nil || b.Diff.Total != 1 || b.Diff.Differences[0].A != "3" || b.Diff.Differences[0].B != "100" {
		t.Fatalf("branch: %s", body)
	}
	f.write(http.MethodDelete, "/api/branch", "")
	// Ticks past the main line's newest: no tick to compare with.
	status, body = f.write(http.MethodPost, "/api/branch", `{"tick": 3, "ticks": 10}`)
	if status != http.StatusCreated || !strings.Contains(string(body), "has no tick 13") {
		t.Fatalf("branch past the newest tick: %d %s", status, body)
	}
	if x := f.positionX("/api/entities/" + id + "?at=branch"); x != 13 {
		t.Errorf("X in the branch %v, want 13", x)
	}
	f.write(http.MethodDelete, "/api/branch", "")
	if after := d.checksum(); after != before {
		t.Fatalf("branches changed the main line: checksum %x then %x", before, after)
	}
}

// TestBranchMisuse: every refused branch leaves the world and the
// systems as they were, and no branch open.
func TestBranchMisuse(t *testing.T) {
	f, d := historyFixture(t, 8)
	d.tick(3)
	var dead ecs.Entity // spawned after every tick the ring holds
	d.onLoop(func() { dead = f.w.Spawn() })
	before := d.checksum()
	for _, c := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"tick": 99}`, http.StatusConflict, "tick 99 is not held"},
		{`{}`, http.StatusBadRequest, "the tick the branch starts from"},
		{`{"tick": 1, "frobnicate": true}`, http.StatusBadRequest, "unknown field"},
		{`{"tick": 1, "systems": {"nope": false}}`, http.StatusBadRequest, `no system named "nope"`},
		{`{"tick": 1, "ticks": -1}`, http.StatusBadRequest, "ticks -1"},
		{`{"tick": 1, "ticks": 1000000}`, http.StatusBadRequest, "ticks 1000000"},
		{`{"tick": 1, "limit": 100000}`, http.StatusBadRequest, "limit 100000"},
		{`{"tick": 1, "set": [{"entity": "1v1", "component": "Nope", "value": {}}]}`, http.StatusBadRequest, "unknown component"},
		{`{"tick": 1, "set": [{"entity": "1v1", "component": "inspect_test.Position", "value": {"Z": 1}}]}`, http.StatusBadRequest, "Z"},
		{`{"tick": 1, "systems": {"move": false}, "set": [{"entity": "` + dead.String() + `", "component": "inspect_test.Position", "value": {}}]}`,
			http.StatusBadRequest, "at tick 1, entity " + dead.String() + " is not alive"},
	} {
		status, body := f.write(http.MethodPost, "/api/branch", c.body)
		wantError(t, c.body, status, body, c.status, c.want)
	}
	status, body := f.call(http.MethodPost, "/api/branch", `{"tick": 1}`)
	wantError(t, "branch without the token", status, body, http.StatusForbidden, "token")
	status, body = f.call(http.MethodGet, "/api/branch", "")
	wantError(t, "no branch left open", status, body, http.StatusConflict, "no branch is open")
	var sys struct {
		Systems []struct {
			Name    string
			Enabled bool
		}
	}
	f.get("/api/systems", &sys)
	for _, s := range sys.Systems {
		if !s.Enabled {
			t.Errorf("system %s left off by a refused branch", s.Name)
		}
	}
	if after := d.checksum(); after != before {
		t.Errorf("refused branches changed the world: checksum %x then %x", before, after)
	}
	if ran := d.tick(1); ran != 1 {
		t.Errorf("the loop is held after refused branches")
	}
}

// TestHistoryOff: without History, time travel answers 409 and the
// history says depth 0.
func TestHistoryOff(t *testing.T) {
	f := newFixture(t, inspect.Token(token))
	var h historyAnswer
	f.get("/api/history", &h)
	if h.Depth != 0 || h.Count != 0 || h.Oldest != nil || h.Saving {
		t.Errorf("history without a ring: %+v", h)
	}
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/api/history/diff?a=0&b=1", ""},
		{http.MethodGet, "/api/entities?at=0", ""},
		{http.MethodPost, "/api/branch", `{"tick": 0}`},
	} {
		status, body := f.write(c.method, c.path, c.body)
		wantError(t, c.path, status, body, http.StatusConflict, "inspect.History")
	}
}

// TestHistorySavedByCaller: a program that serves under a Locker saves
// into the ring itself, and branches still leave the world as it was.
func TestHistorySavedByCaller(t *testing.T) {
	ring := ecs.NewSnapshotRing(8)
	f := newFixture(t, inspect.Token(token), inspect.History(ring))
	f.mu.Lock()
	ring.Save(f.w, 0)
	for tick := range uint64(4) {
		f.s.Run()
		ring.Save(f.w, tick+1)
	}
	f.mu.Unlock()
	before := f.checksum()
	var h historyAnswer
	f.get("/api/history?list=1", &h)
	if len(h.Ticks) != 5 || h.Count != 5 || h.Saving {
		t.Errorf("history: %+v", h)
	}
	if x := f.positionX("/api/entities/" + f.es[3].String() + "?at=2"); x != 3+2 {
		t.Errorf("X at tick 2: %v", x)
	}
	status, body := f.write(http.MethodPost, "/api/branch", `{"tick": 1, "systems": {"score": false}}`)
	if status != http.StatusCreated || !strings.Contains(string(body), `"total":1`) {
		t.Fatalf("branch: %d %s", status, body)
	}
	if after := f.checksum(); after != before {
		t.Errorf("the branch changed the world: %x then %x", before, after)
	}
	f.write(http.MethodDelete, "/api/branch", "")
}

// Pointer is a component that cannot be snapshotted: a pointer and no
// Clone method.
type Pointer struct{ P *int }

// TestHistoryStopsOnWorldsThatCannotSnapshot: the loop goes on, and the
// history says why it stopped saving.
func TestHistoryStopsOnWorldsThatCannotSnapshot(t *testing.T) {
	f, d := historyFixture(t, 8)
	d.onLoop(func() { ecs.NewMap[Pointer](f.w).Spawn(Pointer{}) })
	if ran := d.tick(3); ran != 3 {
		t.Fatalf("%d ticks ran of 3", ran)
	}
	var h historyAnswer
	f.get("/api/history", &h)
	if h.Saving || !strings.Contains(h.Error, "Pointer") || *h.Newest != 1 {
		t.Errorf("history: %+v", h)
	}
	status, body := f.call(http.MethodGet, "/api/world?at=1", "")
	wantError(t, "look at the past", status, body, http.StatusConflict, "Pointer")
}

// TestBranchPanicRestores: a replay step that panics answers 500, and
// leaves the world, the systems and the loop as they were, with no branch
// open.
func TestBranchPanicRestores(t *testing.T) {
	var f *fixture
	steps := 0
	f, d := historyFixture(t, 16, inspect.Replay(func() {
		f.s.Run()
		if steps++; steps == 2 {
			panic("replay refused")
		}
	}))
	d.tick(4)
	before := d.checksum()
	status, body := f.write(http.MethodPost, "/api/branch", `{"tick": 1, "systems": {"move": false}}`)
	wantError(t, "a panicking replay", status, body, http.StatusInternalServerError, "replay refused")
	if after := d.checksum(); after != before {
		t.Errorf("a panicking branch changed the world: checksum %x then %x", before, after)
	}
	var sys struct {
		Systems []struct {
			Name    string
			Enabled bool
		}
	}
	f.get("/api/systems", &sys)
	for _, s := range sys.Systems {
		if !s.Enabled {
			t.Errorf("system %s left off by a panicking branch", s.Name)
		}
	}
	status, body = f.call(http.MethodGet, "/api/branch", "")
	wantError(t, "no branch after a panic", status, body, http.StatusConflict, "no branch is open")
	if ran := d.tick(2); ran != 2 {
		t.Errorf("%d ticks ran of 2 after a panicking branch", ran)
	}
	if s := f.summary(); s.Tick != 7 {
		t.Errorf("summary tick %d, want 7: the branch's tick counts", s.Tick)
	}
}

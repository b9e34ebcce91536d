package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/inspect"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

const token = "browser-test-token"

// gameLoop runs the game scenario the way a game's own loop would: a tick
// through Inspector.Tick 60 times a second, and in between the test's
// probes, which read the world on the loop's goroutine.
type gameLoop struct {
	g      *scenario.Game
	in     *inspect.Inspector
	ring   *ecs.SnapshotRing // the inspector's history
	probes chan func()
}

func startGame(t *testing.T) (*gameLoop, *inspect.Server) {
	g, err := scenario.NewGame(scenario.Config{N: 4000, Seed: 7, Workers: 2, Mixed: true})
	if err != nil {
		t.Fatal(err)
	}
	l := &gameLoop{g: g, probes: make(chan func()), ring: ecs.NewSnapshotRing(600)}
	l.in = inspect.New(g.World(), inspect.Scheduler(g.Scheduler()), inspect.Token(token), inspect.History(l.ring))
	srv, err := l.in.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(time.Second / 60)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case p := <-l.probes:
				p()
			case <-ticker.C:
				l.in.Tick(g.Tick)
			}
		}
	}()
	t.Cleanup(func() {
		srv.Close()
		cancel()
		<-done
		g.Close()
	})
	return l, srv
}

// probe runs f on the loop's goroutine, between ticks, and waits for it.
func (l *gameLoop) probe(f func(w *ecs.World)) {
	done := make(chan struct{})
	l.probes <- func() { f(l.g.World()); close(done) }
	<-done
}

// findBrowser returns the path of Chromium or Chrome, or "".
func findBrowser() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// eventually retries check until it returns "" or 10 s pass, and fails
// with its last answer.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		msg := check()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s", what, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestInspectorPage opens the inspector's page on the running game
// scenario in headless Chromium and uses it as a person would.
func TestInspectorPage(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but no Chromium was found (install Debian's chromium package, or set $CHROMIUM)")
		}
		t.Skip("SKIPPED: no Chromium or Chrome on the PATH and $CI unset; install Debian's chromium package to run the browser test")
	}
	l, srv := startGame(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	var consoleErrors []string
	ctx, cancelCtx := chromedp.NewContext(actx, chromedp.WithErrorf(func(format string, args ...any) {
		consoleErrors = append(consoleErrors, fmt.Sprintf(format, args...))
	}))
	defer cancelCtx()
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelTimeout()
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		var s string
		run("read "+sel, chromedp.Text(sel, &s, chromedp.ByQuery, chromedp.NodeVisible))
		return strings.TrimSpace(s)
	}
	click := func(sel string) {
		t.Helper()
		run("click "+sel, chromedp.Click(sel, chromedp.ByQuery, chromedp.NodeVisible))
	}

	run("open the page", chromedp.Navigate(srv.URL), chromedp.WaitVisible("#entity-count", chromedp.ByQuery),
		chromedp.WaitEnabled("#btn-pause", chromedp.ByQuery))
	// Writes, pause and step included, need the token.
	run("type the token", chromedp.SendKeys("#token", token, chromedp.ByQuery))

	// Pause, then the count shown must be the world's.
	click("#btn-pause")
	eventually(t, "the page says paused", func() string {
		if s := text("#paused"); s != "paused" {
			return "#paused shows " + s
		}
		return ""
	})
	var alive int
	var tick uint64
	l.probe(func(w *ecs.World) { alive, tick = w.Len(), l.g.Scheduler().Ticks() })
	eventually(t, "entity count", func() string {
		if s := text("#entity-count"); s != strconv.Itoa(alive) {
			return fmt.Sprintf("the page shows %q entities, the world has %d", s, alive)
		}
		return ""
	})

	// Step one tick while paused.
	click("#btn-step")
	eventually(t, "one step", func() string {
		var now uint64
		l.probe(func(*ecs.World) { now = l.g.Scheduler().Ticks() })
		if now != tick+1 {
			return fmt.Sprintf("tick %d after one step from %d", now, tick)
		}
		if s := text("#tick"); s != strconv.FormatUint(tick+1, 10) {
			return "the page shows tick " + s
		}
		return ""
	})
	time.Sleep(100 * time.Millisecond)
	l.probe(func(*ecs.World) {
		if now := l.g.Scheduler().Ticks(); now != tick+1 {
			t.Errorf("a step ran %d ticks", now-tick)
		}
	})

	// Filter by a component some entities lack: the page's total must
	// be the world's count of them, and the entities it lists must have it.
	var filter ecs.ComponentInfo
	var filtered int
	pos := ecs.C[scenario.GamePosition]()
	l.probe(func(w *ecs.World) {
		for _, c := range w.Reflect().Components() {
			n := len(slices.Collect(w.Reflect().Entities([]ecs.ComponentType{c.Type, pos}, nil)))
			if n > 0 && n < w.Len() && (filter.Name == "" || n < filtered) {
				filter, filtered = c, n
			}
		}
	})
	if filter.Name == "" {
		t.Fatal("no component to filter by: every one is on every entity")
	}
	run("filter", chromedp.SetValue("#filter-with", filter.GoType.String()+",scenario.GamePosition", chromedp.ByQuery))
	click("#filter-apply")
	eventually(t, "filtered total", func() string {
		if s := text("#entity-total"); s != strconv.Itoa(filtered) {
			return fmt.Sprintf("the page shows %q entities with %v, the world has %d", s, filter.GoType, filtered)
		}
		return ""
	})
	var first string
	run("first entity", chromedp.AttributeValue("#entity-list .entity", "data-id", &first, nil, chromedp.ByQuery))
	idx, gen, _ := strings.Cut(first, "v")
	var e ecs.Entity
	var has bool
	l.probe(func(w *ecs.World) {
		i, _ := strconv.ParseUint(idx, 10, 32)
		e, _ = w.Reflect().EntityAt(uint32(i))
		_, has = w.Reflect().Value(e, filter.Type)
	})
	if e.IsZero() || strconv.FormatUint(uint64(e.Generation()), 10) != gen {
		t.Fatalf("the page lists %s, which is not alive", first)
	}
	if !has {
		t.Fatalf("the filter listed %v, which has no %v", e, filter.GoType)
	}

	// Open it and edit its position with the token.
	click(`#entity-list .entity[data-id="` + first + `"]`)
	eventually(t, "entity detail", func() string {
		var id string
		var ok bool
		run("detail id", chromedp.AttributeValue("#entity-detail", "data-id", &id, &ok, chromedp.ByQuery))
		if id != first {
			return "the detail shows " + id
		}
		return ""
	})
	posSel := `#entity-detail .component[data-name="github.com/tessera-ecs/tessera/internal/scenario.GamePosition"]`
	run("edit the position",
		chromedp.SetValue(posSel+" textarea", `{"X": 12.5, "Y": 34.25}`, chromedp.ByQuery))
	click(posSel + " button.save")
	eventually(t, "the world changed", func() string {
		var p scenario.GamePosition
		l.probe(func(w *ecs.World) { p = *ecs.NewMap[scenario.GamePosition](w).Get(e) })
		if p != (scenario.GamePosition{X: 12.5, Y: 34.25}) {
			return fmt.Sprintf("position %+v after the edit; status line %q", p, text("#status"))
		}
		return ""
	})

	checkHierarchy(t, l, run, click)

	// Resume: ticks run again, and the charts fill.
	click("#btn-resume")
	eventually(t, "resumed", func() string {
		var now uint64
		l.probe(func(*ecs.World) { now = l.g.Scheduler().Ticks() })
		if now < tick+30 || text("#paused") != "running" {
			return fmt.Sprintf("tick %d, page says %s", now, text("#paused"))
		}
		return ""
	})
	run("systems table", chromedp.WaitVisible(`#systems [data-name="movement"], #systems [data-name]`, chromedp.ByQuery))

	var shot []byte
	run("screenshot", chromedp.Evaluate("window.scrollTo(0, 0)", nil), chromedp.Sleep(300*time.Millisecond), chromedp.CaptureScreenshot(&shot))
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colours := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if b.Dx() < 1000 || b.Dy() < 600 || len(colours) < 16 {
		t.Errorf("the screenshot looks blank: %v, %d colours", b, len(colours))
	}
	path := os.Getenv("TESSERA_SCREENSHOT")
	if path == "" {
		path = t.TempDir() + "/inspector.png"
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%dx%d)", path, b.Dx(), b.Dy())

	timeTravel(t, l, ctx, run, text, click)
	if len(consoleErrors) > 0 {
		t.Logf("browser protocol errors: %v", consoleErrors)
	}
}

// checkHierarchy gives the world a small tree, root > mid > three leaves,
// then uses the page as a person would: opens the hierarchy view, expands
// the root, opens mid from the tree, finds its parent and children listed
// in the detail, and clicks through to the parent.
func checkHierarchy(t *testing.T, l *gameLoop, run func(string, ...chromedp.Action), click func(string)) {
	t.Helper()
	var root, mid ecs.Entity
	var leaves []string
	l.probe(func(w *ecs.World) {
		h := ecs.NewHierarchy(w)
		root, mid = w.Spawn(), w.Spawn()
		h.SetParent(mid, root)
		for range 3 {
			leaf := w.Spawn()
			h.SetParent(leaf, mid)
			leaves = append(leaves, leaf.String())
		}
	})
	click("#hierarchy-section > summary")
	rootSel := `#hierarchy-tree > li[data-id="` + root.String() + `"]`
	run("the root in the tree", chromedp.WaitVisible(rootSel, chromedp.ByQuery))
	click(rootSel + " > .tree-toggle")
	midSel := rootSel + ` li[data-id="` + mid.String() + `"]`
	run("mid under the root", chromedp.WaitVisible(midSel, chromedp.ByQuery))
	click(midSel + " > a.entity-link")

	// relations reads what the detail shows of the open entity.
	type relations struct {
		ID, Parent      string
		Children, Pairs []string
	}
	read := func() relations {
		var r relations
		run("read the relations", chromedp.Evaluate(`(() => {
			const ids = (sel) => [...document.querySelectorAll(sel)].map((a) => a.dataset.id);
			const box = document.getElementById("entity-relations");
			return {
				ID: document.getElementById("entity-detail").dataset.id || "",
				Parent: box.hidden ? "" : (ids("#entity-relations .rel-parent > a.entity-link")[0] || ""),
				Children: ids("#entity-relations .rel-children > a.entity-link"),
				Pairs: [...document.querySelectorAll('#entity-relations .rel-pairs[data-side="target"] tr[data-relation]')]
					.map((tr) => tr.dataset.relation + ">" + tr.querySelector("a.entity-link").dataset.id),
			};
		})()`, &r))
		return r
	}
	eventually(t, "mid's relations", func() string {
		r := read()
		if r.ID != mid.String() || r.Parent != root.String() || !slices.Equal(r.Children, leaves) ||
			!slices.Equal(r.Pairs, []string{"github.com/tessera-ecs/tessera/ecs.ChildOf>" + root.String()}) {
			return fmt.Sprintf("the detail shows %+v; want %v with parent %v and children %v", r, mid, root, leaves)
		}
		return ""
	})
	click("#entity-relations .rel-parent > a.entity-link")
	eventually(t, "the parent opened", func() string {
		r := read()
		if r.ID != root.String() || r.Parent != "" || !slices.Equal(r.Children, []string{mid.String()}) {
			return fmt.Sprintf("after clicking the parent the detail shows %+v; want %v with the child %v", r, root, mid)
		}
		return ""
	})
}

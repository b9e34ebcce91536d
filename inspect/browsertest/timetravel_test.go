package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
)

// timeTravel uses the page's time-travel panel on the paused game: it
// looks at a past tick and sees a position as it was then, diffs two
// ticks, branches with the movement system off and sees the branch's
// difference, and leaves to see the live position again, the world as it
// was before the branch.
func timeTravel(t *testing.T, l *gameLoop, ctx context.Context, run func(string, ...chromedp.Action), text func(string) string, click func(string)) {
	t.Helper()
	// peek reads an element's text without waiting for it.
	peek := func(sel string) string {
		var s string
		run("peek "+sel, chromedp.Evaluate(fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ""`, sel), &s))
		return strings.TrimSpace(s)
	}
	// The panel sits under the sticky header: scroll to the top before
	// using it, so a click cannot land on the header instead.
	top := func(sel string) {
		t.Helper()
		run("scroll up", chromedp.Evaluate("window.scrollTo(0, 0)", nil))
		click(sel)
	}
	click("#btn-pause")
	eventually(t, "the page says paused", func() string {
		if s := text("#paused"); s != "paused" {
			return "#paused shows " + s
		}
		return ""
	})
	run("the panel shows", chromedp.WaitVisible("#time-travel", chromedp.ByQuery))

	// An entity the page lists whose position changed over the last 20
	// ticks, read from the ring directly.
	var ids []string
	run("listed ids", chromedp.Evaluate(`[...document.querySelectorAll("#entity-list .entity")].map((e) => e.dataset.id)`, &ids))
	pos := ecs.C[scenario.GamePosition]()
	var newest, past uint64
	var id string
	var pastPos, livePos scenario.GamePosition
	var wantDiff ecs.DiffReport
	l.probe(func(w *ecs.World) {
		newest, _ = l.ring.Newest()
		past = newest - 20
		read := func() map[string]scenario.GamePosition {
			out := map[string]scenario.GamePosition{}
			for _, s := range ids {
				idx, gen, _ := strings.Cut(s, "v")
				i, _ := strconv.ParseUint(idx, 10, 32)
				e, alive := w.Reflect().EntityAt(uint32(i))
				if v, has := w.Reflect().Value(e, pos); alive && has && strconv.FormatUint(uint64(e.Generation()), 10) == gen {
					out[s] = v.(scenario.GamePosition)
				}
			}
			return out
		}
		now := read()
		var live ecs.Snapshot
		w.Snapshot(&live)
		w.Restore(l.ring.At(past))
		then := read()
		w.Restore(&live)
		for _, s := range ids {
			if p, ok := then[s]; ok && now[s] != p {
				id, pastPos, livePos = s, p, now[s]
				break
			}
		}
		wantDiff = ecs.Diff(l.ring.At(past), l.ring.At(newest), 0)
	})
	if id == "" {
		t.Fatalf("no listed entity moved between ticks %d and %d", past, newest)
	}
	posSel := `#entity-detail .component[data-name="github.com/tessera-ecs/tessera/internal/scenario.GamePosition"] textarea`
	// The detail is drawn again whenever the view changes: read it in one
	// evaluation, so no node goes away halfway.
	shownPos := func() (scenario.GamePosition, string) {
		var v string
		var p scenario.GamePosition
		run("read the position", chromedp.Evaluate(fmt.Sprintf(`(document.querySelector(%q) || {}).value || ""`, posSel), &v))
		err := json.Unmarshal([]byte(v), &p)
		if err != nil {
			return p, err.Error()
		}
		return p, ""
	}
	wantPos := func(what string, want scenario.GamePosition) {
		t.Helper()
		eventually(t, what, func() string {
			var shown string
			run("detail id", chromedp.Evaluate(`document.getElementById("entity-detail").dataset.id || ""`, &shown))
			if shown != id {
				return "the detail shows " + shown
			}
			p, bad := shownPos()
			if bad != "" || p != want {
				return fmt.Sprintf("the page shows position %+v %s, want %+v; state %q, status %q", p, bad, want, peek("#tt-state"), peek("#status"))
			}
			return ""
		})
	}

	// Scrub to the past tick: the entity's position as it was then.
	run("pick the tick", chromedp.SetValue("#tt-at", strconv.FormatUint(past, 10), chromedp.ByQuery))
	top("#tt-show")
	eventually(t, "viewing the past", func() string {
		if s := text("#tt-state"); s != fmt.Sprintf("viewing tick %d (read-only)", past) {
			return "state: " + s
		}
		return ""
	})
	eventually(t, "the entity is listed", func() string {
		var n int
		run("count", chromedp.Evaluate(fmt.Sprintf(`document.querySelectorAll('#entity-list .entity[data-id="%s"]').length`, id), &n))
		if n != 1 {
			return "not listed"
		}
		return ""
	})
	click(`#entity-list .entity[data-id="` + id + `"]`)
	wantPos("the position at the past tick", pastPos)

	// A write while looking at the past is refused.
	clicked := false
	eventually(t, "the write is refused", func() string {
		if !clicked {
			run("save", chromedp.Evaluate(`(() => {
				const b = document.querySelector('#entity-detail .component[data-name$=".GamePosition"] button.save');
				if (b) b.click();
				return !!b;
			})()`, &clicked))
		}
		if s := peek("#status"); !clicked || !strings.Contains(s, "read-only") {
			return "status: " + s
		}
		return ""
	})

	// Diff the past tick and the newest.
	run("diff ticks", chromedp.SetValue("#tt-diff-a", strconv.FormatUint(past, 10), chromedp.ByQuery),
		chromedp.SetValue("#tt-diff-b", strconv.FormatUint(newest, 10), chromedp.ByQuery))
	top("#tt-diff")
	eventually(t, "the diff", func() string {
		want := fmt.Sprintf("%d differences on %d entities", wantDiff.Total, wantDiff.Entities)
		if s := peek("#tt-diff-result"); !strings.HasPrefix(s, want) {
			return fmt.Sprintf("the page says %q, want %q; status %q", s, want, peek("#status"))
		}
		return ""
	})
	var row []string
	run("a diff row", chromedp.Evaluate(`[...document.querySelectorAll("#tt-diff-result tr[data-entity]")[0].cells].map((c) => c.textContent)`, &row))
	if len(row) != 5 || row[0] == "" || row[3] == row[4] {
		t.Errorf("first diff row: %q", row)
	}

	// Branch from the past tick with movement off: the branch differs from
	// the main line in positions, and the entity stands where it was.
	var before uint64
	l.probe(func(w *ecs.World) { before = w.Checksum() })
	run("branch from", chromedp.SetValue("#tt-branch-from", strconv.FormatUint(past, 10), chromedp.ByQuery),
		chromedp.WaitVisible(`#tt-branch-systems input[value="movement"]`, chromedp.ByQuery))
	top(`#tt-branch-systems input[value="movement"]`)
	top("#tt-branch")
	eventually(t, "the branch's diff", func() string {
		s := peek("#tt-branch-result")
		var n int
		run("position rows", chromedp.Evaluate(`document.querySelectorAll('#tt-branch-result tr[data-type$="GamePosition"]').length`, &n))
		if !strings.Contains(s, "differences") || n == 0 {
			return fmt.Sprintf("summary %q, %d position rows; status %q", s, n, peek("#status"))
		}
		return ""
	})
	if s := text("#tt-state"); s != "viewing the branch (read-only)" {
		t.Errorf("state after branching: %q", s)
	}
	wantPos("the position in the branch", pastPos)

	// Leave: the live position again, and the world as before the branch.
	top("#tt-leave")
	eventually(t, "live again", func() string {
		if s := text("#tt-state"); s != "live" {
			return "state: " + s
		}
		return ""
	})
	wantPos("the live position", livePos)
	l.probe(func(w *ecs.World) {
		if after := w.Checksum(); after != before {
			t.Errorf("leaving the branch: checksum %x, before it %x", after, before)
		}
	})
	click("#btn-resume")
	eventually(t, "running after the branch", func() string {
		if s := text("#paused"); s != "running" {
			return "#paused shows " + s
		}
		return ""
	})
}

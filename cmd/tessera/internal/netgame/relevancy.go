package netgame

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/internal/scenario"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// MaxRadius bounds a relevancy radius, in position units: a client that
// asks for more (or for a radius that is not a finite positive number)
// is taken to ask for everything, which the server's Policy may cap.
const MaxRadius = 1024

// maxCoord bounds a focus coordinate; a View whose point is farther out,
// or not finite, gets the default focus.
const maxCoord = 1 << 20

// ParseRadius reads a relevancy as the -relevancy flags write it: "all"
// (0: every replicated entity) or "grid:R", R a number in (0, MaxRadius].
func ParseRadius(s string) (float32, error) {
	if s == "all" {
		return 0, nil
	}
	text, ok := strings.CutPrefix(s, "grid:")
	if !ok {
		return 0, errors.New("want all or grid:R, R a radius such as grid:60")
	}
	r, err := strconv.ParseFloat(text, 32)
	if err != nil || !(r > 0) || r > MaxRadius {
		return 0, fmt.Errorf("grid radius %q: want a number above 0 and at most %d", text, MaxRadius)
	}
	return float32(r), nil
}

// ParseFocus reads a point written "X,Y".
func ParseFocus(s string) (x, y float32, err error) {
	xs, ys, ok := strings.Cut(s, ",")
	fx, errX := strconv.ParseFloat(strings.TrimSpace(xs), 32)
	fy, errY := strconv.ParseFloat(strings.TrimSpace(ys), 32)
	if !ok || errX != nil || errY != nil || !(math.Abs(fx) <= maxCoord) || !(math.Abs(fy) <= maxCoord) { // NaN fails too
		return 0, 0, fmt.Errorf("want X,Y, two numbers within ±%d, such as 160,120", maxCoord)
	}
	return float32(fx), float32(fy), nil
}

// Relevancy is the server's netcode.Relevancy: each client sees what its
// latest View asks, within the server's cap. With a cap (a radius), a
// client sees the entities within the cap, or within its View's smaller
// radius, of its View's point (DefaultFocus until its first View). With
// no cap, a client sees every replicated entity unless its View asks for
// a radius. An entity that entered a client's view stays in it until it
// is an eighth of the radius farther out, so entities on the border do
// not enter and leave every tick.
type Relevancy struct {
	limit    float32
	fx, fy   float32
	everyone *ecs.Query1[netcode.Replicated]
	sees     func(x, y, radius, margin float32, seen []uint64, dst []ecs.Entity) ([]ecs.Entity, []uint64)
	prepare  func(w *ecs.World)
	inputs   *ecs.EventReader[netcode.Input[View]]
	clients  []clientView // by id
}

// clientView is what the relevancy keeps of one client.
type clientView struct {
	id   netcode.ClientID
	view View
	seen []uint64 // bit per entity index: relevant last tick
}

// NewRelevancy returns the relevancy of the named scenario's world w
// with the server's cap, limit (0: none; see ParseRadius). It reads the
// clients' View inputs from w's events, so make it before the server
// delivers any. Errors: another scenario.
func NewRelevancy(name string, w *ecs.World, limit float32) (*Relevancy, error) {
	cell := float32(32) // clients pick their radius: cells of a middling size
	if limit > 0 {
		cell = max(limit/2, 1) // a view covers about 5 x 5 cells
	}
	r := &Relevancy{limit: limit, everyone: ecs.NewQuery1[netcode.Replicated](w),
		inputs: ecs.EventsOf[netcode.Input[View]](w).NewReader()}
	r.fx, r.fy = DefaultFocus(name)
	switch name {
	case "game":
		g := netcode.NewGrid(cell, func(p *scenario.GamePosition) (float32, float32) { return p.X, p.Y })
		r.sees, r.prepare = g.Sees, g.Prepare
	case "particle":
		g := netcode.NewGrid(cell, func(p *scenario.Position) (float32, float32) { return p.X, p.Y })
		r.sees, r.prepare = g.Sees, g.Prepare
	default:
		return nil, fmt.Errorf("scenario %q does not replicate: want %s", name, Scenarios)
	}
	return r, nil
}

// Update reads the Views the server delivered, forgets the clients not
// in joined (the server's Clients, in id order), and rebuilds the grid
// when a client sees less than everything. Call it on the world's
// goroutine after each tick, before Server.Update. O(inputs + clients),
// plus O(entities with a position) for the grid.
func (r *Relevancy) Update(w *ecs.World, joined []netcode.ClientID) {
	for _, in := range r.inputs.Read() {
		r.client(in.Client).view = in.Value
	}
	r.clients = slices.DeleteFunc(r.clients, func(c clientView) bool {
		_, found := slices.BinarySearch(joined, c.id)
		return !found
	})
	grid := r.limit > 0
	for i := range r.clients {
		if _, _, radius := r.grant(r.clients[i].view); radius > 0 {
			grid = true
		}
	}
	if grid {
		r.prepare(w)
	}
}

// client returns the record of client id, made on first use.
func (r *Relevancy) client(id netcode.ClientID) *clientView {
	i, found := slices.BinarySearchFunc(r.clients, id, func(c clientView, id netcode.ClientID) int {
		return cmp.Compare(c.id, id)
	})
	if !found {
		r.clients = slices.Insert(r.clients, i, clientView{id: id, view: View{X: r.fx, Y: r.fy}})
	}
	return &r.clients[i]
}

// Grant returns the point and radius client id sees (radius 0: every
// replicated entity): its View checked and capped.
func (r *Relevancy) Grant(id netcode.ClientID) (x, y, radius float32) {
	return r.grant(r.client(id).view)
}

func (r *Relevancy) grant(v View) (x, y, radius float32) {
	x, y, radius = v.X, v.Y, v.R
	if !finiteWithin(x, maxCoord) || !finiteWithin(y, maxCoord) {
		x, y = r.fx, r.fy
	}
	if !(radius > 0) || radius > MaxRadius { // NaN included
		radius = 0
	}
	if r.limit > 0 && (radius == 0 || radius > r.limit) {
		radius = r.limit
	}
	return x, y, radius
}

func finiteWithin(v float32, limit float64) bool {
	return math.Abs(float64(v)) <= limit // false for NaN
}

// Relevant implements netcode.Relevancy.
func (r *Relevancy) Relevant(id netcode.ClientID, _ *ecs.World, dst []ecs.Entity) []ecs.Entity {
	c := r.client(id)
	x, y, radius := r.grant(c.view)
	if radius == 0 {
		clear(c.seen)
		for ch := range r.everyone.Chunks() {
			dst = append(dst, ch.Entities...)
		}
		return dst
	}
	dst, c.seen = r.sees(x, y, radius, radius/8, c.seen, dst)
	return dst
}

package main

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/tessera-ecs/tessera/ecs"
	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
)

// dot is the one white pixel every body is drawn from, scaled and tinted:
// the same source image, so Ebitengine batches the draws.
var dot = func() *ebiten.Image {
	img := ebiten.NewImage(1, 1)
	img.Fill(color.White)
	return img
}()

// palette is the sparks' colours.
var palette = []color.RGBA{{255, 255, 255, 255}, {255, 160, 40, 255}, {90, 170, 255, 255}}

// views are the queries Draw renders through, made once per world.
type views struct {
	w       *ecs.World
	rocks   *ecs.Query2[arena.Rock, arena.Pos]
	flash   *ecs.Map[arena.Flash]
	sparks  *ecs.Query2[arena.Particle, arena.Pos]
	bullets *ecs.Query2[arena.Bullet, arena.Pos]
	ships   *ecs.Query3[arena.Ship, arena.Pos, arena.Owner]
	turrets *ecs.Query2[arena.Turret, arena.Pos]
}

var current views

func viewsOf(w *ecs.World) *views {
	if current.w != w {
		current = views{w: w, rocks: ecs.NewQuery2[arena.Rock, arena.Pos](w), flash: ecs.NewMap[arena.Flash](w),
			sparks: ecs.NewQuery2[arena.Particle, arena.Pos](w), bullets: ecs.NewQuery2[arena.Bullet, arena.Pos](w),
			ships: ecs.NewQuery3[arena.Ship, arena.Pos, arena.Owner](w), turrets: ecs.NewQuery2[arena.Turret, arena.Pos](w)}
	}
	return &current
}

// square draws a filled square of side size centred on (x, y).
func square(screen *ebiten.Image, x, y, size float32, c color.RGBA) {
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(float64(size), float64(size))
	op.GeoM.Translate(float64(x-size/2), float64(y-size/2))
	op.ColorScale.ScaleWithColor(c)
	screen.DrawImage(dot, &op)
}

// drawWorld renders w's rocks, sparks, bullets and ships: the ship of
// player me white, the others' orange. w is a game's world, or a network
// client's replica of one.
func drawWorld(screen *ebiten.Image, w *ecs.World, me uint32) {
	screen.Fill(color.RGBA{8, 10, 20, 255})
	v := viewsOf(w)
	for r := range v.rocks.All() {
		c := color.RGBA{150, 140, 130, 255}
		if v.flash.Has(r.Entity) {
			c = color.RGBA{255, 80, 60, 255}
		}
		square(screen, r.B.X, r.B.Y, 2*r.A.R, c)
	}
	for r := range v.sparks.All() {
		c := palette[int(r.A.Color)%len(palette)]
		c.A = uint8(min(255, 40+8*r.A.Ticks))
		square(screen, r.B.X, r.B.Y, 2, c)
	}
	for r := range v.bullets.All() {
		square(screen, r.B.X, r.B.Y, 3, color.RGBA{255, 255, 120, 255})
	}
	for r := range v.ships.All() {
		//tessera:nondeterministic-ok drawing only: the pixels never feed the world
		sin, cos := math.Sincos(float64(r.A.Angle))
		//tessera:nondeterministic-ok drawing only: the pixels never feed the world
		nose := [2]float32{r.B.X + 14*float32(cos), r.B.Y + 14*float32(sin)}
		//tessera:nondeterministic-ok drawing only: the pixels never feed the world
		left := [2]float32{r.B.X - 10*float32(cos) + 8*float32(sin), r.B.Y - 10*float32(sin) - 8*float32(cos)}
		//tessera:nondeterministic-ok drawing only: the pixels never feed the world
		right := [2]float32{r.B.X - 10*float32(cos) - 8*float32(sin), r.B.Y - 10*float32(sin) + 8*float32(cos)}
		c := color.RGBA{230, 240, 255, 255}
		if r.C.Player != me {
			c = color.RGBA{255, 150, 60, 255}
		}
		vector.StrokeLine(screen, nose[0], nose[1], left[0], left[1], 2, c, true)
		vector.StrokeLine(screen, nose[0], nose[1], right[0], right[1], 2, c, true)
		vector.StrokeLine(screen, left[0], left[1], right[0], right[1], 2, c, true)
	}
	for r := range v.turrets.All() {
		square(screen, r.B.X, r.B.Y, 5, color.RGBA{120, 220, 140, 255})
	}
}

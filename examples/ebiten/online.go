//go:build !js

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/examples/ebiten/netplay"
	"github.com/tessera-ecs/tessera/net/netcode"
)

// defaultLead is -lead's default.
const defaultLead = netplay.Lead

// serveHeadless runs the -serve server until the process is interrupted.
func serveHeadless(o options) error {
	cfg := netplay.ServerConfig{Game: o.cfg, Token: o.token, Hosts: netplay.SplitList(o.hosts), Origins: netplay.SplitList(o.origins)}
	return netplay.ServeCommand(o.serve, cfg)
}

// playOnline connects to the -connect server and plays in a window until
// Esc, -ticks frames, or the server ends the connection. With -checksum it
// then prints the checksum of the client's world (its view of the
// server's), which the window test compares with the server's.
func playOnline(o options) error {
	if err := netplay.CheckToken(o.token); err != nil {
		return fmt.Errorf("-connect: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	c, err := netplay.Dial(ctx, o.connect, netplay.ClientConfig{Token: o.token, Lead: o.lead})
	cancel()
	if err != nil {
		return fmt.Errorf("-connect %s: %w", o.connect, err)
	}
	defer c.Close()
	log.Printf("connected to %s as player %d", o.connect, c.Player())
	p := &online{o: o, c: c, since: time.Now()}
	ebiten.SetWindowSize(arena.Width, arena.Height)
	ebiten.SetWindowTitle(fmt.Sprintf("Tessera arena: player %d", c.Player()))
	if err := ebiten.RunGame(p); err != nil && !errors.Is(err, ebiten.Termination) {
		return err
	}
	if o.checksum {
		fmt.Printf("player %d tick %d checksum %016x\n", c.Player(), c.Net.Tick(), c.Net.Checksum())
	}
	if p.err != nil {
		return p.err
	}
	if p.ended != nil && !serverWent(p.ended) {
		return fmt.Errorf("the connection ended: %w", p.ended)
	}
	if p.ended != nil {
		log.Printf("the server closed the game (%v)", p.ended)
	}
	return nil
}

// serverWent reports whether a connection's end is the server's going:
// a normal or going-away close, or the connection closed without one (a
// server that stops may close its sockets before its close message
// goes out). The refusals of a client (token, rules, rate, stall) are
// not.
func serverWent(err error) bool {
	var ce *netcode.CloseError
	if errors.As(err, &ce) {
		return ce.Code == 1000 || ce.Code == 1001
	}
	return errors.Is(err, io.EOF)
}

// online is the ebiten.Game of a client: the server's world as it
// arrives, and the player's keys (or the script) sent back.
type online struct {
	o     options
	c     *netplay.Client
	frame int
	done  bool      // quit after the next Draw
	ended error     // why the connection ended, if it did
	err   error     // what went wrong with the screenshot or an input
	since time.Time // of the bytes counted in rate
	bytes uint64    // received up to since
	rate  float64   // bytes a second received, over the last second
}

// Update applies the States that arrived and sends the player's input.
func (p *online) Update() error {
	if p.done {
		if p.o.screenshot != "" {
			return nil // wait for Draw to write the last frame
		}
		return ebiten.Termination
	}
	if ebiten.IsKeyPressed(ebiten.KeyEscape) {
		return ebiten.Termination
	}
	if _, err := p.c.Update(); err != nil {
		p.ended, p.done = err, true
		return nil
	}
	in := readKeys()
	if p.o.script {
		in = arena.Script(int(p.c.InputTick()))
	}
	if err := p.c.Send(in); err != nil {
		if p.ended = p.c.Net.Err(); p.ended == nil {
			p.err = err // the queue is full, the connection still open
		}
		p.done = true
		return nil
	}
	p.frame++
	p.done = p.o.ticks > 0 && p.frame >= p.o.ticks
	if now := time.Now(); now.Sub(p.since) >= time.Second {
		b := p.c.Net.Stats().Bytes
		p.rate = float64(b-p.bytes) / now.Sub(p.since).Seconds()
		p.bytes, p.since = b, now
	}
	return nil
}

// Draw renders the client's world and, on the last frame of a
// -screenshot run, writes it.
func (p *online) Draw(screen *ebiten.Image) {
	drawWorld(screen, p.c.W, p.c.Player())
	sc, _ := p.c.Score()
	seat := "your ship is white"
	if _, ok := p.c.Ship(); !ok {
		seat = "watching: two others play"
	}
	ebitenutil.DebugPrint(screen, fmt.Sprintf("player %d  tick %d  hits %d  kills %d  entities %d  %.1f KB/s  %.0f FPS\n%s",
		p.c.Player(), p.c.Net.Tick(), sc.Hits, sc.Kills, p.c.W.Len(), p.rate/1000, ebiten.ActualFPS(), seat))
	if p.done && p.o.screenshot != "" {
		p.err = errors.Join(p.err, writePNG(screen, p.o.screenshot))
		p.o.screenshot = ""
	}
}

// Layout keeps the arena's size, scaled to the window.
func (p *online) Layout(int, int) (int, int) { return arena.Width, arena.Height }

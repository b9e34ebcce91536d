package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log"
	"os"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/tessera-ecs/tessera/examples/ebiten/arena"
	"github.com/tessera-ecs/tessera/inspect"
)

// options are the command's flags.
type options struct {
	cfg        arena.Config
	inspect    string
	token      string
	script     bool
	plan       []arena.Act
	ticks      int
	screenshot string
	checksum   bool
	saveFile   string
	serve      string // -serve: the address a headless server listens on
	connect    string // -connect: the server's URL
	hosts      string
	origins    string
	lead       int
}

// networked reports whether the game plays over the network (-serve or
// -connect): -token is then the replication token.
func (o *options) networked() bool { return o.serve != "" || o.connect != "" }

func main() {
	var o options
	flag.Uint64Var(&o.cfg.Seed, "seed", 1, "seed of the rocks and sparks")
	flag.IntVar(&o.cfg.Rocks, "rocks", 2000, "rocks in the arena")
	flag.IntVar(&o.cfg.Workers, "workers", 0, "scheduler workers (0: one per CPU)")
	flag.StringVar(&o.inspect, "inspect", "", "serve the browser inspector at this address (127.0.0.1:7777)")
	flag.StringVar(&o.token, "token", "", "with -serve or -connect: the token the server and its clients share (default $TESSERA_NET_TOKEN); else the inspector's write token (default $TESSERA_INSPECT_TOKEN)")
	flag.StringVar(&o.serve, "serve", "", "run a headless server for two players at this address (:7800 for every interface)")
	flag.StringVar(&o.connect, "connect", "", "play on the server at this URL (ws://HOST:7800/tessera/v1)")
	flag.StringVar(&o.hosts, "hosts", "", "with -serve: the comma-separated names or addresses other machines reach the server by (besides loopback and -serve's own host)")
	flag.StringVar(&o.origins, "origins", "", "with -serve: the comma-separated web page origins (https://host:port) whose scripts may connect")
	flag.IntVar(&o.lead, "lead", defaultLead, "with -connect: stamp each input this many server ticks ahead (raise it on a slow network)")
	flag.BoolVar(&o.script, "script", false, "play the scripted input of the tests instead of the keyboard")
	planText := flag.String("plan", "", "with -script: save, load and rewind at these frames, as in 120:save,200:rewind=40,260:load")
	flag.IntVar(&o.ticks, "ticks", 0, "quit after this many frames, one tick each unless rewinding (0: play until Esc)")
	flag.StringVar(&o.screenshot, "screenshot", "", "with -ticks: write the last frame to this PNG file")
	flag.BoolVar(&o.checksum, "checksum", false, "print the world's checksum when quitting")
	flag.StringVar(&o.saveFile, "save", "arena.sav", "the file F5 saves to and F9 loads")
	flag.Parse()
	env := "TESSERA_INSPECT_TOKEN"
	if o.networked() {
		env = "TESSERA_NET_TOKEN"
	}
	if o.token == "" {
		o.token = os.Getenv(env)
	}
	if o.cfg.Rocks < 0 || o.ticks < 0 || o.lead < 1 || o.screenshot != "" && o.ticks == 0 && o.connect == "" {
		log.Fatal("want -rocks and -ticks of at least 0, -lead of at least 1, and -ticks with -screenshot (or -connect, whose last frame is the one the server ends)")
	}
	switch {
	case o.serve != "" && o.connect != "":
		log.Fatal("-serve and -connect: a server is headless; run a second command to play on it")
	case o.networked() && (o.inspect != "" || *planText != ""):
		log.Fatal("-inspect and -plan are for a game on one machine, not with -serve or -connect")
	case o.serve != "":
		if err := serveHeadless(o); err != nil {
			log.Fatalf("-serve: %v", err)
		}
		return
	case o.connect != "":
		if err := playOnline(o); err != nil {
			log.Fatal(err)
		}
		return
	}
	var err error
	if o.plan, err = arena.ParsePlan(*planText); err != nil {
		log.Fatalf("-plan: %v", err)
	}
	if len(o.plan) > 0 && !o.script {
		log.Fatal("-plan needs -script: a plan's frames follow the scripted input")
	}
	if err := arena.PlanFits(o.plan, o.ticks); len(o.plan) > 0 && o.ticks == 0 || err != nil {
		log.Fatalf("-plan needs -ticks past its last frame: %v", err)
	}
	saveSet := false
	flag.Visit(func(f *flag.Flag) { saveSet = saveSet || f.Name == "save" })
	if slices.ContainsFunc(o.plan, func(a arena.Act) bool { return a.Do == "save" }) && !saveSet {
		log.Fatal("-plan needs -save FILE, so that its saves do not overwrite the player's arena.sav")
	}
	p := newPlay(o)
	defer p.game.Close()
	ebiten.SetWindowSize(arena.Width, arena.Height)
	ebiten.SetWindowTitle("Tessera arena")
	if o.script {
		ebiten.SetTPS(240) // a scripted run need not wait for real time
		ebiten.SetVsyncEnabled(false)
	}
	if err := ebiten.RunGame(p); err != nil && !errors.Is(err, ebiten.Termination) {
		log.Fatal(err)
	}
	if o.checksum {
		fmt.Printf("tick %d checksum %016x\n", p.game.Score().Tick, p.game.W.Checksum())
	}
	if p.err != nil {
		log.Fatal(p.err)
	}
}

// play is the ebiten.Game: the arena, the inspector if any, and the state
// of the window.
type play struct {
	o       options
	game    *arena.Game
	in      *inspect.Inspector
	srv     *inspect.Server
	message string
	frame   int   // Update calls so far
	done    bool  // the last frame ran: quit after the next Draw
	err     error // what went wrong with the screenshot
}

func newPlay(o options) *play {
	p := &play{o: o, game: arena.New(o.cfg)}
	p.serve()
	return p
}

// serve (re)starts the inspector on the current world.
func (p *play) serve() {
	if p.o.inspect == "" {
		return
	}
	if p.srv != nil {
		p.srv.Close()
	}
	opts := []inspect.Option{inspect.Scheduler(p.game.S)}
	if p.o.token != "" { // without a token the inspector is read-only
		opts = append(opts, inspect.Token(p.o.token))
	}
	p.in = inspect.New(p.game.W, opts...)
	srv, err := p.in.Listen(p.o.inspect)
	if err != nil {
		log.Fatal(err)
	}
	p.srv = srv
	log.Printf("inspector at %s", srv.URL)
}

// Update reads the keys and runs one tick (or one rewind step).
func (p *play) Update() error {
	if p.done {
		if p.o.screenshot != "" {
			return nil // wait for Draw to write the last frame
		}
		return ebiten.Termination
	}
	if ebiten.IsKeyPressed(ebiten.KeyEscape) {
		return ebiten.Termination
	}
	for ; len(p.o.plan) > 0 && p.o.plan[0].Frame == p.frame; p.o.plan = p.o.plan[1:] {
		if err := p.o.plan[0].Apply(p); err != nil {
			return fmt.Errorf("-plan at frame %d: %w", p.frame, err)
		}
	}
	p.frame++
	p.done = p.o.ticks > 0 && p.frame >= p.o.ticks
	switch {
	case inpututil.IsKeyJustPressed(ebiten.KeyF5):
		if err := p.Save(); err != nil {
			p.message = err.Error()
		}
	case inpututil.IsKeyJustPressed(ebiten.KeyF9):
		if err := p.Load(); err != nil {
			p.message = err.Error()
		}
	case ebiten.IsKeyPressed(ebiten.KeyR) && !p.o.script:
		if !p.Rewind() {
			p.message = "nothing older to rewind to"
		}
		return nil
	}
	in := readKeys()
	if p.o.script {
		in = arena.Script(int(p.game.Score().Tick))
	}
	step := func() { p.game.Step(in) }
	if p.in != nil {
		p.in.Tick(step)
	} else {
		step()
	}
	return nil
}

func readKeys() arena.Input {
	down := func(keys ...ebiten.Key) bool {
		for _, k := range keys {
			if ebiten.IsKeyPressed(k) {
				return true
			}
		}
		return false
	}
	return arena.Input{
		Left:   down(ebiten.KeyArrowLeft, ebiten.KeyA),
		Right:  down(ebiten.KeyArrowRight, ebiten.KeyD),
		Thrust: down(ebiten.KeyArrowUp, ebiten.KeyW),
		Fire:   down(ebiten.KeySpace),
	}
}

// Save writes the world to the save file (F5).
func (p *play) Save() error {
	var b bytes.Buffer
	if err := p.game.Save(&b); err != nil {
		return err
	}
	if err := os.WriteFile(p.o.saveFile, b.Bytes(), 0o644); err != nil {
		return err
	}
	p.message = fmt.Sprintf("saved tick %d to %s", p.game.Score().Tick, p.o.saveFile)
	return nil
}

// Load replaces the game with the one in the save file (F9), and points
// the inspector at it.
func (p *play) Load() error {
	data, err := os.ReadFile(p.o.saveFile)
	if err != nil {
		return err
	}
	g, err := arena.Load(p.o.cfg, bytes.NewReader(data))
	if err != nil {
		return err
	}
	p.game.Close()
	p.game = g
	p.serve()
	p.message = fmt.Sprintf("loaded tick %d from %s", g.Score().Tick, p.o.saveFile)
	return nil
}

// Draw renders the world, and on the last tick of a -screenshot run
// writes the frame.
func (p *play) Draw(screen *ebiten.Image) {
	drawWorld(screen, p.game.W, arena.LocalPlayer)
	sc := p.game.Score()
	ebitenutil.DebugPrint(screen, fmt.Sprintf("tick %d  hits %d  kills %d  entities %d  %.0f TPS  %.0f FPS\n%s",
		sc.Tick, sc.Hits, sc.Kills, p.game.W.Len(), ebiten.ActualTPS(), ebiten.ActualFPS(), p.message))
	if p.done && p.o.screenshot != "" {
		p.err = writePNG(screen, p.o.screenshot)
		p.o.screenshot = ""
	}
}

// Layout keeps the arena's size, scaled to the window.
func (p *play) Layout(int, int) (int, int) { return arena.Width, arena.Height }

// writePNG writes the pixels of screen to path.
func writePNG(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Rewind puts the game back one tick (R), as arena.Game.Rewind does.
func (p *play) Rewind() bool { return p.game.Rewind() }

package arena

// Script is the scripted input of the headless runs and the window test:
// the controls for tick t (from 0), firing all along, turning and
// thrusting in turns.
func Script(t int) Input {
	phase := (t / 40) % 4
	return Input{
		Left:   phase == 0,
		Right:  phase == 2,
		Thrust: phase == 1 || phase == 3 && t%3 == 0,
		Fire:   true,
	}
}

// Run runs ticks ticks of the script on g.
func Run(g *Game, ticks int) {
	for range ticks {
		g.Step(Script(int(g.Score().Tick)))
	}
}

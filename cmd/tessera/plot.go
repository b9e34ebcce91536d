package main

import (
	"fmt"
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writePlot draws the tick times in milliseconds against the tick number
// and saves the plot to path; the extension (.svg or .png) picks the
// format. Up to maxPlotPoints ticks it draws every tick; beyond, the mean
// and the maximum of each run of consecutive ticks.
func writePlot(path, name string, log *tickLog) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("tessera demo: %s scenario, time per tick", name)
	p.X.Label.Text = "tick"
	p.Y.Label.Text = "milliseconds"
	groups, per := log.points()
	means := make(plotter.XYs, len(groups))
	maxes := make(plotter.XYs, len(groups))
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	for i, g := range groups {
		// The middle of the group's ticks, numbered from 1.
		x := float64(i*per) + float64(g.n+1)/2
		means[i] = plotter.XY{X: x, Y: ms(g.sum / time.Duration(g.n))}
		maxes[i] = plotter.XY{X: x, Y: ms(g.max)}
	}
	p.Add(plotter.NewGrid())
	mean, err := plotter.NewLine(means)
	if err != nil {
		return err
	}
	if per > 1 {
		// The maxima in red, under the means.
		top, err := plotter.NewLine(maxes)
		if err != nil {
			return err
		}
		top.Color = color.RGBA{R: 200, A: 255}
		p.Add(top)
		p.Legend.Add(fmt.Sprintf("mean of %d ticks", per), mean)
		p.Legend.Add(fmt.Sprintf("max of %d ticks", per), top)
		p.Legend.Top = true
	}
	p.Add(mean)
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}
